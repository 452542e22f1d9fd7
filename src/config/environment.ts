import { z } from 'zod';

/**
 * The configuration as a table of environment variables (docs/configuration.md). Each variable is
 * written once: its name, its parser, its default, its meaning, and by its place in the table
 * where its value goes in the typed configuration (`dns.timeoutMs`). From a runtime's table come
 * its zod schema, its configuration type and the documentation's table; nothing else names the
 * variables again. Which runtime reads a variable is the table it is in: src/config/variables.ts (every
 * runtime), src/node/config.ts, src/workers/config.ts.
 */

/** One environment variable. `HasDefault`: whether an unset variable still gives a value. */
export interface Variable<S extends z.ZodType = z.ZodType, HasDefault extends boolean = boolean> {
  readonly kind: 'variable';
  readonly name: string;
  /** Reads the variable's text into its value; its issues name what the variable accepts. */
  readonly parser: S;
  /** What an unset variable stands for, written as its text; `''` reads as unset. */
  readonly default: HasDefault extends true ? string : undefined;
  /** One sentence for docs/configuration.md. */
  readonly meaning: string;
}

/** Fields of the configuration that exist only when the one named `presentWith` has a value. */
export interface Section<F extends Table = Table, K extends string = string> {
  readonly kind: 'section';
  readonly presentWith: K;
  readonly fields: F;
}

export interface Table {
  readonly [key: string]: Variable | Section | Table;
}

export function variable<S extends z.ZodType>(spec: {
  name: string;
  parser: S;
  default: string;
  meaning: string;
}): Variable<S, true>;
export function variable<S extends z.ZodType>(spec: {
  name: string;
  parser: S;
  meaning: string;
}): Variable<S, false>;
export function variable(spec: {
  name: string;
  parser: z.ZodType;
  default?: string;
  meaning: string;
}): Variable {
  return { kind: 'variable', ...spec, default: spec.default };
}

export function section<F extends Table, K extends keyof F & string>(
  presentWith: K,
  fields: F,
): Section<F, K> {
  return { kind: 'section', presentWith, fields };
}

type Flat<T> = { [K in keyof T]: T[K] } & {};

/** Whether an entry may be missing from the configuration: an unset variable without default, a section. */
type MayBeAbsent<E> =
  E extends Variable<z.ZodType, false> ? true : E extends Section ? true : false;

type ValueOf<E> =
  E extends Variable<infer S>
    ? z.output<S>
    : E extends Section<infer F, infer K>
      ? Flat<Omit<ConfigOf<F>, K> & { [P in K & keyof ConfigOf<F>]-?: NonNullable<ConfigOf<F>[P]> }>
      : ConfigOf<E>;

/** The configuration a table reads into: its shape, with each variable's parsed value. */
export type ConfigOf<T> = Flat<
  { [K in keyof T as MayBeAbsent<T[K]> extends true ? never : K]: ValueOf<T[K]> } & {
    [K in keyof T as MayBeAbsent<T[K]> extends true ? K : never]?: ValueOf<T[K]>;
  }
>;

/** Two tables as one: a runtime's own variables added to the shared ones, group by group. */
export type Merged<A, B> = {
  [K in keyof A | keyof B]: K extends keyof A
    ? K extends keyof B
      ? Merged<A[K], B[K]>
      : A[K]
    : K extends keyof B
      ? B[K]
      : never;
};

const isVariable = (entry: Variable | Section | Table): entry is Variable =>
  entry.kind === 'variable';
const isSection = (entry: Variable | Section | Table): entry is Section => entry.kind === 'section';

export function mergeTables<A extends Table, B extends Table>(a: A, b: B): Merged<A, B> {
  const merged: Record<string, Variable | Section | Table> = { ...a };
  for (const [key, entry] of Object.entries(b)) {
    const mine = merged[key];
    if (mine === undefined) merged[key] = entry;
    else if (isVariable(mine) || isSection(mine) || isVariable(entry) || isSection(entry))
      throw new Error(`configuration tables both define ${key}`);
    else merged[key] = mergeTables(mine, entry);
  }
  return merged as Merged<A, B>;
}

/** Every variable of a table, in its order. */
export function variablesOf(table: Table): Variable[] {
  return Object.values(table).flatMap((entry) =>
    isVariable(entry) ? [entry] : variablesOf(isSection(entry) ? entry.fields : entry),
  );
}

/** The parsed variables, by name, placed where the table puts them. */
function place(table: Table, values: Record<string, unknown>): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(table)) {
    if (isVariable(entry)) {
      if (values[entry.name] !== undefined) config[key] = values[entry.name];
    } else if (isSection(entry)) {
      const fields = place(entry.fields, values);
      if (fields[entry.presentWith] !== undefined) config[key] = fields;
    } else config[key] = place(entry, values);
  }
  return config;
}

/** A rule between variables: it reports each broken one by name (`ctx.addIssue({ path: [NAME] })`). */
export type Rule<C> = (config: C, ctx: z.RefinementCtx) => void;

/**
 * A runtime's schema: every variable of its table by name (a default parsed as if it had been
 * set), read into the configuration's shape, then the rules between variables.
 */
export function environmentSchema<T extends Table>(table: T, rules: Rule<ConfigOf<T>>[] = []) {
  const shape = Object.fromEntries(
    variablesOf(table).map((entry) => [
      entry.name,
      entry.default === undefined ? entry.parser.optional() : entry.parser.prefault(entry.default),
    ]),
  );
  return z
    .object(shape)
    .transform((values) => place(table, values) as ConfigOf<T>)
    .superRefine((config, ctx) => {
      for (const rule of rules) rule(config, ctx);
    });
}

/**
 * Parses an environment with a runtime's schema, or throws one Error listing every bad variable
 * by name on one line (never its value: some are secrets). An empty variable counts as unset, as
 * in most shells' `VAR= cmd`; values that are not strings (Workers bindings) are not variables.
 */
export function parseEnvironment<S extends z.ZodType>(
  schema: S,
  env: Record<string, unknown>,
): z.infer<S> {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => typeof value === 'string' && value !== ''),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    // One line: the Node server prints it as its only output, Workers answers it in a JSON error.
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/**
 * A whole number within bounds, from its decimal text; every way of missing them gets the one
 * message saying them.
 */
export const integer = (min: number, max: number) => {
  const expected = `an integer from ${min} to ${max}`;
  return z.coerce.number(expected).int(expected).min(min, expected).max(max, expected);
};

/** A comma list; blanks around entries and empty entries are dropped. */
export const commaList = z.string().transform((text) =>
  text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== ''),
);
