// robots audit merge (the built command): on a quarter of the corpus audited
// as two crawls (the files as they are, then a later copy where some block
// GPTBot and some carry a Content-Signal), with ranks and every operator,
// shards 0/3, 1/3, 2/3 each write a summary; merged, they are the unsharded
// run's summary, strata, operators, crawls and moves included, to the octet.
// The GNU parallel recipe of docs/audit.md run as written (smaller numbers) on
// the whole corpus; mistakes one line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, expectUsageError, robots } from '../helpers/cli-run.js';
import { corpusWarcs } from '../helpers/corpus-warcs.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';
import type { AuditSummary } from '../../src/bulk/audit/audit-summary.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-audit-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => path.join(dir, name);
const CORPUS = path.join(SHARED, 'corpus', 'robots');
const CRAWLERS = 'GPTBot,CCBot,Google-Extended,ClaudeBot,Googlebot';
const GPT_BLOCK = 'User-agent: GPTBot\nDisallow: /\n\n';
const SIGNAL = '\nContent-Signal: search=yes, ai-train=no\n';

/** A ranks CSV over the corpus's hosts: spread over every stratum (a few past 1M), every 13th host not listed. */
function writeRanks(hosts: string[], file: string): void {
  const rows = hosts.flatMap((h, i) => (i % 13 === 0 ? [] : [`${((i * 7919) % hosts.length + 1) * 250},${h}`]));
  writeFileSync(file, rows.join('\n') + '\n');
}

describe.skipIf(!HAVE_SHARED)('audit merge: shards add up to the whole', () => {
  const hosts = HAVE_SHARED ? readdirSync(CORPUS).sort() : [];
  // The two crawls: a quarter of the corpus (what crawls add to a merge does not need every file; the whole corpus is merged above them).
  const quarter = hosts.filter((_, i) => i % 4 === 0);
  const n = quarter.length;
  // (Asynchronously: files copied in one go would hold the worker's event loop on a loaded machine.)
  beforeAll(async () => {
    mkdirSync(at('earlier'));
    mkdirSync(at('later'));
    for (let i = 0; i < n; i++) {
      const h = quarter[i];
      const body = await readFile(path.join(CORPUS, h));
      await writeFile(path.join(at('earlier'), h), body);
      await writeFile(path.join(at('later'), h), Buffer.concat([Buffer.from(i % 7 === 0 ? GPT_BLOCK : ''), body, Buffer.from(i % 11 === 0 ? SIGNAL : '')]));
    }
    writeRanks(hosts, at('ranks.csv'));
  }, 600_000);

  // (The whole corpus's shards add up to it, rows and summaries, in audit.test.ts; the recipe below merges it too.)
  // Each run audits a quarter of the corpus twice: a minute on a loaded machine (hang guards only).
  it('shards 0/3, 1/3, 2/3 merged == the unsharded run (two crawls, ranks, every operator)', { timeout: 900_000 }, async () => {
    const args = ['audit', '--crawl', `2025=${at('earlier')}`, '--crawl', `2026=${at('later')}`, '--ranks', at('ranks.csv'), '--crawlers', CRAWLERS, '--operators', 'all', '-q', '--out', '/dev/null'];
    const whole = await robots([...args, '--summary', at('whole.json')], undefined, { killAfterMs: 600_000 });
    expect(whole.status).toBe(0);
    const parts: string[] = [];
    for (let k = 0; k < 3; k++) {
      const r = await robots([...args, '--shard', `${k}/3`, '--summary', at(`s${k}.json`)], undefined, { killAfterMs: 600_000 });
      expect(r.status).toBe(0);
      parts.push(at(`s${k}.json`));
    }
    const merged = await robots(['audit', 'merge', ...parts, '--out', at('merged.json')]);
    expect(merged.status).toBe(0);
    const sites = (2 * n).toLocaleString('en-US');
    expect(merged.stderr).toMatch(new RegExp(`^robots audit merge: 3 summaries added up\nrobots audit merge: ${sites} sites: ${sites} ok`));
    const w = readFileSync(at('whole.json'), 'utf8');
    expect(JSON.parse(readFileSync(at('merged.json'), 'utf8'))).toEqual(JSON.parse(w));
    expect(readFileSync(at('merged.json'), 'utf8')).toBe(w);
    // Each shard holds a part of everything (not the whole in one and nothing elsewhere).
    for (const p of parts) expect((JSON.parse(readFileSync(p, 'utf8')) as AuditSummary).sites).toBeLessThan(2 * n * 0.5);

    // What it says, on the corpus: the moves are the ones made, and the strata cover every site.
    const s = JSON.parse(w) as AuditSummary;
    expect(Object.keys(s.operators).length).toBeGreaterThan(1);
    const pair = s.changes!['2025>2026'];
    expect(pair.sites).toBe(n);
    // (Every 11th file got the line, at its end: a file of no group has none to hold it.)
    expect(s.crawls!['2025'].withContentSignal).toBe(0);
    expect(pair.contentSignalAdded).toBe(s.crawls!['2026'].withContentSignal);
    expect(pair.contentSignalAdded).toBeGreaterThan(Math.ceil(n / 11) * 0.9);
    expect(pair.crawlers.GPTBot.startedBlocking).toBe(s.crawls!['2026'].crawlers.GPTBot.all - s.crawls!['2025'].crawlers.GPTBot.all);
    expect(pair.crawlers.CCBot.startedBlocking + pair.crawlers.CCBot.stoppedBlocking).toBe(0);
    for (const crawl of Object.values(s.crawls!)) expect(Object.values(crawl.strata!).reduce((sum, t) => sum + t.sites, 0)).toBe(n);
    expect(s.crawls!['2025'].strata!.unranked.sites).toBeGreaterThan(0);
    console.log(`[audit merge] a quarter of the corpus, 2025 to 2026: ${JSON.stringify({ strata2026: Object.fromEntries(Object.entries(s.crawls!['2026'].strata!).map(([k, t]) => [k, t.crawlers.GPTBot])), moved: pair.moved })}`);
    // stdout when no --out: the same JSON.
    const toStdout = await robots(['audit', 'merge', ...parts, '-q']);
    expect(toStdout.stdout).toBe(w);
  });
});

const hasParallel = spawnSync('parallel', ['--version'], { stdio: 'ignore' }).status === 0 || process.env.CI === 'true';

describe.skipIf(!HAVE_SHARED)('audit merge: the GNU parallel recipe of docs/audit.md', () => {
  it.skipIf(!hasParallel)(`runs as written (3 WARCs, 3 shards), its summary the one machine's${hasParallel ? '' : ' (skipped: GNU parallel is not installed; apt-get install parallel)'}`, { timeout: 900_000 }, async () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/audit.md'), 'utf8');
    const recipe = /```sh\n(# Map: [^`]*?robots audit merge[^`]*?)```/.exec(doc)?.[1];
    expect(recipe, 'docs/audit.md has the recipe (a sh block beginning "# Map:", ending in robots audit merge)').toBeDefined();
    const work = at('recipe');
    mkdirSync(path.join(work, 'bin'), { recursive: true });
    writeFileSync(path.join(work, 'bin/robots'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(path.join(work, 'bin/robots'), 0o755);
    const hosts = readdirSync(CORPUS).sort();
    // (The corpus in three WARCs, written once a run by warcio: test/helpers/corpus-warcs.ts.)
    const warcs = (await corpusWarcs()).parts;
    writeFileSync(path.join(work, 'warc-files.txt'), warcs.join('\n') + '\n');
    writeRanks(hosts, path.join(work, 'tranco.csv'));
    // Smaller numbers for a test: 2 jobs, a WARC a job, 3 shards.
    const script = recipe!.replace(/-j 8/g, '-j 2').replace(/-N 20/g, '-N 1').replace(/\b64\b/g, '3').replace(/seq 0 63/g, 'seq 0 2').replace(/parallel /g, 'parallel --will-cite ');
    expect(script).not.toBe(recipe);
    const r = await new Promise<{ status: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd: work, env: { ...process.env, PATH: `${path.join(work, 'bin')}:${process.env.PATH}` }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stderr }));
    });
    expect(r.status, r.stderr).toBe(0);
    const one = await robots(['audit', ...warcs.flatMap((w) => ['--robots-warc', w]), '--ranks', path.join(work, 'tranco.csv'), '--summary', at('one.json'), '-q', '--out', '/dev/null'], undefined, { killAfterMs: 600_000 });
    expect(one.status).toBe(0);
    expect(JSON.parse(readFileSync(path.join(work, 'summary.json'), 'utf8'))).toEqual(JSON.parse(readFileSync(at('one.json'), 'utf8')));
    expect(readdirSync(path.join(work, 'sites')).length).toBe(3);
  });
});

describe('audit merge: mistakes are one line, exit 2', () => {
  beforeAll(() => {
    writeFileSync(at('not-json.json'), '{"version": 1,');
    writeFileSync(at('other.json'), '{"hello": "world"}\n');
  });
  it.each([
    [[], /^robots: (error: )?missing required argument|^robots: .*summaries/],
    [['ABSENT'], /^robots: cannot read the summary .*absent\.json/],
    [['not-json.json'], /^robots: .*not-json\.json is not JSON/],
    [['other.json'], /^robots: .*other\.json is not a summary of robots audit/],
  ])('%j', { timeout: 60_000 }, async (args, message) => {
    const r = await robots(['audit', 'merge', ...args.map((a) => (a === 'ABSENT' ? at('absent.json') : at(a)))]);
    expectUsageError(r, message);
  });
});
