/**
 * A small JSON Schema (2020-12) validator: just the keywords docs/zone-list.schema.json uses
 * ($ref to #/$defs, type, enum, const, pattern, minLength, minimum, maximum, minItems, items,
 * required, properties, additionalProperties, propertyNames, anyOf, allOf, not, if/then). A
 * keyword it does not know fails loudly, so the schema cannot outgrow it unnoticed.
 */

export type JsonSchema = { [keyword: string]: unknown };

const known = new Set([
  '$schema',
  '$id',
  '$defs',
  '$ref',
  'title',
  'description',
  'type',
  'enum',
  'const',
  'pattern',
  'minLength',
  'minimum',
  'maximum',
  'minItems',
  'items',
  'required',
  'properties',
  'additionalProperties',
  'propertyNames',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
]);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeOf(value) === 'object';

/** Resolves a local `#/$defs/name` reference against the root schema. */
export function resolveRef(root: JsonSchema, ref: string): JsonSchema {
  const name = /^#\/\$defs\/([\w-]+)$/.exec(ref)?.[1];
  const target = name ? (root.$defs as Record<string, JsonSchema> | undefined)?.[name] : undefined;
  if (!target) throw new Error(`unresolvable $ref ${ref}`);
  return target;
}

/** Every way `value` breaks `schema`, as `path: problem` lines; empty when it conforms. */
export function validate(root: JsonSchema, value: unknown): string[] {
  const errors: string[] = [];
  check(root, value, '$', errors);
  return errors;

  function check(schema: JsonSchema, value: unknown, path: string, out: string[]): void {
    for (const keyword of Object.keys(schema)) {
      if (!known.has(keyword)) throw new Error(`unsupported keyword ${keyword} at ${path}`);
    }
    const fail = (problem: string): void => {
      out.push(`${path}: ${problem}`);
    };
    if (typeof schema.$ref === 'string') check(resolveRef(root, schema.$ref), value, path, out);
    if (schema.type !== undefined) {
      const types = ([] as unknown[]).concat(schema.type);
      const actual = typeOf(value);
      const accepted = types.includes(actual) || (actual === 'integer' && types.includes('number'));
      if (!accepted) {
        fail(`is ${actual}, not ${types.join(' or ')}`);
        return;
      }
    }
    if (Array.isArray(schema.enum) && !schema.enum.includes(value)) fail('is not one of the enum');
    if ('const' in schema && schema.const !== value) fail(`is not ${JSON.stringify(schema.const)}`);
    if (typeof value === 'string') {
      if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) {
        fail(`does not match ${schema.pattern}`);
      }
      if (typeof schema.minLength === 'number' && [...value].length < schema.minLength) {
        fail(`is shorter than ${schema.minLength}`);
      }
    }
    if (typeof value === 'number') {
      if (typeof schema.minimum === 'number' && value < schema.minimum) fail('is below minimum');
      if (typeof schema.maximum === 'number' && value > schema.maximum) fail('is above maximum');
    }
    if (Array.isArray(value)) {
      if (typeof schema.minItems === 'number' && value.length < schema.minItems) {
        fail(`has fewer than ${schema.minItems} items`);
      }
      if (isObject(schema.items)) {
        const items = schema.items as JsonSchema;
        value.forEach((item, index) => check(items, item, `${path}[${index}]`, out));
      }
    }
    if (isObject(value)) checkObject(schema, value, path, out, fail);
    for (const branch of (schema.allOf as JsonSchema[] | undefined) ?? []) {
      check(branch, value, path, out);
    }
    if (Array.isArray(schema.anyOf)) {
      const branches = schema.anyOf as JsonSchema[];
      if (!branches.some((branch) => passes(branch, value, path))) fail('matches no anyOf branch');
    }
    if (isObject(schema.not) && passes(schema.not as JsonSchema, value, path)) {
      fail(`matches what it must not: ${JSON.stringify(schema.not)}`);
    }
    if (
      isObject(schema.if) &&
      isObject(schema.then) &&
      passes(schema.if as JsonSchema, value, path)
    ) {
      check(schema.then as JsonSchema, value, path, out);
    }
  }

  function checkObject(
    schema: JsonSchema,
    value: Record<string, unknown>,
    path: string,
    out: string[],
    fail: (problem: string) => void,
  ): void {
    for (const name of (schema.required as string[] | undefined) ?? []) {
      if (!(name in value)) fail(`lacks required ${name}`);
    }
    const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
    for (const [name, item] of Object.entries(value)) {
      const at = `${path}.${name}`;
      if (isObject(schema.propertyNames)) check(schema.propertyNames as JsonSchema, name, at, out);
      const declared = properties[name];
      if (declared) check(declared, item, at, out);
      else if (schema.additionalProperties === false) fail(`has unknown ${name}`);
      else if (isObject(schema.additionalProperties)) {
        check(schema.additionalProperties as JsonSchema, item, at, out);
      }
    }
  }

  function passes(schema: JsonSchema, value: unknown, path: string): boolean {
    const out: string[] = [];
    check(schema, value, path, out);
    return out.length === 0;
  }
}
