// robots audit end to end (the built command): the same table from every
// source (a directory of the corpus's 4,241 files, a WARC of them written by
// warcio, an index of that WARC), shards whose rows and summaries add up to the
// whole run's, the robots.txt statuses of real WARC captures under both status
// conventions, and one-line errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { robots } from '../helpers/cli-run.js';
import { writeWarc } from '../helpers/warc-files.js';
import { corpusWarcs } from '../helpers/corpus-warcs.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';
import { mergeSummaries, type AuditSummary } from '../../src/bulk/audit/audit-summary.js';
import type { SiteRecord } from '../../src/bulk/audit/site-audit.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-audit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CORPUS = path.join(SHARED, 'corpus', 'robots');
const CRAWLERS = 'GPTBot,CCBot,Google-Extended,ClaudeBot,Googlebot,Baiduspider';

const records = (jsonl: string) => jsonl.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as SiteRecord);
/** A record as another source would name its site (the directory names a host, captures scheme://host). */
const bare = (r: SiteRecord) => ({ ...r, site: r.site.replace(/^https?:\/\//, '') });
/** Records by site (each source lists its sites in the order of its own names). */
const bySite = (rs: SiteRecord[]) => [...rs].sort((a, b) => (a.site < b.site ? -1 : a.site > b.site ? 1 : 0));
/** Lines of TSV (the header first; a row may end in empty cells: not trimmed) or of JSON. */
const lines = (tsv: string) => tsv.split('\n').filter((l) => l !== '');

describe.skipIf(!HAVE_SHARED)('audit: the corpus, every source', () => {
  let warc: string;
  const index = path.join(dir, 'idx');
  let fromDir: SiteRecord[];
  /** The --robots-index run's lines and its summary: the whole that the shards add up to. */
  let fromIndex: string[];
  const wholeSummary = path.join(dir, 'whole.json');

  beforeAll(async () => {
    // (The corpus's WARC, written once a run by warcio: test/helpers/corpus-warcs.ts.)
    warc = (await corpusWarcs()).all;
    const made = await robots(['index', '--shards', '3', '--out', index, '-q', warc], undefined, { killAfterMs: 600_000 });
    // (Three files of the corpus are longer than --max-octets: said once; every source cuts them there.)
    expect(made.stderr).toMatch(/^(robots index: warning: 3 captures are longer than --max-octets[^\n]*\n)?$/);
    expect(made.status).toBe(0);
  }, 900_000);

  // Each run audits 4,241 sites: minutes on a loaded machine (hang guards only).
  it('--robots-dir: a row per file, summary on stderr and as JSON', { timeout: 600_000 }, async () => {
    const summary = path.join(dir, 'dir-summary.json');
    const r = await robots(['audit', '--robots-dir', CORPUS, '--crawlers', CRAWLERS, '--format', 'jsonl', '--summary', summary], undefined, { killAfterMs: 600_000 });
    expect(r.status).toBe(0);
    fromDir = bySite(records(r.stdout));
    expect(fromDir.length).toBe(4241);
    expect(r.stderr).toMatch(/^robots audit: 4,241 sites: 4,241 ok/m);
    const s = JSON.parse(readFileSync(summary, 'utf8')) as AuditSummary;
    expect(s.sites).toBe(4241);
    for (const c of CRAWLERS.split(',')) {
      const k = s.crawlers[c];
      expect(k.all + k.none + k.part + k.unknown).toBe(4241);
      expect(k.own + k.star + k.noGroup).toBe(4241);
      expect(k.inexact).toBe(0);
    }
    // Some files name Googlebot and Baiduspider; none of the AI crawlers (the corpus predates them).
    expect(s.crawlers.Googlebot.own).toBeGreaterThan(0);
    expect(s.crawlers.Baiduspider.own).toBeGreaterThan(0);
    expect(s.crawlers.GPTBot.own).toBe(0);
  });

  it('--robots-warc and --robots-index give the same table', { timeout: 900_000 }, async () => {
    const w = await robots(['audit', '--robots-warc', warc, '--crawlers', CRAWLERS, '--format', 'jsonl', '-q'], undefined, { killAfterMs: 600_000 });
    expect(w.stderr).toMatch(/^(robots audit: warning: 3 captures are longer than --max-octets[^\n]*\n)?$/);
    expect(w.status).toBe(0);
    const fromWarc = bySite(records(w.stdout).map(bare));
    expect(fromWarc).toEqual(fromDir);
    const i = await robots(['audit', '--robots-index', index, '--crawlers', CRAWLERS, '--format', 'jsonl', '--summary', wholeSummary, '-q'], undefined, { killAfterMs: 600_000 });
    expect(i.status).toBe(0);
    fromIndex = lines(i.stdout);
    expect(bySite(records(i.stdout).map(bare))).toEqual(fromDir);
  });

  it("Common Crawl's method: their labels, fallback to *, their status convention, for GPTBot, CCBot, Google-Extended, ClaudeBot", { timeout: 600_000 }, async () => {
    const four = ['GPTBot', 'CCBot', 'Google-Extended', 'ClaudeBot'];
    const summary = path.join(dir, 'cc.json');
    const r = await robots(['audit', '--robots-warc', warc, '--crawlers', four.join(','), '--status-convention', 'commoncrawl', '--labels', 'commoncrawl', '--format', 'jsonl', '--summary', summary, '-q'], undefined, { killAfterMs: 600_000 });
    expect(r.status).toBe(0);
    const cc = bySite(records(r.stdout).map(bare));
    expect(cc.length).toBe(fromDir.length);
    const label: Record<string, string> = { all: 'disallow-all', part: 'allow-part', none: 'allow-all' };
    const table: Record<string, Record<string, number>> = {};
    cc.forEach((site, i) => {
      expect(site.site).toBe(fromDir[i].site);
      for (const c of site.crawlers) {
        const exact = fromDir[i].crawlers.find((x) => x.crawler === c.crawler)!;
        // Every capture here is a 200: the convention changes nothing, the labels are the categories'.
        expect(c.category).toBe(label[exact.category!]);
        (table[c.crawler] ??= {})[c.category!] = (table[c.crawler]?.[c.category!] ?? 0) + 1;
      }
      // No group names GPTBot, Google-Extended or ClaudeBot in the corpus: all three fall back to * alike.
      const [gpt, , google, claude] = site.crawlers;
      expect(google.category).toBe(gpt.category);
      expect(claude.category).toBe(gpt.category);
      expect(gpt.named).not.toBe('own');
    });
    const s = JSON.parse(readFileSync(summary, 'utf8')) as AuditSummary;
    for (const c of four) expect(table[c]).toEqual({ 'disallow-all': s.crawlers[c].all, 'allow-part': s.crawlers[c].part, 'allow-all': s.crawlers[c].none });
    console.log(`[audit] Common Crawl's method on the corpus (${cc.length} sites): ${JSON.stringify(table)}`);
  });

  // The whole: the --robots-index run above (its lines and summary).
  it('--shard i/N: the rows and the summaries of the shards add up to the whole', { timeout: 900_000 }, async () => {
    const rows: string[] = [];
    const parts: AuditSummary[] = [];
    for (let k = 0; k < 3; k++) {
      const file = path.join(dir, `s${k}.json`);
      const r = await robots(['audit', '--robots-index', index, '--shard', `${k}/3`, '--crawlers', CRAWLERS, '--format', 'jsonl', '--summary', file, '-q'], undefined, { killAfterMs: 600_000 });
      expect(r.status).toBe(0);
      const body = lines(r.stdout);
      expect(body.length).toBeGreaterThan(0);
      rows.push(...body);
      parts.push(JSON.parse(readFileSync(file, 'utf8')) as AuditSummary);
    }
    expect(rows.sort()).toEqual([...fromIndex].sort());
    expect(mergeSummaries(parts)).toEqual(JSON.parse(readFileSync(wholeSummary, 'utf8')));
  });
});

describe('audit: statuses of real WARC captures', () => {
  const warc = path.join(dir, 'status.warc.gz');
  beforeAll(async () => {
    await writeWarc(warc, [
      { url: 'https://ok.example/robots.txt', body: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nContent-Signal: search=yes, ai-train=no\nLicense: https://ok.example/license.xml\n' },
      { url: 'https://notfound.example/robots.txt', status: 404, body: 'gone' },
      { url: 'https://forbidden.example/robots.txt', status: 403, body: 'no' },
      { url: 'https://error.example/robots.txt', status: 503, body: 'down' },
      { url: 'https://busy.example/robots.txt', status: 429, body: 'slow down' },
      { url: 'https://moved.example/robots.txt', status: 301, headers: { Location: 'https://ok.example/robots.txt' } },
      { url: 'https://lost.example/robots.txt', status: 301, headers: { Location: 'https://elsewhere.example/robots.txt' } },
    ]);
  });

  const table = (stdout: string) => {
    const [header, ...rows] = lines(stdout).map((l) => l.split('\t'));
    return Object.fromEntries(rows.map((r) => [r[0], Object.fromEntries(header.map((h, i) => [h, r[i]]))]));
  };

  it('rfc: 4xx none, 5xx and 429 all, a redirect followed, one to nothing captured unknown', { timeout: 120_000 }, async () => {
    const r = await robots(['audit', '--robots-warc', warc, '--crawlers', 'GPTBot,CCBot']);
    expect(r.status).toBe(0);
    const t = table(r.stdout);
    expect(t['https://ok.example']).toMatchObject({ status: 'ok', http: '200', GPTBot: 'all', 'GPTBot:named': 'own', CCBot: 'part', 'CCBot:named': 'star', 'CCBot:train-ai': 'disallowed', 'CCBot:search': 'allowed', 'content-signal': 'search=yes, ai-train=no', license: 'https://ok.example/license.xml' });
    expect(t['https://notfound.example']).toMatchObject({ status: 'unavailable', http: '404', GPTBot: 'none', CCBot: 'none', 'GPTBot:named': '' });
    expect(t['https://forbidden.example']).toMatchObject({ status: 'unavailable', http: '403', GPTBot: 'none' });
    expect(t['https://error.example']).toMatchObject({ status: 'unreachable', http: '503', GPTBot: 'all' });
    expect(t['https://busy.example']).toMatchObject({ status: 'unreachable', http: '429', CCBot: 'all' });
    expect(t['https://moved.example']).toMatchObject({ status: 'ok', GPTBot: 'all', CCBot: 'part' });
    expect(t['https://lost.example']).toMatchObject({ status: 'missing', GPTBot: '', CCBot: '' });
    expect(r.stderr).toContain('7 sites: 2 ok, 2 unavailable (all allowed), 2 unreachable (all disallowed), 1 missing');
  });

  it('--status-convention commoncrawl: a 403 disallows all', { timeout: 120_000 }, async () => {
    const r = await robots(['audit', '--robots-warc', warc, '--crawlers', 'GPTBot', '--status-convention', 'commoncrawl', '-q']);
    expect(r.status).toBe(0);
    const t = table(r.stdout);
    expect(t['https://forbidden.example']).toMatchObject({ status: 'unreachable', http: '403', GPTBot: 'all' });
    expect(t['https://notfound.example']).toMatchObject({ status: 'unavailable', GPTBot: 'none' });
  });

  it("--labels commoncrawl: a 403 is disallow-all under their convention, a 404 allow-all", { timeout: 120_000 }, async () => {
    const r = await robots(['audit', '--robots-warc', warc, '--crawlers', 'GPTBot,CCBot', '--status-convention', 'commoncrawl', '--labels', 'commoncrawl', '-q']);
    expect(r.status).toBe(0);
    const t = table(r.stdout);
    expect(t['https://forbidden.example']).toMatchObject({ GPTBot: 'disallow-all', CCBot: 'disallow-all' });
    expect(t['https://error.example']).toMatchObject({ GPTBot: 'disallow-all' });
    expect(t['https://notfound.example']).toMatchObject({ GPTBot: 'allow-all' });
    expect(t['https://ok.example']).toMatchObject({ GPTBot: 'disallow-all', 'GPTBot:named': 'own', CCBot: 'allow-part', 'CCBot:named': 'star' });
    expect(t['https://lost.example']).toMatchObject({ GPTBot: '' });
  });

  it('--operators: per operator and purpose, the category of its crawler', { timeout: 120_000 }, async () => {
    const r = await robots(['audit', '--robots-warc', warc, '--crawlers', 'GPTBot', '--operators', 'openai', '--format', 'jsonl', '-q']);
    expect(r.status).toBe(0);
    const ok = records(r.stdout).find((s) => s.site === 'https://ok.example')!;
    const openai = ok.operators![0];
    expect(openai.operator).toBe('openai');
    expect(openai.purposes['train-ai']).toMatchObject({ crawler: 'GPTBot', category: 'all', answer: 'no' });
  });
});

describe('audit: mistakes are one line, exit 2', () => {
  const robotsDir = path.join(dir, 'few');
  beforeAll(() => {
    mkdirSync(robotsDir);
    writeFileSync(path.join(robotsDir, 'a.example'), 'User-agent: *\nDisallow: /\n');
  });
  it.each([
    [[], /^robots: give one of --robots-dir/],
    [['--robots-dir', 'DIR', '--robots-index', 'x'], /^robots: give one of/],
    [['--robots-dir', 'DIR', '--format', 'csv'], /^robots: --format must be tsv, jsonl or parquet, got "csv"/],
    [['--robots-dir', 'DIR', '--status-convention', 'cc'], /^robots: --status-convention must be rfc .* or commoncrawl/],
    [['--robots-dir', 'DIR', '--labels', 'cc'], /^robots: --labels must be audit .* or commoncrawl/],
    [['--robots-dir', 'DIR', '--threads', '0'], /^robots: --threads must be a whole number from 1 to 256, got "0"/],
    [['--robots-dir', 'DIR', '--operators', 'nobody'], /^robots: --operators: unknown operator "nobody"/],
    [['--robots-dir', 'DIR', '--crawlers', '@nothing'], /^robots: --crawlers: unknown set "@nothing"/],
    [['--robots-dir', 'DIR', '--shard', '3/3'], /^robots: --shard must be i\/N/],
    [['--robots-dir', 'DIR', '--as-of', '2024-01-01'], /^robots: --as-of picks among captures/],
    [['--robots-dir', path.join(dir, 'absent')], /^robots: cannot read robots directory/],
  ])('%j', { timeout: 60_000 }, async (args, message) => {
    const r = await robots(['audit', ...args.map((a) => (a === 'DIR' ? robotsDir : a))]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });
});
