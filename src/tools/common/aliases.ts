/**
 * The rule for a field and its alias, the same for every tool (IP `target`|`q`, domain
 * `domain`|`target`, pool discover `pool`|`domain`) and for the captcha token fields: the first
 * that holds more than white space wins, so `{"target":"","q":"192.0.3.20"}` checks 192.0.3.20.
 * Two different non-empty values are not an error: the field before its alias wins.
 *
 * @returns the winning value; `''` when every field given is blank; `undefined` when none is given.
 */
export function firstNonEmpty(...values: readonly (string | undefined)[]): string | undefined {
  const given = values.filter((value): value is string => value !== undefined);
  return given.find((value) => value.trim() !== '') ?? given[0];
}
