// robots audit --ranks (the built command): a rank,domain CSV as Tranco
// publishes it, each site's rank (its host's, else its nearest listed parent
// domain's), a rank column after `site` (TSV) or "rank" (JSON lines), and the
// summary per stratum (1k, 10k, 100k, 1M, unranked); bad lines counted, said,
// not fatal; a missing file one line, exit 2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expectUsageError, robots } from '../helpers/cli-run.js';
import type { AuditSummary } from '../../src/bulk/audit/audit-summary.js';
import { parseRanks, stratumOf } from '../../src/bulk/audit/site-ranks.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-audit-ranks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const robotsDir = path.join(dir, 'robots');
const ranks = path.join(dir, 'tranco.csv');

const BLOCK_ALL = 'User-agent: *\nDisallow: /\n';
const BLOCK_GPT = 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n';
const OPEN = 'User-agent: *\nDisallow:\n';

beforeAll(() => {
  mkdirSync(robotsDir);
  const files: Record<string, string> = {
    'example.org': BLOCK_ALL, // listed as itself: rank 7 (1k)
    'www.example.com': BLOCK_GPT, // not listed: its parent example.com, rank 900 (1k)
    'sub.ranked.net': OPEN, // listed (50,000: 100k), and so is its parent (3): the host wins
    'deep.a.b.other.io': BLOCK_GPT, // nearest listed parent b.other.io (5,000: 10k), not other.io (2)
    'far.example': OPEN, // listed past 1M: unranked
    'nowhere.test': BLOCK_ALL, // not listed
    '127.0.0.1': OPEN, // an address: no parent domains
    'mid.example': BLOCK_GPT, // 999,999: 1M
  };
  for (const [host, body] of Object.entries(files)) writeFileSync(path.join(robotsDir, host), body);
  // Tranco's own files have no header; one is accepted. Three bad lines among the good.
  writeFileSync(ranks, ['rank,domain', '7,example.org', '900,example.com', '3,ranked.net', '50000,sub.ranked.net', 'x,broken.example', '2,other.io', '5000,b.other.io',
    'no comma here', '1500000,far.example', '999999,Mid.Example.', '0,zero.example', '8,example.org'].join('\r\n') + '\r\n');
});

const table = (stdout: string) => {
  const [header, ...rows] = stdout.split('\n').filter((l) => l !== '').map((l) => l.split('\t'));
  return { header, rows: Object.fromEntries(rows.map((r) => [r[0], Object.fromEntries(header.map((h, i) => [h, r[i]]))])) };
};

describe('audit --ranks', () => {
  it('a rank column after site, host before parent domain, strata in the summary, bad lines said', { timeout: 120_000 }, async () => {
    const summaryFile = path.join(dir, 'summary.json');
    const r = await robots(['audit', '--robots-dir', robotsDir, '--crawlers', 'GPTBot,CCBot', '--ranks', ranks, '--summary', summaryFile]);
    expect(r.status).toBe(0);
    const { header, rows } = table(r.stdout);
    expect(header.slice(0, 4)).toEqual(['site', 'rank', 'status', 'http']);
    const rank = Object.fromEntries(Object.entries(rows).map(([site, row]) => [site, row.rank]));
    expect(rank).toEqual({
      '127.0.0.1': '',
      'deep.a.b.other.io': '5000',
      'example.org': '7',
      'far.example': '1500000',
      'mid.example': '999999',
      'nowhere.test': '',
      'sub.ranked.net': '50000',
      'www.example.com': '900',
    });
    expect(rows['www.example.com']).toMatchObject({ GPTBot: 'all', CCBot: 'part' });
    expect(r.stderr).toContain('robots audit: warning: --ranks ' + ranks + ': 3 lines not rank,domain, skipped (line 6: "x" is not a rank (1, 2, ...); line 9: no comma (rank,domain); line 12: "0" is not a rank (1, 2, ...))');
    expect(r.stderr).toMatch(/^robots audit: ranks to 1k: 2 sites; GPTBot 2 all, 0 part, 0 none; CCBot 1 all, 1 part, 0 none$/m);

    const s = JSON.parse(readFileSync(summaryFile, 'utf8')) as AuditSummary;
    const zero = { all: 0, part: 0, none: 0, unknown: 0 };
    expect(s.strata).toEqual({
      '1k': { sites: 2, withContentSignal: 0, crawlers: { GPTBot: { ...zero, all: 2 }, CCBot: { ...zero, all: 1, part: 1 } } },
      '10k': { sites: 1, withContentSignal: 0, crawlers: { GPTBot: { ...zero, all: 1 }, CCBot: { ...zero, part: 1 } } },
      '100k': { sites: 1, withContentSignal: 0, crawlers: { GPTBot: { ...zero, none: 1 }, CCBot: { ...zero, none: 1 } } },
      '1M': { sites: 1, withContentSignal: 0, crawlers: { GPTBot: { ...zero, all: 1 }, CCBot: { ...zero, part: 1 } } },
      unranked: { sites: 3, withContentSignal: 0, crawlers: { GPTBot: { ...zero, all: 1, none: 2 }, CCBot: { ...zero, all: 1, none: 2 } } },
    });
    expect(s.sites).toBe(8);
  });

  it('JSON lines: "rank" after "site", null when not listed; a file without header', { timeout: 120_000 }, async () => {
    const bare = path.join(dir, 'bare.csv');
    writeFileSync(bare, '1,example.org\n2,nowhere.test\n');
    const r = await robots(['audit', '--robots-dir', robotsDir, '--crawlers', 'GPTBot', '--ranks', bare, '--format', 'jsonl', '-q']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { site: string; rank: number | null });
    expect(Object.keys(lines[0]).slice(0, 3)).toEqual(['site', 'rank', 'status']);
    expect(Object.fromEntries(lines.map((l) => [l.site, l.rank]))).toMatchObject({ 'example.org': 1, 'nowhere.test': 2, 'far.example': null, 'www.example.com': null });
  });

  it('without --ranks the table and the summary are as before: no rank column, no strata', { timeout: 120_000 }, async () => {
    const summaryFile = path.join(dir, 'plain.json');
    const r = await robots(['audit', '--robots-dir', robotsDir, '--crawlers', 'GPTBot', '--summary', summaryFile, '-q']);
    expect(r.status).toBe(0);
    expect(table(r.stdout).header.slice(0, 3)).toEqual(['site', 'status', 'http']);
    expect(JSON.parse(readFileSync(summaryFile, 'utf8'))).not.toHaveProperty('strata');
  });

  it('a missing ranks file: one line, exit 2', { timeout: 60_000 }, async () => {
    const r = await robots(['audit', '--robots-dir', robotsDir, '--ranks', path.join(dir, 'absent.csv')]);
    expectUsageError(r, /^robots: --ranks: cannot read the ranks .*absent\.csv: /);
  });
});

describe('ranks: the strata and the lookup', () => {
  it('strata bounds', () => {
    expect([1, 1000, 1001, 10_000, 10_001, 100_000, 100_001, 1_000_000, 1_000_001].map(stratumOf)).toEqual(['1k', '1k', '10k', '10k', '100k', '100k', '1M', '1M', 'unranked']);
    expect(stratumOf(null)).toBe('unranked');
  });

  it('hosts, ports, schemes, a TLD never a site, hostile lines counted', () => {
    const list = parseRanks(`1,com\n2,example.com\n${'9'.repeat(12)},huge.example\n3,a b.example\n4,\n`);
    expect(list.rankOf('https://www.example.com:8443')).toBe(2);
    expect(list.rankOf('http://EXAMPLE.com.')).toBe(2);
    expect(list.rankOf('other.com')).toBeNull();
    expect(list.rankOf('https://[::1]:8080')).toBeNull();
    expect(list.bad).toBe(3);
    expect(list.size).toBe(2);
  });

  it('a byte order mark before the first rank (a spreadsheet\'s CSV) is not a header', () => {
    const list = parseRanks('\uFEFF1,example.com\n2,example.org\n');
    expect(list.rankOf('example.com')).toBe(1);
    expect(list.bad).toBe(0);
  });
});
