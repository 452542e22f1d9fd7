import { html } from 'hono/html';
import type { Html } from './layout.js';

/**
 * An address as the page writes it: an IPv6 address may break after a colon (`<wbr>`), so the
 * longest canonical one (39 characters) fits a phone's column whole, broken between groups rather
 * than anywhere; an IPv4 address never breaks (docs/ipv6.md).
 */
export function addressHtml(address: string): Html | string {
  if (!address.includes(':')) return address;
  const groups = address.split(':');
  return html`${groups.map((group, index) =>
    index === groups.length - 1 ? group : html`${group}:<wbr />`,
  )}`;
}
