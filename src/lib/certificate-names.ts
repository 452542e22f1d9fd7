/**
 * Whether a certificate's DNS names cover a host name, by the rules of RFC 6125 §6.4: compared
 * without case and without a final dot (§6.4.1); a wildcard only as the whole left-most label,
 * standing for exactly one label (§6.4.3), and never over a public suffix of one label
 * (`*.com`); no partial wildcards (`mx*.example.com`), which §6.4.3 lets a client refuse.
 */
export function certificateNamesCover(names: readonly string[], host: string): boolean {
  const wanted = normalised(host);
  return names.some((name) => nameCovers(normalised(name), wanted));
}

function normalised(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

function nameCovers(pattern: string, host: string): boolean {
  if (!pattern.startsWith('*.')) return pattern === host && !pattern.includes('*');
  const parent = pattern.slice(2);
  if (parent.includes('*') || !parent.includes('.')) return false;
  const dot = host.indexOf('.');
  return dot > 0 && host.slice(dot + 1) === parent;
}
