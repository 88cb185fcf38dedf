// A .wasm import is the module's octets, embedded by the build (scripts/build.mjs),
// or in the workerd build a compiled module (workerd's .wasm module import).
declare module '*.wasm' {
  const core: Uint8Array | WebAssembly.Module;
  export default core;
}
