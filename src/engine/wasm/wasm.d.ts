// A .wasm import is the module's octets as base64, embedded by the build (scripts/build.mjs:
// decoded when the core is made, not at import), its octets (the tests' and the tester
// page's builds), or in the workerd build a compiled module (workerd's .wasm module import).
declare module '*.wasm' {
  const core: string | Uint8Array<ArrayBuffer> | WebAssembly.Module;
  export default core;
}
