// Written by scripts/extract-harfbuzz.ts outside src/, where `wrangler dev` does not watch.
import emscriptenFunctions from '../../generated/emscripten-functions.wasm';
import harfbuzz from '../../generated/harfbuzz.wasm';

/**
 * What satori 0.63 needs before it is imported in workerd (docs/edge.md), so this module is
 * imported first. satori starts its text shaper, HarfBuzz compiled by Emscripten, as it loads, and
 * workerd compiles no WebAssembly at run time; scripts/extract-harfbuzz.ts prepares at build time
 * what would be compiled, and this module hands it over:
 *
 * - Emscripten's loader reads `self.location.href` when it finds a worker global scope, which
 *   workerd has without a location: an inert URL stands in (nothing is fetched from it).
 * - HarfBuzz itself is instantiated from bytes embedded in satori's code: the same bytes, compiled
 *   by wrangler (`harfbuzz.wasm`), are instantiated instead.
 * - HarfBuzz's binding registers JavaScript callbacks through Emscripten's `addFunction`, which
 *   compiles a tiny module per function type (it imports the callback as `e.f` and exports it as
 *   `f`) and instantiates it: those modules are answered by `emscripten-functions.wasm`, which
 *   does the same for every function type the binding uses.
 *
 * Every other use of `WebAssembly` goes through untouched (and fails as workerd makes it fail).
 */

const runtime = globalThis as { location?: { href: string } };
runtime.location ??= { href: 'https://worker.invalid/' };

// workerd's types declare the constructors abstract; the runtime's are ordinary constructors.
const NativeModule = WebAssembly.Module as unknown as {
  new (bytes: BufferSource): WebAssembly.Module;
  prototype: WebAssembly.Module;
  exports(module: WebAssembly.Module): WebAssembly.ModuleExportDescriptor[];
  imports(module: WebAssembly.Module): WebAssembly.ModuleImportDescriptor[];
  customSections(module: WebAssembly.Module, name: string): ArrayBuffer[];
};
const NativeInstance = WebAssembly.Instance;
const instantiate = WebAssembly.instantiate.bind(WebAssembly) as (
  source: BufferSource | WebAssembly.Module,
  imports?: WebAssembly.Imports,
) => Promise<unknown>;

function bytesOf(source: unknown): Uint8Array | undefined {
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (ArrayBuffer.isView(source))
    return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  return undefined;
}

WebAssembly.instantiate = ((
  source: BufferSource | WebAssembly.Module,
  imports?: WebAssembly.Imports,
) => {
  // Only HarfBuzz hands instantiate() bytes, along with Emscripten's WASI imports.
  if (bytesOf(source) === undefined || !imports || !('wasi_snapshot_preview1' in imports))
    return instantiate(source, imports);
  // Given a compiled module, instantiate() answers the instance alone.
  return instantiate(harfbuzz, imports).then((instance) => ({
    instance: instance as WebAssembly.Instance,
    module: harfbuzz,
  }));
}) as typeof WebAssembly.instantiate;

const letters: Record<number, string> = { 0x7f: 'i', 0x7e: 'j', 0x7d: 'f', 0x7c: 'd', 0x6f: 'e' };
/** What follows the type section of addFunction's module: import `e.f`, export it as `f`. */
const wrapperTail = [2, 7, 1, 1, 101, 1, 102, 0, 0, 7, 5, 1, 1, 102, 0, 0];

/**
 * The function type (`vi`, `viiiffi`, ...) of a module Emscripten's `addFunction` built, or
 * undefined for any other bytes. Its counts are two-byte LEB128s, as Emscripten writes them.
 */
function wrapperType(bytes: Uint8Array): string | undefined {
  const count = (at: number) => (bytes[at]! & 0x7f) | (bytes[at + 1]! << 7);
  if (bytes.length < 20 || bytes[8] !== 1 || bytes[11] !== 1 || bytes[12] !== 0x60)
    return undefined;
  const params = count(13);
  const resultsAt = 15 + params;
  const results = count(resultsAt);
  const tailAt = resultsAt + 2 + results;
  if (results > 1 || bytes.length !== tailAt + wrapperTail.length) return undefined;
  if (wrapperTail.some((byte, index) => bytes[tailAt + index] !== byte)) return undefined;
  const type = (at: number) => letters[bytes[at]!] ?? '?';
  const result = results === 0 ? 'v' : type(resultsAt + 2);
  return result + Array.from({ length: params }, (_, index) => type(15 + index)).join('');
}

const prepared = new Set(NativeModule.exports(emscriptenFunctions).map((entry) => entry.name));
/** Stand-ins for addFunction's modules, by the function type each stands for. */
const standIns = new WeakMap<object, string>();
const unused = () => {
  throw new Error('an Emscripten function stand-in was called through the wrong type');
};

function Module(source: BufferSource): WebAssembly.Module {
  const bytes = bytesOf(source);
  const type = bytes && wrapperType(bytes);
  if (type === undefined) return new NativeModule(source);
  if (!prepared.has(type))
    throw new Error(
      `satori registers a function of type ${type}, which scripts/extract-harfbuzz.ts did not prepare`,
    );
  const standIn = Object.create(NativeModule.prototype) as WebAssembly.Module;
  standIns.set(standIn, type);
  return standIn;
}

function Instance(module: WebAssembly.Module, imports?: WebAssembly.Imports): WebAssembly.Instance {
  const type = standIns.get(module);
  if (type === undefined) return new NativeInstance(module, imports);
  const callback = (imports?.e as WebAssembly.ModuleImports | undefined)?.f;
  const functions: WebAssembly.ModuleImports = Object.fromEntries(
    [...prepared].map((name) => [name, (name === type ? callback : undefined) ?? unused]),
  );
  const instance = new NativeInstance(emscriptenFunctions, { e: functions });
  return { exports: { f: instance.exports[type] } } as unknown as WebAssembly.Instance;
}

Object.assign(Module, {
  prototype: NativeModule.prototype,
  exports: NativeModule.exports.bind(NativeModule),
  imports: NativeModule.imports.bind(NativeModule),
  customSections: NativeModule.customSections.bind(NativeModule),
});
Instance.prototype = NativeInstance.prototype;
WebAssembly.Module = Module as unknown as typeof WebAssembly.Module;
WebAssembly.Instance = Instance as unknown as typeof WebAssembly.Instance;
