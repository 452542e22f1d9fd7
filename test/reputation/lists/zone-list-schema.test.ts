import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import bundled from '../../../assets/dnsbl-zones.json' with { type: 'json' };
import { parseZoneList, zoneListSchema } from '../../../src/reputation/lists/zones.js';
import { type JsonSchema, resolveRef, validate } from '../../support/json-schema.js';

/**
 * docs/zone-list.schema.json, the zone list's format for people and other tools, checked against
 * the data it describes and against the zod schema the service parses with (zones.ts).
 */

const schema = JSON.parse(
  readFileSync(new URL('../../../docs/zone-list.schema.json', import.meta.url), 'utf8'),
) as JsonSchema;

/** A valid list of one entry, to break in one place. */
const oneList = (): Record<string, unknown>[] => [
  {
    zone: 'bl.example.org',
    name: 'Example list',
    type: 'ip',
    severity: 'minor',
    lists: { en: 'spam sources', ru: 'источники спама' },
    codes: { '127.0.0.2': { meaning: 'listed', ru: 'в списке' } },
  },
];

/**
 * What a schema says of objects, with references resolved and branches merged: the keys each
 * object may hold, those it must, and the same for what lies below each key.
 */
type Shape = { keys: string[]; required: string[]; below: Record<string, Shape> } | 'value';

function shapeOf(root: JsonSchema, schema: JsonSchema): Shape {
  const parts = partsOf(root, schema);
  const items = parts.find((part) => part.items !== undefined)?.items as JsonSchema | undefined;
  if (items) return shapeOf(root, items);
  const record = parts.find((part) => typeof part.additionalProperties === 'object');
  if (record) return shapeOf(root, record.additionalProperties as JsonSchema);
  const objects = parts.filter((part) => part.properties !== undefined);
  if (objects.length === 0) return 'value';
  const properties = Object.assign(
    {},
    ...objects.map((part) => part.properties as Record<string, JsonSchema>),
  ) as Record<string, JsonSchema>;
  const required = objects.flatMap((part) => (part.required as string[] | undefined) ?? []);
  return {
    keys: Object.keys(properties).sort(),
    required: [...new Set(required)].sort(),
    below: Object.fromEntries(
      Object.entries(properties).map(([name, part]) => [name, shapeOf(root, part)]),
    ),
  };
}

/** A schema and what it takes in through $ref, allOf and the object branches of anyOf. */
function partsOf(root: JsonSchema, schema: JsonSchema): JsonSchema[] {
  const resolved = typeof schema.$ref === 'string' ? resolveRef(root, schema.$ref) : undefined;
  const branches = [
    ...((schema.allOf as JsonSchema[] | undefined) ?? []),
    ...((schema.anyOf as JsonSchema[] | undefined) ?? []),
  ];
  return [
    schema,
    ...(resolved ? partsOf(root, resolved) : []),
    ...branches.flatMap((branch) => partsOf(root, branch)),
  ];
}

describe('docs/zone-list.schema.json', () => {
  it('accepts the bundled zone list', () => {
    expect(validate(schema, bundled)).toEqual([]);
  });

  it.each([
    ['a list without a severity', (list: Record<string, unknown>) => delete list.severity],
    [
      'a return code outside 127.0.0.0/8',
      (list: Record<string, unknown>) => {
        list.codes = { '10.0.0.2': 'listed' };
      },
    ],
    [
      'both a code table and a grade',
      (list: Record<string, unknown>) => {
        list.grade = 'dnswl';
      },
    ],
    [
      'an IPv6 side on a domain list',
      (list: Record<string, unknown>) => {
        list.type = 'domain';
        list.ipv6 = { source: 'https://example.org/ipv6' };
      },
    ],
    [
      'what it lists without Russian',
      (list: Record<string, unknown>) => {
        list.lists = { en: 'spam sources' };
      },
    ],
    [
      'a meaning written out without Russian',
      (list: Record<string, unknown>) => {
        list.codes = { '127.0.0.2': { meaning: 'listed' } };
      },
    ],
    [
      'an error meaning written out without Russian',
      (list: Record<string, unknown>) => {
        list.errors = { '127.255.255.254': { meaning: 'refused' } };
      },
    ],
    [
      'a key from a variable the service does not know',
      (list: Record<string, unknown>) => {
        list.key = { variable: 'OTHER_KEY', query: '{key}.bl.example.org' };
      },
    ],
    [
      'a lookup page without the target',
      (list: Record<string, unknown>) => {
        list.lookupUrl = 'https://example.org/lookup';
      },
    ],
    [
      'a trust level no allowlist uses',
      (list: Record<string, unknown>) => {
        list.codes = { '127.0.0.2': { meaning: 'listed', ru: 'в списке', trust: 'total' } };
      },
    ],
  ])('refuses %s, as the service does', (_, breakIt) => {
    const broken = oneList();
    breakIt(broken[0]!);
    expect(validate(schema, broken)).not.toEqual([]);
    expect(() => parseZoneList(broken)).toThrow(/invalid zone list at 0/);
  });

  it('accepts the entry those cases break, as the service does', () => {
    expect(validate(schema, oneList())).toEqual([]);
    expect(parseZoneList(oneList())).toHaveLength(1);
  });

  it('names every key the service parses, at every level, and requires the same ones', () => {
    const parsed = z.toJSONSchema(zoneListSchema, { io: 'input' }) as JsonSchema;
    expect(shapeOf(schema, schema)).toEqual(shapeOf(parsed, parsed));
  });
});
