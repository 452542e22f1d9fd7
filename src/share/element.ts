/**
 * Plain element objects, the shape satori accepts in place of JSX (`{ type, props }`), so the card
 * is built with ordinary typed functions rather than a JSX runtime.
 */

export type Style = Record<string, string | number>;

export type Child = Element | string | null;

export interface Element {
  type: string;
  props: { style?: Style; children?: Child | Child[]; [attribute: string]: unknown };
}

/** A box: `h('div', { display: 'flex' }, 'text', h(...))`; a null child draws nothing, as in JSX. */
export function h(type: string, style: Style, ...children: Child[]): Element {
  return { type, props: { style, children } };
}

/** An SVG element, which satori takes attributes for rather than a style. */
export function svg(
  type: string,
  attributes: Record<string, string | number>,
  ...children: Element[]
): Element {
  return { type, props: { ...attributes, children } };
}
