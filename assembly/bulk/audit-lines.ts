// The audit's lexing (src/bulk/audit/audit-records.ts: records only of the lines it
// reads), exported from here so that only the whole core has it: the library's core
// (scripts/build-wasm.mjs leaves assembly/bulk/ out) would otherwise compile a second
// copy of the lexer's loop, which only the command's audit runs, into every app's
// fresh process (34,227 octets of core without it, 37,507 with it).
export { lexRunGroupKeys } from "../parse/lexer";
