// Child side of the cold-start workload: from before the engine's module is
// imported to its first verdict, in a fresh node process; prints milliseconds,
// whole and in three parts: import (the adapter's module and the library it
// imports), instantiate (the adapter's instantiate(), where it has one: this
// engine's WASM compile, instance and memory set-up; an engine without one does
// that work, if any, in the next part) and first verdict (parse, compile, one check).
const t0 = performance.now();
const [module, id, agent] = process.argv.slice(2);
const adapter = (await (await import(new URL(`./adapters/${module}`, import.meta.url).href)).load()).find((a) => a.id === id);
const t1 = performance.now();
await adapter.instantiate?.();
const t2 = performance.now();
const body = 'User-agent: *\nDisallow: /private/\nAllow: /private/public\nDisallow: /*.pdf$\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n';
const file = { text: body, bytes: new TextEncoder().encode(body), origin: 'https://example.com' };
const handle = await adapter.parse(file, agent);
const verdict = adapter.checkMany ? adapter.checkMany(handle, ['https://example.com/nogoogle/x'])[0] : adapter.isAllowed(handle, 'https://example.com/nogoogle/x');
const t3 = performance.now();
// The verdict is printed so that the check cannot be skipped.
process.stdout.write(JSON.stringify({ ms: t3 - t0, importMs: t1 - t0, instantiateMs: t2 - t1, verdictMs: t3 - t2, verdict: Boolean(verdict) }));
