import { XMLParser, XMLValidator, type X2jOptions } from 'fast-xml-parser';
import { invalidReport } from './errors.js';

/**
 * XML read with fast-xml-parser, configured so that no entity is ever expanded: a DOCTYPE or any
 * other markup declaration is refused before the parser sees the text (a billion-laughs file is
 * refused in one scan, its entities never defined), and the parser's entity decoder is ours,
 * knowing only XML's five predefined entities and character references (XML 1.0 §4.1, §4.6).
 */

/** XML 1.0 §4.6: the entities every XML processor knows without a declaration. */
const predefined: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

const reference = /&(?:#(\d{1,7})|#x([0-9a-fA-F]{1,6})|([a-zA-Z]+));/g;

/**
 * The parser's entity decoder: the predefined entities and character references, nothing a
 * document declares. A reference to anything else stays as it was written.
 */
const entityDecoder = {
  decode(text: string): string {
    if (!text.includes('&')) return text;
    return text.replace(reference, (whole, decimal?: string, hex?: string, name?: string) => {
      if (name !== undefined) return predefined[name] ?? whole;
      const codePoint = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16);
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : whole;
    });
  },
  addInputEntities(entities: Record<string, string>): void {
    // Unreachable while declarations are refused before parsing; the decoder never learns one.
    if (Object.keys(entities).length > 0)
      throw invalidReport('XML entity declarations are not read');
  },
  setExternalEntities(): void {},
  reset(): void {},
  setXmlVersion(): void {},
};

/**
 * How reports' XML is parsed, for the readers and for a bench's bare parse of the same files:
 * attributes and namespace prefixes dropped (`<dmarc:feedback xmlns:dmarc=...>` is `feedback`,
 * RFC 9990's namespace changes nothing), every value a trimmed string (report ids and addresses
 * are not numbers), no jPath strings built per tag.
 */
export const reportXmlOptions: X2jOptions = {
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  entityDecoder,
  jPath: false,
};

export function createReportXmlParser(): XMLParser {
  return new XMLParser(reportXmlOptions);
}

/**
 * Refuses markup declarations (`<!DOCTYPE`, `<!ENTITY`, `<!ELEMENT`, ...) anywhere, skipping
 * comments and CDATA sections as the parser does: one indexOf scan, no expansion ever starts.
 */
export function refuseDeclarations(text: string): void {
  let at = text.indexOf('<!');
  while (at !== -1) {
    if (text.startsWith('<!--', at)) {
      at = text.indexOf('-->', at + 4);
    } else if (text.startsWith('<![CDATA[', at)) {
      at = text.indexOf(']]>', at + 9);
    } else {
      const declaration = /^<!([A-Za-z]*)/.exec(text.slice(at, at + 12))?.[1]?.toUpperCase();
      throw invalidReport(
        declaration === 'DOCTYPE' || declaration === 'ENTITY'
          ? `XML with a ${declaration} is not read (its entities are never expanded)`
          : 'XML with markup declarations is not read',
      );
    }
    if (at === -1) return;
    at = text.indexOf('<!', at);
  }
}

/** The document as fast-xml-parser's object tree; its errors become `invalid_report`. */
export function parseReportXml(parser: XMLParser, text: string): Record<string, unknown> {
  refuseDeclarations(text);
  try {
    const tree: unknown = parser.parse(text);
    if (tree !== null && typeof tree === 'object') return tree as Record<string, unknown>;
  } catch (error) {
    throw invalidReport(`not well-formed XML (${error instanceof Error ? error.message : error})`);
  }
  throw invalidReport('not XML');
}

/**
 * Why a document that did not read as a report is not well-formed XML, if it is not: asked only
 * once reading failed, so a good report is parsed once (fast-xml-parser's parse is lenient and
 * its validator is a second pass).
 */
export function malformation(text: string): string | undefined {
  const verdict = XMLValidator.validate(text);
  return verdict === true
    ? undefined
    : `not well-formed XML (${verdict.err.msg}, line ${verdict.err.line})`;
}
