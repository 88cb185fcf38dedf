// Child side of the cold-start workload: from before the engine's module is
// imported to its first verdict, in a fresh node process; prints milliseconds.
const t0 = performance.now();
const [module, id, agent] = process.argv.slice(2);
const adapter = (await (await import(new URL(`./adapters/${module}`, import.meta.url).href)).load()).find((a) => a.id === id);
const body = 'User-agent: *\nDisallow: /private/\nAllow: /private/public\nDisallow: /*.pdf$\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n';
const file = { text: body, bytes: new TextEncoder().encode(body), origin: 'https://example.com' };
const handle = await adapter.parse(file, agent);
const verdict = adapter.checkMany ? adapter.checkMany(handle, ['https://example.com/nogoogle/x'])[0] : adapter.isAllowed(handle, 'https://example.com/nogoogle/x');
const ms = performance.now() - t0;
// The verdict is printed so that the check cannot be skipped.
process.stdout.write(JSON.stringify({ ms, verdict: Boolean(verdict) }));
