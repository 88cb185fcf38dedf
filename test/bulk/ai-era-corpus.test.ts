// scripts/make-ai-era-corpus.mjs: the AI-era variant of the shared corpus. The
// same seed gives the same octets; the grafted groups come at the shares the
// script cites; a graft adds no parse diagnostic and no group for a token the
// site names, writes lines ending as the file's do, and leaves every probe's
// verdict for the crawlers the site wrote groups for (and for Googlebot and
// FooBot, which fall to its `*` groups) as it was, under both profiles.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lint, parse, type RobotsTxt } from '../../src/index.js';
import { SHARED, readJsonLinesGz } from '../helpers/shared-data.js';
import { AI_ERA_SCRIPT as SCRIPT, aiEraCorpus, runAiEraScript } from '../helpers/ai-era-corpus.js';

const CORPUS = path.join(SHARED, 'corpus', 'robots');
const HAVE_CORPUS = existsSync(CORPUS);
if (!HAVE_CORPUS) console.warn(`[tests] ${CORPUS} is absent: the AI-era corpus suite is skipped (it grafts onto those files)`);

// Within it: each crawler's share of sites that block it, in percentage points of the cited share (quotas are counted
// exactly; CCBot's sites that named it before the graft may not block it all).
const TOLERANCE_PP = 0.5;

const dir = mkdtempSync(path.join(tmpdir(), 'robots-ai-era-'));
// Removing a copy of 4,241 files: a hang guard, not a clock.
afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000);

interface Row { host: string; graft: string; at: string; named: string[] }

const readIndex = (out: string): Row[] => readFileSync(path.join(out, 'INDEX.tsv'), 'latin1').trim().split('\n').slice(1)
  .map((l) => l.split('\t')).map(([host, graft, at, named]) => ({ host, graft, at, named: named ? named.split(',') : [] }));

/** The product tokens the file's user-agent lines name (lower case), as the parser reads them. */
function namedTokens(bytes: Buffer): Set<string> {
  const tokens = new Set<string>();
  for (const m of bytes.toString('latin1').matchAll(/^[ \t]*user[- ]?agent[ \t]*:?[ \t]*([A-Za-z_-]+)/gim)) tokens.add(m[1].toLowerCase());
  return tokens;
}

function eols(bytes: Buffer): { crlf: number; lf: number; cr: number } {
  const t = bytes.toString('latin1');
  const crlf = t.split('\r\n').length - 1;
  return { crlf, lf: t.split('\n').length - 1 - crlf, cr: t.split('\r').length - 1 - crlf };
}

const diagnostics = (r: RobotsTxt) => r.diagnostics.map((d) => `${d.code} ${d.message}`).sort();

/** lint()'s findings by code. */
function findings(bytes: Buffer): Map<string, number> {
  const byCode = new Map<string, number>();
  for (const f of lint(bytes).findings) byCode.set(f.code, (byCode.get(f.code) ?? 0) + 1);
  return byCode;
}

// What lint may find in a graft, as the grafted text is written in the wild: Cloudflare's `*` group beside the
// site's own, and ai.robots.txt's names as its list spells them (`ChatGPT Agent`, `MistralAI-User/1.0`).
const EXPECTED_FINDINGS: Record<string, string[]> = {
  'cloudflare-signal': ['merged-global-groups'],
  'ai-robots-txt': ['agent-not-product-token', 'agent-with-version'],
};

/** Whether a group names the crawler (not only `*`) and it disallows the whole site. */
function blocks(r: RobotsTxt, host: string, crawler: string): boolean {
  const e = r.explainAll(`https://${host}/`, crawler);
  return !e.allowed && e.groups.some((g) => !g.global);
}

describe('the script without the shared corpus', () => {
  it('says so in one line and exits 2', () => {
    const r = spawnSync(process.execPath, [SCRIPT, path.join(dir, 'none'), '--corpus', path.join(dir, 'no-such-corpus')], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^make-ai-era-corpus: .*no-such-corpus is absent/);
  });
});

describe.skipIf(!HAVE_CORPUS)('the AI-era corpus', () => {
  // a: the run's (made once for the suites that read it: test/helpers/ai-era-corpus.ts); b: this suite's own.
  let a: string;
  const b = path.join(dir, 'b');
  let rows: Row[] = [];
  let SHARES: { cloudflareSignal: number; cloudflareNotice: number; allowGptbot: number; contentUsage: number; blocked: Record<string, number> };
  // Each file read once: the tests below ask for them a few times each, over thousands of sites.
  const read = new Map<string, Buffer>();
  const once = (file: string) => read.get(file) ?? read.set(file, readFileSync(file)).get(file)!;
  const original = (host: string) => once(path.join(CORPUS, host));
  const grafted = (host: string) => once(path.join(a, 'robots', host));

  beforeAll(async () => {
    ({ SHARES } = await import(SCRIPT));
    // (aiEraCorpus fails unless its run exits 0 and writes nothing on stderr.)
    const [made, rb] = await Promise.all([aiEraCorpus(), runAiEraScript(b)]);
    a = made;
    expect([rb.code, rb.stderr]).toEqual([0, '']);
    rows = readIndex(a);
    // Up to two runs of the script over 4,241 files at once, each ~6 s of CPU on a quiet machine: a hang guard that no load fails.
  }, 600_000);

  it('is the same octets twice over, every file, the index, the WARC and the URL list', () => {
    const files = (out: string) => ['INDEX.tsv', 'robotstxt.warc.gz', 'urls.txt', ...readdirSync(path.join(out, 'robots')).map((h) => `robots/${h}`)];
    expect(files(b)).toEqual(files(a));
    expect(files(a).length).toBe(3 + readdirSync(CORPUS).length);
    for (const f of files(a)) expect(readFileSync(path.join(b, f)).equals(once(path.join(a, f))), f).toBe(true);
  });

  // Parsing 4,241 files and asking each for 7 crawlers: ~15 s of CPU on a quiet machine; a hang guard.
  it('grafts at the cited shares', { timeout: 300_000 }, async () => {
    const n = rows.length;
    const bodies = rows.map((r) => ({ host: r.host, robots: parse(grafted(r.host)) }));
    const blocking = new Map<string, number>();
    let allowing = 0;
    for (const [i, x] of bodies.entries()) {
      // (The event loop turns now and then: on a loaded machine this loop held it past vitest's 60 s RPC timeout.)
      if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
      for (const crawler of Object.keys(SHARES.blocked)) if (blocks(x.robots, x.host, crawler)) blocking.set(crawler, (blocking.get(crawler) ?? 0) + 1);
      const e = x.robots.explainAll(`https://${x.host}/`, 'GPTBot');
      if (e.allowed && e.groups.some((g) => !g.global) && e.rule?.kind === 'allow' && e.rule.pattern === '/') allowing++;
    }
    for (const [crawler, share] of Object.entries(SHARES.blocked)) {
      const got = (blocking.get(crawler) ?? 0) / n;
      expect(Math.abs(got - share) * 100, `${crawler}: ${(got * 100).toFixed(2)}% of sites, cited ${(share * 100).toFixed(2)}%`).toBeLessThanOrEqual(TOLERANCE_PP);
    }
    // Counted as lines, not as FooBot's signals: a site whose `*` group disallows `/*` gives FooBot none at `/`.
    const signal = rows.filter((r) => /^Content-Signal:/im.test(grafted(r.host).toString('latin1'))).length / n;
    expect(Math.abs(signal - SHARES.cloudflareSignal) * 100).toBeLessThanOrEqual(0.05);
    const cloudflare = rows.filter((r) => grafted(r.host).includes('# BEGIN Cloudflare Managed content')).length / n;
    expect(Math.abs(cloudflare - (SHARES.cloudflareSignal + SHARES.cloudflareNotice)) * 100).toBeLessThanOrEqual(0.05);
    const allowGptbot = allowing / n;
    expect(Math.abs(allowGptbot - SHARES.allowGptbot) * 100).toBeLessThanOrEqual(0.05);
    const usage = rows.filter((r) => /^Content-Usage:/m.test(grafted(r.host).toString('latin1'))).length / n;
    expect(Math.abs(usage - SHARES.contentUsage) * 100).toBeLessThanOrEqual(0.05);
    // Sites naming GPTBot but not OAI-SearchBot are most of those naming GPTBot, as the studies find.
    const naming = (token: string) => new Set(rows.filter((r) => namedTokens(grafted(r.host)).has(token)).map((r) => r.host));
    const gptbot = naming('gptbot');
    const oai = naming('oai-searchbot');
    expect([...gptbot].filter((h) => !oai.has(h)).length).toBeGreaterThan(gptbot.size / 2);
  });

  // Two profiles' parse of the ~1,100 grafted files and their originals: a hang guard.
  it('adds no diagnostic, no lint finding but those its text has in the wild, no group for a token the site names, and no other line ending', { timeout: 300_000 }, async () => {
    for (const [i, r] of rows.entries()) {
      if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
      const before = original(r.host);
      const after = grafted(r.host);
      if (r.graft.startsWith('none')) {
        expect(after.equals(before), r.host).toBe(true);
        continue;
      }
      for (const profile of ['rfc', 'google'] as const) {
        expect(diagnostics(parse(after, { profile })), `${r.host} (${profile})`).toEqual(diagnostics(parse(before, { profile })));
      }
      const [l0, l1] = [findings(before), findings(after)];
      const grown = [...l1].filter(([code, n]) => n > (l0.get(code) ?? 0)).map(([code]) => code);
      expect(grown.filter((code) => !(EXPECTED_FINDINGS[r.graft] ?? []).includes(code)), r.host).toEqual([]);
      const own = namedTokens(before);
      for (const name of r.named) expect(own.has(/^[A-Za-z_-]*/.exec(name)![0].toLowerCase()), `${r.host} names ${name} already`).toBe(false);
      const [e0, e1] = [eols(before), eols(after)];
      const kind = /\r\n|\r|\n/.exec(before.toString('latin1'))?.[0] ?? '\n';
      const added = { crlf: e1.crlf - e0.crlf, lf: e1.lf - e0.lf, cr: e1.cr - e0.cr };
      expect(added, r.host).toEqual({ crlf: kind === '\r\n' ? added.crlf : 0, lf: kind === '\n' ? added.lf : 0, cr: kind === '\r' ? added.cr : 0 });
    }
  });

  it("keeps every probe's verdict for the site's own crawlers, and for those that fall to its * groups", { timeout: 600_000 }, async () => {
    // ~1,100 files, two profiles, up to 8 crawlers, ~40 probes each: a hang guard, not a clock.
    const probes = new Map<string, string[]>();
    for (const p of readJsonLinesGz<{ host: string; url: string }>('corpus/probes-seed1.jsonl.gz')) {
      const list = probes.get(p.host) ?? [];
      list.push(p.url);
      probes.set(p.host, list);
    }
    let checked = 0;
    for (const [i, r] of rows.entries()) {
      if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
      if (r.graft.startsWith('none')) continue;
      const urls = [`https://${r.host}/`, ...(probes.get(r.host) ?? [])];
      const before = original(r.host);
      // Googlebot and FooBot, and the site's own crawlers (a few: the groups, not their number, are what is kept).
      const crawlers = ['Googlebot', 'FooBot', ...[...namedTokens(before)].filter((t) => /^[a-z]/.test(t)).slice(0, 6)];
      for (const profile of ['rfc', 'google'] as const) {
        const [was, is] = [parse(before, { profile }), parse(grafted(r.host), { profile })];
        for (const crawler of crawlers) {
          const [m0, m1] = [was.compile(crawler), is.compile(crawler)];
          expect([...m1.checkMany(urls)], `${r.host} ${crawler} (${profile})`).toEqual([...m0.checkMany(urls)]);
          m0.dispose();
          m1.dispose();
          checked += urls.length;
        }
        was.dispose();
        is.dispose();
      }
    }
    expect(checked).toBeGreaterThan(100_000);
  });
});
