// robots audit across crawls (the built command): two crawls written as real
// WARCs (warcio), given as --crawl LABEL=SOURCE (a WARC, an index of robots
// index, a robots directory) or as several --as-of dates over one WARC holding
// both: each site's lines with its crawl, the counts per crawl, and the sites
// that moved between the crawls exactly as they were made to (a crawler that
// started or stopped being disallowed everything, a Content-Signal added or
// removed), in --changes (TSV or JSON lines) and in the summary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expectUsageError, robots } from '../helpers/cli-run.js';
import { writeWarc, type Capture } from '../helpers/warc-files.js';
import type { AuditSummary } from '../../src/bulk/audit/audit-summary.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-audit-crawls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => path.join(dir, name);

const SIGNAL = 'Content-Signal: search=yes, ai-train=no\n';
const OPEN = 'User-agent: *\nDisallow:\n';
const GPT_ALL = 'User-agent: GPTBot\nDisallow: /\n';
const PRIVATE = 'User-agent: *\nDisallow: /private\n';

/** The first crawl (2025-09-15) and the second (2026-10-01): each site as it was. */
const BEFORE: Record<string, Omit<Capture, 'url'>> = {
  'a.example': { body: OPEN },
  'b.example': { body: GPT_ALL },
  'c.example': { body: PRIVATE },
  'd.example': { body: OPEN },
  'e.example': { body: OPEN + SIGNAL },
  'f.example': { status: 404, body: 'not here' },
  'gone.example': { body: GPT_ALL },
};
const AFTER: Record<string, Omit<Capture, 'url'>> = {
  'a.example': { body: GPT_ALL }, // GPTBot: none -> all
  'b.example': { body: OPEN }, // GPTBot: all -> none
  'c.example': { body: PRIVATE }, // unchanged
  'd.example': { body: OPEN + SIGNAL }, // a Content-Signal added
  'e.example': { body: OPEN }, // removed
  'f.example': { body: 'User-agent: CCBot\nDisallow: /\n' }, // a 404 (all allowed), then CCBot disallowed all
  'new.example': { body: GPT_ALL }, // in the second crawl only
};
const captures = (sites: Record<string, Omit<Capture, 'url'>>, date: string): Capture[] =>
  Object.entries(sites).map(([host, c]) => ({ url: `https://${host}/robots.txt`, date, ...c }));

const CHANGES = [
  'from\tto\tsite\tchange\tcrawler\tbefore\tafter',
  'A\tB\thttps://a.example\tcategory\tGPTBot\tnone\tall',
  'A\tB\thttps://b.example\tcategory\tGPTBot\tall\tnone',
  'A\tB\thttps://d.example\tcontent-signal\t\t\tsearch=yes, ai-train=no',
  'A\tB\thttps://e.example\tcontent-signal\t\tsearch=yes, ai-train=no\t',
  'A\tB\thttps://f.example\tcategory\tCCBot\tnone\tall',
];
const changesAs = (from: string, to: string) => [CHANGES[0], ...CHANGES.slice(1).map((l) => l.replace(/^A\tB/, `${from}\t${to}`))];
const NO_MOVES = { 'none>part': 0, 'none>all': 0, 'part>none': 0, 'part>all': 0, 'all>none': 0, 'all>part': 0 };
const PAIR = {
  sites: 6,
  moved: 5,
  crawlers: {
    GPTBot: { startedBlocking: 1, stoppedBlocking: 1, moves: { ...NO_MOVES, 'none>all': 1, 'all>none': 1 } },
    CCBot: { startedBlocking: 1, stoppedBlocking: 0, moves: { ...NO_MOVES, 'none>all': 1 } },
  },
  contentSignalAdded: 1,
  contentSignalRemoved: 1,
};
const lines = (text: string) => text.split('\n').filter((l) => l !== '');

beforeAll(async () => {
  await writeWarc(at('a.warc.gz'), captures(BEFORE, '2025-09-15T00:00:00Z'));
  await writeWarc(at('b.warc.gz'), captures(AFTER, '2026-10-01T00:00:00Z'));
  await writeWarc(at('both.warc.gz'), [...captures(BEFORE, '2025-09-15T00:00:00Z'), ...captures(AFTER, '2026-10-01T00:00:00Z')]);
  const after = captures(AFTER, '2026-10-01T00:00:00Z');
  await writeWarc(at('b1.warc.gz'), after.slice(0, 4));
  await writeWarc(at('b2.warc.gz'), after.slice(4));
  for (const [out, warc] of [['idx-b', 'b.warc.gz'], ['idx-b1', 'b1.warc.gz'], ['idx-b2', 'b2.warc.gz']]) {
    const made = await robots(['index', '--shards', '2', '--out', at(out), '-q', at(warc)]);
    expect(made.status).toBe(0);
  }
}, 120_000);

describe('audit across crawls', () => {
  it('--crawl LABEL=WARC twice: lines with their crawl, counts per crawl, the moved sites in --changes and the summary', { timeout: 120_000 }, async () => {
    const r = await robots(['audit', '--crawl', `2025-38=${at('a.warc.gz')}`, '--crawl', `2026-40=${at('b.warc.gz')}`, '--crawlers', 'GPTBot,CCBot', '--changes', at('moved.tsv'), '--summary', at('s.json')]);
    expect(r.status).toBe(0);
    const [header, ...rows] = lines(r.stdout).map((l) => l.split('\t'));
    expect(header.slice(0, 4)).toEqual(['crawl', 'site', 'status', 'http']);
    expect(rows.map((row) => `${row[0]} ${row[1]}`)).toEqual([
      ...Object.keys(BEFORE).map((h) => `2025-38 https://${h}`),
      ...Object.keys(AFTER).map((h) => `2026-40 https://${h}`),
    ]);
    expect(lines(readFileSync(at('moved.tsv'), 'utf8'))).toEqual(changesAs('2025-38', '2026-40'));

    const s = JSON.parse(readFileSync(at('s.json'), 'utf8')) as AuditSummary;
    expect(Object.keys(s.crawls!)).toEqual(['2025-38', '2026-40']);
    expect(s.crawls!['2025-38'].sites).toBe(7);
    expect(s.crawls!['2025-38'].crawlers.GPTBot).toMatchObject({ all: 2, part: 1, none: 4, unknown: 0 });
    expect(s.crawls!['2026-40'].crawlers.GPTBot).toMatchObject({ all: 2, part: 1, none: 4, unknown: 0 });
    expect(s.crawls!['2026-40'].crawlers.CCBot).toMatchObject({ all: 1, part: 1, none: 5 });
    expect(s.crawls!['2025-38'].withContentSignal).toBe(1);
    // The counts at the top are the lines': both crawls'.
    expect(s.sites).toBe(14);
    expect(s.crawlers.GPTBot.all).toBe(4);
    expect(s.changes).toEqual({ '2025-38>2026-40': PAIR });
    expect(r.stderr).toContain('robots audit: crawl 2025-38: 7 sites; GPTBot 2 all, 1 part, 4 none; CCBot 0 all, 1 part, 6 none\n');
    expect(r.stderr).toContain('robots audit: 2025-38 to 2026-40: 5 of 6 sites in both moved; GPTBot: 1 started, 1 stopped disallowing all; CCBot: 1 started, 0 stopped disallowing all; Content-Signal 1 added, 1 removed\n');
  });

  it('a WARC then an index; JSON lines with "crawl" first; --changes as JSON lines', { timeout: 120_000 }, async () => {
    const r = await robots(['audit', '--crawl', `old=${at('a.warc.gz')}`, '--crawl', `new=${at('idx-b')}`, '--crawlers', 'GPTBot,CCBot', '--format', 'jsonl', '--changes', at('moved.jsonl'), '-q']);
    expect(r.status).toBe(0);
    const sites = lines(r.stdout).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(sites.length).toBe(14);
    expect(Object.keys(sites[0]).slice(0, 3)).toEqual(['crawl', 'site', 'status']);
    expect(sites.filter((x) => x.crawl === 'new').map((x) => x.site)).toEqual(Object.keys(AFTER).map((h) => `https://${h}`));
    const moved = lines(readFileSync(at('moved.jsonl'), 'utf8')).map((l) => JSON.parse(l));
    expect(moved).toEqual([
      { from: 'old', to: 'new', site: 'https://a.example', change: 'category', crawler: 'GPTBot', before: 'none', after: 'all' },
      { from: 'old', to: 'new', site: 'https://b.example', change: 'category', crawler: 'GPTBot', before: 'all', after: 'none' },
      { from: 'old', to: 'new', site: 'https://d.example', change: 'content-signal', crawler: null, before: '', after: 'search=yes, ai-train=no' },
      { from: 'old', to: 'new', site: 'https://e.example', change: 'content-signal', crawler: null, before: 'search=yes, ai-train=no', after: '' },
      { from: 'old', to: 'new', site: 'https://f.example', change: 'category', crawler: 'CCBot', before: 'none', after: 'all' },
    ]);
  });

  it('a crawl indexed in two slices: its label given twice, an index each', { timeout: 120_000 }, async () => {
    const r = await robots(['audit', '--crawl', `A=${at('a.warc.gz')}`, '--crawl', `B=${at('idx-b1')}`, '--crawl', `B=${at('idx-b2')}`, '--crawlers', 'GPTBot,CCBot', '--changes', at('slices.tsv'), '--summary', at('slices.json'), '-q']);
    expect(r.status).toBe(0);
    expect(lines(readFileSync(at('slices.tsv'), 'utf8'))).toEqual(CHANGES);
    const s = JSON.parse(readFileSync(at('slices.json'), 'utf8')) as AuditSummary;
    expect(s.crawls!.B.sites).toBe(7);
    expect(s.changes).toEqual({ 'A>B': PAIR });
  });

  it('several --as-of over one WARC holding both: a crawl per date, the same moves', { timeout: 120_000 }, async () => {
    const r = await robots(['audit', '--robots-warc', at('both.warc.gz'), '--as-of', '2025-12-31', '--as-of', '2026-12-31', '--crawlers', 'GPTBot,CCBot', '--changes', at('asof.tsv'), '--summary', at('asof.json'), '-q']);
    expect(r.status).toBe(0);
    expect(lines(readFileSync(at('asof.tsv'), 'utf8'))).toEqual(changesAs('2025-12-31', '2026-12-31'));
    const s = JSON.parse(readFileSync(at('asof.json'), 'utf8')) as AuditSummary;
    // (gone.example keeps its 2025 capture in the second: in both, unchanged; new.example is known in the second only.)
    expect(s.changes).toEqual({ '2025-12-31>2026-12-31': { ...PAIR, sites: 7 } });
    const [header, ...rows] = lines(r.stdout).map((l) => l.split('\t'));
    expect(header[0]).toBe('crawl');
    expect(new Set(rows.map((row) => row[0]))).toEqual(new Set(['2025-12-31', '2026-12-31']));
  });

  it('robots directories as crawls, and a single --crawl: labelled, no changes to compute', { timeout: 120_000 }, async () => {
    for (const [name, sites] of [['dir-a', BEFORE], ['dir-b', AFTER]] as const) {
      mkdirSync(at(name));
      for (const [host, c] of Object.entries(sites)) if (c.status === undefined) writeFileSync(path.join(at(name), host), c.body as string);
    }
    const r = await robots(['audit', '--crawl', `A=${at('dir-a')}`, '--crawl', `B=${at('dir-b')}`, '--crawlers', 'GPTBot,CCBot', '--changes', at('dirs.tsv'), '-q']);
    expect(r.status).toBe(0);
    // (f.example has no file in the first directory: in the second only.)
    expect(lines(readFileSync(at('dirs.tsv'), 'utf8'))).toEqual(CHANGES.filter((l) => !l.includes('f.example')).map((l) => l.replace(/https:\/\//, '')));
    const one = await robots(['audit', '--crawl', `only=${at('dir-a')}`, '--crawlers', 'GPTBot', '--format', 'jsonl', '-q']);
    expect(one.status).toBe(0);
    expect(lines(one.stdout).map((l) => JSON.parse(l).crawl)).toEqual(Array(6).fill('only'));
  });

  it.each([
    [['--crawl', 'nolabel'], /^robots: --crawl must be LABEL=SOURCE/],
    [['--crawl', 'a=ABSENT'], /^robots: --crawl a: cannot read .*absent/],
    [['--crawl', 'a=WARC', '--crawl', 'a=WARC'], /^robots: --crawl: the label "a" is given twice \(only indexes of one crawl may share a label\)/],
    [['--crawl', 'a b=WARC'], /^robots: --crawl a b=.*: a label is up to 100 characters, with no space/],
    [['--crawl', 'a=WARC', '--robots-warc', 'WARC'], /^robots: give the sources either as --crawl LABEL=SOURCE .* not both/],
    [['--robots-warc', 'WARC', '--changes', 'CHANGES'], /^robots: --changes: the sites that moved between crawls need two crawls or more/],
    [['--crawl', 'a=WARC', '--crawl', 'b=WARC', '--as-of', '2025-01-01', '--as-of', '2026-01-01'], /^robots: several --as-of are crawls of one source/],
    [['--crawl', `a=DIR`, '--as-of', '2025-01-01'], /^robots: --as-of picks among captures: --crawl a is a robots directory/],
  ])('%j: one line, exit 2', { timeout: 60_000 }, async (args, message) => {
    mkdirSync(at('a-dir'), { recursive: true });
    const real = { WARC: at('a.warc.gz'), ABSENT: at('absent'), CHANGES: at('never.tsv'), DIR: at('a-dir') } as Record<string, string>;
    const r = await robots(['audit', ...args.map((a) => a.replace(/^(a=|b=)?(WARC|ABSENT|CHANGES|DIR)$/, (_, p: string | undefined, k: string) => `${p ?? ''}${real[k]}`))]);
    expectUsageError(r, message);
  });
});
