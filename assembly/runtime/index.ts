// The core's runtime: AssemblyScript's minimal runtime (TLSF allocator, TCMS
// collector: ~lib/rt/index-minimal), with one change in tlsf.ts's growMemory.
// AssemblyScript's TLSF grows the memory by at least as much as it has (it
// doubles), so a process's WebAssembly memory is up to twice what its blocks
// need, and it never shrinks: many compiled matchers (a crawler's cache, a
// bulk run's hosts) paid up to 2x in memory for the doubling. Here it grows by
// an eighth (at least what the block needs). Vendored from AssemblyScript
// 0.28.20 (Apache-2.0); tcms.ts is unchanged but for its import paths.
import "./tlsf";
import "./tcms";
