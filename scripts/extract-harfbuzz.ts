import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Build step of the Worker (`npm ci`'s build, `npm run dev:worker`, and the workerd test project):
 * the WebAssembly satori 0.63 would compile at run time, which workerd forbids (a Worker's
 * WebAssembly is compiled when it is uploaded), written out as modules wrangler compiles at build
 * time. src/workers/satori-wasm.ts hands them to satori instead. docs/edge.md tells the story.
 *
 * They go to generated/ at the root, outside src/, and a file is written only when its bytes
 * differ: `wrangler dev` watches src/ and rebuilds on any change there, and with this step as
 * wrangler.toml's `[build]` command it rebuilt during its own start (docs/edge.md, "The Worker's
 * build step").
 *
 * - harfbuzz.wasm: satori's text shaper, HarfBuzz compiled by Emscripten, which satori carries
 *   inside its code as base64.
 * - emscripten-functions.wasm: HarfBuzz registers JavaScript callbacks in its function table
 *   through Emscripten's `addFunction`, which compiles a tiny module per function type on the fly
 *   (it imports the function as `e.f` and exports it as `f`). This one module does it for every
 *   function type satori's HarfBuzz binding registers: it imports `e.<type>` and exports it as
 *   `<type>`.
 */

const source = fileURLToPath(import.meta.resolve('satori/standalone'));
const generated = new URL('../generated/', import.meta.url);
const wasmMagic = [0x00, 0x61, 0x73, 0x6d];

function fail(message: string): never {
  throw new Error(
    `${message} in ${source}: a satori upgrade changed how it ships HarfBuzz (docs/edge.md)`,
  );
}

/**
 * Writes a module unless it already holds these bytes, through a file renamed into place, so a
 * bundler reading it meanwhile (another run of this step, a test project) never sees half of it.
 */
function write(name: string, bytes: Uint8Array): void {
  const target = new URL(name, generated);
  if (existsSync(target) && Buffer.from(readFileSync(target)).equals(bytes)) return;
  mkdirSync(generated, { recursive: true });
  const partial = new URL(`${name}.${process.pid}.partial`, generated);
  writeFileSync(partial, bytes);
  renameSync(partial, target);
}

const code = readFileSync(source, 'utf8');

const embedded = [...code.matchAll(/"([A-Za-z0-9+/]{100000,}={0,2})"/g)]
  .map((match) => Buffer.from(match[1] ?? '', 'base64'))
  .filter((bytes) => wasmMagic.every((byte, index) => bytes[index] === byte));
if (embedded.length !== 1)
  fail(`expected one embedded WebAssembly module, found ${embedded.length}`);
write('harfbuzz.wasm', embedded[0]!);

/**
 * Emscripten's signature letters: i32 (`p` is a pointer, an i32 here), i64, f32, f64, externref;
 * the first letter is the result (`v`: none). Types are keyed with `p` read as `i`, as Emscripten
 * builds the same module for both.
 */
const valueTypes: Record<string, number> = { i: 0x7f, p: 0x7f, j: 0x7e, f: 0x7d, d: 0x7c, e: 0x6f };
const typeKey = (signature: string) => signature.replaceAll('p', 'i');

// The binding's `addFunction(callback, "<signature>")` calls.
const binding = /\{function [\w$]+\([\w$]+\)\{"use strict";var [\w$]+=[\w$]+\.wasmExports/.exec(
  code,
);
if (!binding) fail("HarfBuzz's JavaScript binding was not found");
const bindingEnd = code.indexOf('hb.wasm', binding.index);
const signatures = [
  ...new Set(
    [...code.slice(binding.index, bindingEnd).matchAll(/,"([vipjfde][ipjfde]*)"\)/g)].map((match) =>
      typeKey(match[1]!),
    ),
  ),
].sort();
if (!signatures.includes('vi')) fail('no addFunction signature was found');

/** WebAssembly's unsigned LEB128 (WebAssembly Core Specification §5.2.2). */
function leb128(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}
const vector = (items: number[][]) => [...leb128(items.length), ...items.flat()];
const name = (text: string) => [...leb128(text.length), ...Buffer.from(text, 'utf8')];
const section = (id: number, body: number[]) => [id, ...leb128(body.length), ...body];

const types = signatures.map((signature) => {
  const params = [...signature.slice(1)].map((letter) => valueTypes[letter]!);
  const results = signature[0] === 'v' ? [] : [valueTypes[signature[0]!]!];
  return [0x60, ...vector(params.map((type) => [type])), ...vector(results.map((type) => [type]))];
});
const imports = signatures.map((signature, index) => [
  ...name('e'),
  ...name(signature),
  0x00,
  ...leb128(index),
]);
const exports = signatures.map((signature, index) => [...name(signature), 0x00, ...leb128(index)]);
write(
  'emscripten-functions.wasm',
  Uint8Array.from([
    ...wasmMagic,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vector(types)),
    ...section(2, vector(imports)),
    ...section(7, vector(exports)),
  ]),
);
