// The cold-start children's one measurement (cold-start-child.mjs with import(),
// cold-start-child.cjs with require(): the same clocks and parts for both): from
// before the engine's library is loaded to its first verdict, printed as JSON:
// milliseconds whole, the load and the first verdict apart, and the process's CPU
// time over the same spans (every thread: steadier than the clock on a loaded machine).
const BODY = 'User-agent: *\nDisallow: /private/\nAllow: /private/public\nDisallow: /*.pdf$\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n';

/** engine: a row of cold-start-engines.cjs; load: the library by the child's module system. */
async function measureColdStart(engine, agent, load) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const library = await load();
  const t1 = performance.now();
  const c1 = process.cpuUsage(c0);
  const verdict = await engine.firstVerdict(library, BODY, 'https://example.com/nogoogle/x', agent);
  const t2 = performance.now();
  const cpu = process.cpuUsage(c0);
  // The verdict is printed so that the check cannot be skipped.
  process.stdout.write(JSON.stringify({ ms: t2 - t0, importMs: t1 - t0, verdictMs: t2 - t1, cpuMs: (cpu.user + cpu.system) / 1000, importCpuMs: (c1.user + c1.system) / 1000, verdict: Boolean(verdict) }));
}

module.exports = { measureColdStart };
