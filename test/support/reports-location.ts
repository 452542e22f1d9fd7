/**
 * A test's variables with the reports kept `elsewhere` (in memory) when nothing says where: their
 * default is beside a SQLite STORE_URL, else `data/reports.db` in the working folder, which a test
 * with a Redis store would otherwise write into the repository (and share with every parallel
 * test).
 */
export function withReportsOutsideTheRepository(
  env: Record<string, string> | undefined,
  elsewhere: () => string = () => 'memory:',
): Record<string, string> {
  const storeUrl = env?.STORE_URL ?? 'memory:';
  const sqliteFile = storeUrl.startsWith('sqlite:') && !storeUrl.startsWith('sqlite://');
  if (env?.REPORTS_URL !== undefined || sqliteFile) return env ?? {};
  return { ...env, REPORTS_URL: elsewhere() };
}
