/**
 * RFC 9110 §13.1.2: If-None-Match compares weakly, so a compressed copy's `W/` tag (Node's
 * compression weakens a strong tag, docs/openapi.md) matches the strong one; `*` matches any.
 */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return (
    ifNoneMatch.trim() === '*' ||
    ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag)
  );
}
