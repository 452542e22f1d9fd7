/**
 * The service variants of the side-by-side experiments (ab-cpu.ts, trickle-ab.ts, idle-cpu.ts): each
 * `name=entry[|node flags][|ENV=value,...]`, separated by `;`. An entry is a compiled server
 * relative to the repository (a copy of an older `dist/` is a variant).
 */

export interface Variant {
  name: string;
  entry: string;
  flags: string[];
  env: Record<string, string>;
}

export function parseVariants(text: string): Variant[] {
  return text.split(';').map((spec) => {
    const [head = '', flagText = '', envText = ''] = spec.split('|');
    const [name = '', entry = 'dist/server.js'] = head.split('=');
    const env = Object.fromEntries(
      envText
        .split(',')
        .filter((pair) => pair !== '')
        .map((pair) => pair.split('=') as [string, string]),
    );
    return { name, entry, flags: flagText.split(' ').filter((flag) => flag !== ''), env };
  });
}
