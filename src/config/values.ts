import { z } from 'zod';
import { parseTrustProxy } from '../http/index.js';
import { parseAddressRanges } from '../lib/index.js';
import { parseMailbox } from '../watch/index.js';
import { parsePortRanges } from '../webhooks/index.js';
import { commaList, integer } from './environment.js';

/** The value forms the variables' tables share: what each parser accepts, and the message when not. */

/** An absolute http(s) URL without credentials: where DoH queries are POSTed (RFC 8484 §4.1). */
export function isDohEndpoint(entry: string): boolean {
  if (!URL.canParse(entry)) return false;
  const url = new URL(entry);
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.username === '' &&
    url.password === ''
  );
}

export const trustProxy = z.string().transform((value, ctx) => {
  try {
    return parseTrustProxy(value);
  } catch (error) {
    ctx.addIssue({
      code: 'custom',
      message: (error as Error).message.replace(/^TRUST_PROXY: /, ''),
    });
    return z.NEVER;
  }
});

export const publicUrl = z
  .url({ protocol: /^https?$/ })
  .refine((text) => {
    const url = new URL(text);
    return url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  }, 'an http(s) URL such as https://rep.example.org, without query, fragment or credentials')
  // Without a trailing slash: every absolute URL is it followed by BASE_PATH.
  .transform((text) => new URL(text).href.replace(/\/+$/, ''));

/** CIDRs (a bare address is a single-address network), each entry that is not one named. */
export const networks = commaList.transform((entries, ctx) => {
  const { ranges, invalid } = parseAddressRanges(entries);
  for (const entry of invalid) {
    ctx.addIssue({ code: 'custom', message: `"${entry}" is not a CIDR such as 10.0.0.0/8` });
  }
  return ranges;
});

/** Ports and port ranges (`80,443,1024-65535`), each entry from 1 to 65535. */
export const portRanges = commaList.transform((entries, ctx) => {
  const ranges = parsePortRanges(entries);
  if (ranges && ranges.length > 0) return ranges;
  ctx.addIssue({
    code: 'custom',
    message: 'a comma list of ports and ranges from 1 to 65535, such as 80,443,1024-65535',
  });
  return z.NEVER;
});

/** RFC 6750 §2.1's b64token, long enough not to be guessed: METRICS_TOKEN's and OPERATOR_TOKEN's form. */
export const bearerToken = z
  .string()
  .regex(
    /^[A-Za-z0-9._~+/-]{16,}=*$/,
    'at least 16 characters of letters, digits and -._~+/ (a bearer token)',
  );

/** An smtp:// or smtps:// URL with a host (credentials in it, RFC 3986 §3.2.1, as nodemailer reads it). */
export const smtpUrl = z.string().refine((text) => {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
}, 'an smtp:// or smtps:// URL such as smtps://user:password@smtp.example.org:465');

/** ALERT_FROM: an address, or a display name and an address in angle brackets. */
export const mailbox = z
  .string()
  .refine(
    (text) => parseMailbox(text) !== undefined,
    'an address such as alerts@example.org, or Reputation <alerts@example.org>',
  );

export const seconds = (min: number, max: number) => integer(min, max).transform((s) => s * 1000);
export const days = (min: number, max: number) =>
  integer(min, max).transform((d) => d * 86_400_000);
