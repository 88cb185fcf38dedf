// The host cache of robots classify --robots-dir owns its matchers (host-matchers.ts):
// it frees each one it evicts, and the rest when the run ends (BlockClassifier.close),
// so none is registered with the backstop's FinalizationRegistry (backstop.ts), a
// cost per host the library's compile-check-dispose never pays. Counted: the
// registrations during a run, and the core's memory after close() against before.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlockClassifier, type ClassifyConfig } from '../../src/bulk/classify/classify-config.js';
import { backstopRegistrations, coreAllocatedBytes } from '../../src/internal.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-cache-release-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// More hosts than the backstop holds waiting in a job (256): before, each cached matcher was registered.
const HOSTS = 600;
for (let h = 0; h < HOSTS; h++) writeFileSync(path.join(dir, `h${h}.example`), `User-agent: *\nDisallow: /private/${h}\nAllow: /private/${h}/ok\n`);
const urls = Array.from({ length: HOSTS }, (_, h) => [`http://h${h}.example/private/${h}/x`, `http://h${h}.example/private/${h}/ok`, `http://h${h}.example/`]).flat();
const block = new TextEncoder().encode(urls.join('\n') + '\n');
const verdicts = (output: Uint8Array) => new TextDecoder().decode(output).split('\n').slice(0, -1).map((l) => l.split('\t')[0]);
const expected = urls.map((u) => (u.endsWith('/x') ? 'disallowed' : 'allowed'));

describe('the host cache releases its own matchers', () => {
  it.each<[string, { crawlers?: string[] }]>([
    ['one crawler', {}],
    ['several crawlers', { crawlers: ['FooBot', 'BarBot'] }],
  ])('%s: no matcher registered for finalisation; close() frees what the cache held', async (_, extra) => {
    const config: ClassifyConfig = { robotsDir: dir, agents: ['FooBot'], profile: 'google', format: 'tsv', maxOctets: 1 << 20, cacheBytes: 1 << 26, ...extra };
    const classifier = new BlockClassifier(config);
    classifier.classify(block); // (the core's areas grown to this block's size, once)
    classifier.close();
    const allocated = coreAllocatedBytes();
    const before = backstopRegistrations();
    const r = classifier.classify(block);
    expect(r.loads).toBe(HOSTS);
    if (extra.crawlers === undefined) expect(verdicts(r.output)).toEqual(expected);
    await Promise.resolve(); // (the job ends: the backstop registers what is still waiting)
    expect(backstopRegistrations() - before).toBe(0);
    expect(coreAllocatedBytes()).toBeGreaterThan(allocated + HOSTS * 64);
    classifier.close();
    expect(coreAllocatedBytes()).toBeLessThanOrEqual(allocated + 4096);
    // Still usable after: the hosts loaded again.
    expect(classifier.classify(block).loads).toBe(HOSTS);
    classifier.close();
  });

  it('a small cache frees each matcher it evicts: the core holds about the bound, not every host', async () => {
    const config: ClassifyConfig = { robotsDir: dir, agents: ['FooBot'], profile: 'google', format: 'tsv', maxOctets: 1 << 20, cacheBytes: 64 << 10 };
    const classifier = new BlockClassifier(config);
    classifier.classify(block);
    classifier.close();
    const allocated = coreAllocatedBytes();
    const before = backstopRegistrations();
    const r = classifier.classify(block);
    expect(r.evictions).toBeGreaterThan(HOSTS / 2);
    expect(verdicts(r.output)).toEqual(expected);
    await Promise.resolve();
    expect(backstopRegistrations() - before).toBe(0);
    expect(coreAllocatedBytes()).toBeLessThanOrEqual(allocated + (64 << 10) + 4096);
    classifier.close();
  });
});
