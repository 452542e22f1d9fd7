/**
 * A deliberately strict reader for the SVG that badge-maker writes: elements, double-quoted
 * attributes and text with the five XML entities or numeric references, nothing else (no comments,
 * CDATA, processing instructions or doctype). Anything it does not expect is an error, so markup
 * smuggled in through a badge's text cannot pass unnoticed.
 */

export interface SvgElement {
  name: string;
  attributes: Record<string, string>;
  children: SvgElement[];
  /** The element's own text, entities decoded. */
  text: string;
}

const openTag = /<([A-Za-z][\w.-]*)((?:\s+[A-Za-z_][\w:.-]*="[^"<]*")*)\s*(\/?)>/y;
const closeTag = /<\/([A-Za-z][\w.-]*)\s*>/y;
const textRun = /[^<]+/y;
const attribute = /([A-Za-z_][\w:.-]*)="([^"<]*)"/g;
const reference = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(raw: string, where: string): string {
  if (raw.replace(reference, '').includes('&')) throw new Error(`bare & in ${where}: ${raw}`);
  return raw.replace(reference, (entity) => {
    const body = entity.slice(1, -1);
    if (body.startsWith('#x')) return String.fromCodePoint(parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return String.fromCodePoint(parseInt(body.slice(1), 10));
    return named[body] ?? '';
  });
}

function match(pattern: RegExp, source: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(source);
}

export function parseStrictSvg(source: string): SvgElement {
  const root: SvgElement = { name: '#document', attributes: {}, children: [], text: '' };
  const open: SvgElement[] = [root];
  let at = 0;
  while (at < source.length) {
    const parent = open[open.length - 1]!;
    const start = match(openTag, source, at);
    const end = start ? null : match(closeTag, source, at);
    const text = start || end ? null : match(textRun, source, at);
    if (start) {
      const [whole, name = '', rawAttributes = '', selfClosing] = start;
      const attributes: Record<string, string> = {};
      for (const [, key = '', value = ''] of rawAttributes.matchAll(attribute)) {
        if (key in attributes) throw new Error(`duplicate attribute ${key} on <${name}>`);
        attributes[key] = decode(value, `attribute ${key}`);
      }
      const element: SvgElement = { name, attributes, children: [], text: '' };
      parent.children.push(element);
      if (!selfClosing) open.push(element);
      at += whole.length;
    } else if (end) {
      if (end[1] !== parent.name) throw new Error(`</${end[1]}> closes <${parent.name}>`);
      open.pop();
      at += end[0].length;
    } else if (text) {
      if (parent === root && text[0].trim()) throw new Error('text outside the root element');
      parent.text += decode(text[0], `<${parent.name}>`);
      at += text[0].length;
    } else {
      throw new Error(`unexpected markup at ${at}: ${source.slice(at, at + 40)}`);
    }
  }
  if (open.length !== 1) throw new Error(`<${open[open.length - 1]!.name}> is not closed`);
  const [svg, ...others] = root.children;
  if (!svg || others.length > 0) throw new Error('expected exactly one root element');
  return svg;
}

export function* allElements(element: SvgElement): Generator<SvgElement> {
  yield element;
  for (const child of element.children) yield* allElements(child);
}
