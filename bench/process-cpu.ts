import { readFile } from 'node:fs/promises';

/** USER_HZ: 100 on every Linux architecture Node runs on. */
const clockTicksPerSecond = 100;

/** CPU time a process has used (user + system, all threads), in ms, from /proc/<pid>/stat. */
export async function processCpuMs(pid: number): Promise<number> {
  // Fields 14 and 15 (utime, stime) in clock ticks, after the `(comm)` field.
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
}
