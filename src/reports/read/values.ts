import { canonicalIpv6, isDottedQuad, parseAddress } from '../../lib/index.js';

/**
 * Values as reports write them, read leniently where receivers differ and strictly where a number
 * is counted. fast-xml-parser gives an element as a string (a leaf; `''` when empty), an object
 * (children, or mixed content's `#text`) or an array (the element repeated).
 */

export type Element = Record<string, unknown>;

/** An element's text: its first occurrence's, `''` when empty or missing. */
export function textOf(node: unknown): string {
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return textOf(node[0]);
  if (node !== null && typeof node === 'object') {
    const text = (node as Element)['#text'];
    return typeof text === 'string' ? text : '';
  }
  return '';
}

/** The text, or null when the element is missing or empty. */
export function optionalText(node: unknown): string | null {
  const text = textOf(node);
  return text === '' ? null : text;
}

/** Lower case, or null when missing or empty: results, dispositions, domains. */
export function lowerText(node: unknown): string | null {
  const text = textOf(node);
  return text === '' ? null : text.toLowerCase();
}

/** A domain as a report names it: lower case, without the root's trailing dot. */
export function domainText(node: unknown): string | null {
  const domain = lowerText(node);
  return domain?.endsWith('.') ? domain.slice(0, -1) || null : domain;
}

/** An element with children: its first occurrence, or undefined for a leaf or nothing. */
export function elementOf(node: unknown): Element | undefined {
  if (Array.isArray(node)) return elementOf(node[0]);
  return node !== null && typeof node === 'object' ? (node as Element) : undefined;
}

/** Every occurrence of an element that has children (an empty `<spf/>` says nothing). */
export function elementsOf(node: unknown): Element[] {
  if (Array.isArray(node)) return node.filter(isElement);
  return isElement(node) ? [node] : [];
}

function isElement(node: unknown): node is Element {
  return node !== null && typeof node === 'object';
}

/**
 * A count: decimal digits only (no sign, fraction or exponent), at most 15 of them so the sum of
 * a year stays exact. Undefined for anything else.
 */
export function countOf(text: string): number | undefined {
  return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

/** Seconds since the epoch; a fraction (`1530133200.0`, seen in the wild) is dropped. */
export function epochSecondsOf(text: string): number | undefined {
  const match = /^(\d{1,12})(?:\.\d*)?$/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/**
 * An address in canonical text: a dotted quad as it is, IPv6 as RFC 5952 §4 writes it, an
 * IPv4-mapped IPv6 address as the IPv4 address it stands for (one source, one spelling).
 */
export function canonicalAddress(text: string): string | undefined {
  if (isDottedQuad(text)) return text;
  const address = parseAddress(text);
  if (address === undefined) return undefined;
  return address.kind() === 'ipv4' ? address.toString() : canonicalIpv6(address.toString());
}

/** A value as a refusal quotes it: at most 60 characters. */
export function quoted(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}
