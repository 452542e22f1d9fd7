import type { MtaStsPolicy } from '../results/index.js';
import { parseTagList, reportingTagRules } from '../checks/index.js';
import { extensionValue } from './tls-rpt.js';

/**
 * MTA-STS (RFC 8461): the `_mta-sts.<domain>` TXT record (§3.1), the policy served at
 * `https://mta-sts.<domain>/.well-known/mta-sts.txt` (§3.2, §3.3), and whether the domain's MX
 * hosts match the policy's `mx` patterns (§4.1).
 */

/** §3.3: where the policy is served, on the `mta-sts` host of the domain. */
export const policyPath = '/.well-known/mta-sts.txt';
export function policyHost(domain: string): string {
  return `mta-sts.${domain}`;
}

/** §3.2: max_age is at most 31557600 seconds (about a year). */
export const maxPolicyAge = 31_557_600;

export type MtaStsRecord = { ok: true; id: string } | { ok: false; reason: string };

/**
 * §3.1: records not starting with the version are discarded: exactly "v=STSv1" (case-sensitive),
 * then *WSP and ";" (sts-field-delim).
 */
export function isStsRecord(text: string): boolean {
  return /^v=STSv1[ \t]*(?:;|$)/.test(text);
}

/**
 * §3.1: of the TXT records, those starting `v=STSv1;` count; if not exactly one remains, or it is
 * invalid, there is no policy. `id` is 1 to 32 letters and digits.
 */
export function readStsRecords(records: readonly string[]): MtaStsRecord | undefined {
  const sts = records.filter(isStsRecord);
  if (sts.length === 0) return undefined;
  if (sts.length > 1)
    return { ok: false, reason: `${sts.length} v=STSv1 records (RFC 8461 §3.1 wants one)` };
  const list = parseTagList(sts[0]!, reportingTagRules);
  if (!list.ok) return { ok: false, reason: `${list.reason} (RFC 8461 §3.1)` };
  const extension = [...list.tags].find(
    ([name, value]) => name !== 'v' && name !== 'id' && !extensionValue.test(value),
  );
  if (extension !== undefined) {
    return { ok: false, reason: `${extension[0]}= has no value RFC 8461 §3.1 allows` };
  }
  const id = list.tags.get('id');
  if (id === undefined) return { ok: false, reason: 'no id= field' };
  if (!/^[A-Za-z0-9]{1,32}$/.test(id)) {
    return { ok: false, reason: `id=${id} is not 1 to 32 letters and digits` };
  }
  return { ok: true, id };
}

export type ParsedPolicy = { ok: true; policy: MtaStsPolicy } | { ok: false; reason: string };

/**
 * §3.2: `key: value` lines, the keys case-sensitive (`%s"mode"`). `version` must be STSv1; `mode`
 * enforce, testing or none; `max_age` a non-negative integer up to 31557600; `mx` one or more
 * patterns, required unless the mode is none. Other keys are extensions (sts-policy-extension),
 * kept out of the way; a key other than `mx` named twice leaves the policy without one meaning,
 * so it is invalid. The RFC's terms end with CRLF or LF (sts-policy-term-delim).
 */
export function parsePolicy(text: string): ParsedPolicy {
  const fields = new Map<string, string>();
  const mx: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.replace(/[ \t]+$/, '') === '') continue;
    const colon = line.indexOf(':');
    if (colon < 0) return { ok: false, reason: `"${line.slice(0, 80)}" is not key: value` };
    const key = line.slice(0, colon);
    // §3.2 sts-policy-field-delim = ":" *WSP; white space at the end of a line is not the value.
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/.test(key)) {
      return { ok: false, reason: `"${key.slice(0, 40)}" is not a key` };
    }
    if (key === 'mx') mx.push(value.toLowerCase());
    else if (fields.has(key)) return { ok: false, reason: `${key} appears twice` };
    else fields.set(key, value);
  }
  if (fields.get('version') !== 'STSv1') return { ok: false, reason: 'version is not STSv1' };
  const mode = fields.get('mode');
  if (mode !== 'enforce' && mode !== 'testing' && mode !== 'none') {
    return { ok: false, reason: `mode ${mode ?? '(missing)'} is not enforce, testing or none` };
  }
  const age = fields.get('max_age');
  if (age === undefined || !/^\d{1,10}$/.test(age) || Number(age) > maxPolicyAge) {
    return {
      ok: false,
      reason: `max_age ${age ?? '(missing)'} is not 0 to ${maxPolicyAge} seconds`,
    };
  }
  const badPattern = mx.find((pattern) => !isMxPattern(pattern));
  if (badPattern !== undefined)
    return { ok: false, reason: `mx ${badPattern} is not a host name or *.name` };
  if (mode !== 'none' && mx.length === 0)
    return { ok: false, reason: `mode ${mode} without an mx line` };
  return { ok: true, policy: { mode, mx, max_age: Number(age) } };
}

/** §3.2: a host name, or "*." and a host name (the wildcard only as the whole leftmost label). */
function isMxPattern(pattern: string): boolean {
  const name = pattern.startsWith('*.') ? pattern.slice(2) : pattern;
  return /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.?$/.test(name);
}

/**
 * §4.1: a host matches a pattern written out whole, or a `*.` pattern whose wildcard stands for
 * exactly one label: `*.example.com` matches `mx.example.com`, not `example.com` nor
 * `a.b.example.com`. Names compare case-insensitively, a trailing dot ignored.
 */
export function mxMatches(host: string, pattern: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  const wanted = pattern.toLowerCase().replace(/\.$/, '');
  if (!wanted.startsWith('*.')) return name === wanted;
  const dot = name.indexOf('.');
  return dot > 0 && name.slice(dot + 1) === wanted.slice(2);
}

/** The MX hosts that match none of the policy's patterns. */
export function uncoveredMx(hosts: readonly string[], policy: MtaStsPolicy): string[] {
  return hosts.filter((host) => !policy.mx.some((pattern) => mxMatches(host, pattern)));
}

/** §3.3: the media type the policy must be served with, "text/plain" with any parameters. */
export function isPolicyMediaType(contentType: string | null): boolean {
  return contentType !== null && /^text\/plain\s*(?:;|$)/i.test(contentType.trim());
}
