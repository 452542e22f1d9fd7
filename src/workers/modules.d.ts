/**
 * Modules wrangler.toml's `[[rules]]` make of files (docs/edge.md): WebAssembly compiled at
 * build time, and the card's fonts as bytes.
 */

declare module '*.wasm' {
  const compiled: WebAssembly.Module;
  export default compiled;
}

declare module '*.woff' {
  const bytes: ArrayBuffer;
  export default bytes;
}

declare module '*.css' {
  const text: string;
  export default text;
}
