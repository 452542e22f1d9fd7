import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  environmentSchema,
  integer,
  mergeTables,
  parseEnvironment,
  section,
  variable,
  variablesOf,
} from '../../src/config/index.js';

/** The table form of the configuration: what a table reads into, and how tables combine. */

const table = {
  limit: variable({ name: 'LIMIT', parser: integer(1, 9), default: '5', meaning: 'A limit.' }),
  key: variable({ name: 'KEY', parser: z.string(), meaning: 'A key.' }),
  group: {
    mode: variable({ name: 'MODE', parser: z.enum(['a', 'b']), default: 'a', meaning: 'A mode.' }),
  },
  extra: section('kind', {
    kind: variable({ name: 'KIND', parser: z.string(), meaning: 'A kind.' }),
    size: variable({ name: 'SIZE', parser: integer(0, 3), default: '2', meaning: 'A size.' }),
  }),
};

const read = (env: Record<string, string>) => parseEnvironment(environmentSchema(table), env);

describe('a configuration table', () => {
  it('reads an empty environment into the defaults, leaving out unset variables and sections', () => {
    expect(read({})).toEqual({ limit: 5, group: { mode: 'a' } });
  });

  it('places each variable where the table puts it, a section once its first variable is set', () => {
    expect(read({ LIMIT: '7', KEY: 'k', MODE: 'b', KIND: 'x' })).toEqual({
      limit: 7,
      key: 'k',
      group: { mode: 'b' },
      extra: { kind: 'x', size: 2 },
    });
  });

  it('parses a default as if it had been set, so a default outside the bounds is caught', () => {
    const wrong = { n: variable({ name: 'N', parser: integer(1, 9), default: '0', meaning: '' }) };
    expect(() => parseEnvironment(environmentSchema(wrong), {})).toThrow(
      /^invalid configuration: N: an integer from 1 to 9$/,
    );
  });

  it('names every broken rule by its variable, after every variable has parsed', () => {
    const schema = environmentSchema(table, [
      (config, ctx) => {
        if (config.limit > 6)
          ctx.addIssue({ code: 'custom', path: ['LIMIT'], message: 'too high' });
      },
    ]);
    expect(() => parseEnvironment(schema, { LIMIT: '8' })).toThrow(/LIMIT: too high/);
    expect(() => parseEnvironment(schema, { LIMIT: '8', MODE: 'c' })).toThrow(/MODE/);
  });

  it('merges a runtime table into the shared one group by group, in order', () => {
    const own = { group: { depth: variable({ name: 'DEPTH', parser: z.string(), meaning: '' }) } };
    const merged = mergeTables(table, own);
    expect(variablesOf(merged).map((entry) => entry.name)).toEqual([
      'LIMIT',
      'KEY',
      'MODE',
      'DEPTH',
      'KIND',
      'SIZE',
    ]);
    expect(parseEnvironment(environmentSchema(merged), { DEPTH: 'd' }).group).toEqual({
      mode: 'a',
      depth: 'd',
    });
  });

  it('refuses two tables that define the same entry', () => {
    expect(() => mergeTables(table, { limit: table.limit })).toThrow(/limit/);
  });
});
