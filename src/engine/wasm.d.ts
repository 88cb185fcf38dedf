// A .wasm import is the module's octets, embedded by the build (scripts/build.mjs).
declare module '*.wasm' {
  const octets: Uint8Array;
  export default octets;
}
