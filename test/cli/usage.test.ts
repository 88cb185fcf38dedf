// robots classify --crawlers with use purposes: JSON lines give each crawler
// `usage: {search, train-ai, ai-use}` and TSV with --usage three columns per
// crawler, exactly RobotsTxt.usage's purposes for that URL and crawler (all
// unknown where it may not fetch), for files with Content-Signal and
// Content-Usage lines (path patterns, percent-encoding, wildcards, `$`, merged
// `*` groups, an invalid dictionary, legacy labels), a file with none, and
// corpus files with Cloudflare's managed block put before them; in both
// profiles, every source, 1 and 2 threads, and shards. Also the summary's
// counts, the crawler sets @ai and @google, and the usage errors.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from '../../dist/index.js';
import { AI_CRAWLERS } from '../../src/data/ai-crawlers.js';
import { GOOGLE_CRAWLERS } from '../../src/data/google-crawlers.js';
import { robots } from '../helpers/cli-run.js';
import { writeSites } from '../helpers/warc-files.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-usage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CRAWLERS = ['GPTBot', 'CCBot', 'ClaudeBot', 'Googlebot'];
const PURPOSES = ['search', 'train-ai', 'ai-use'] as const;

/** Cloudflare's managed robots.txt (its own `*` group first, the site's after). */
const CLOUDFLARE = '# As a condition of accessing this website, you agree to abide by the following content signals:\n' +
  '# (a)  If a content-signal = yes, you may collect content for the corresponding use.\n' +
  'User-Agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n\n';

const FILES: Record<string, string> = {
  'cf.example': CLOUDFLARE + 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n',
  'aipref.example': [
    'User-agent: *',
    'Content-Usage: train-ai=n',
    'Content-Usage: /public/ train-ai=y',
    'Content-Usage: /public/*.pdf$ search=n',
    'Content-Usage: /caf%C3%A9/ train-ai=y, search=y',
    'Content-Usage: /a%2fb search=n',
    'Content-Usage: /x train-ai=y',
    'Content-Usage: /x train-ai=n # the same pattern: n wins',
    'Content-Usage: /bad Train-AI=n',
    'Content-Usage: /legacy ai=n, tdm=y, search=y',
    'Disallow: /private',
    '',
    'User-agent: CCBot',
    'Content-Usage: search=y',
    'Content-Signal: ai-input=no, search=no, use=reference',
    'Disallow: /ccprivate',
    '',
  ].join('\n'),
  'merged.example': 'User-agent: *\nContent-Signal: search=yes\n\nUser-agent: ClaudeBot\nContent-Usage: /docs train-ai=y\nAllow: /\n\nUser-agent: *\nContent-Signal: ai-input=yes, ai-train=no\nDisallow: /tmp\n',
  'plain.example': 'User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n',
};
const PATHS = ['/', '/public/a', '/public/doc.pdf', '/public/doc.pdf?x=1', '/public/doc.pdfx', '/caf%C3%A9/x', '/caf%c3%a9/y', '/a%2fb', '/a%2Fb/c', '/a/b',
  '/x', '/xy', '/bad', '/legacy', '/private/x', '/ccprivate', '/docs/a', '/tmp/a', '/%7Ex', '/robots.txt'];
const URLS = Object.keys(FILES).flatMap((h) => PATHS.map((p) => `https://${h}${p}`)).concat(['https://none.example/public/a']);
const urlsFile = path.join(dir, 'urls.txt');

beforeAll(async () => {
  await writeSites(dir, FILES, URLS, urlsFile);
});

interface CrawlerLine {
  allowed: boolean;
  line: number;
  usage: Record<(typeof PURPOSES)[number], string>;
}
const jsonLines = (stdout: string) => stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { url: string; crawlers: Record<string, CrawlerLine> });

/** What the library says for each URL and crawler: verdict, line and purposes (RobotsTxt.usage). */
function expected(files: Record<string, string | Uint8Array>, urls: string[], crawlers: string[], profile: 'rfc' | 'google'): CrawlerLine[][] {
  const parsed = new Map(Object.entries(files).map(([h, body]) => [h, parse(body, { profile, maxOctets: Infinity })]));
  return urls.map((url) => {
    const r = parsed.get(/^https:\/\/([^/]+)/.exec(url)![1]);
    return crawlers.map((c) => {
      if (r === undefined) return { allowed: true, line: 0, usage: { search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'unknown' } };
      const u = r.usage(url, c);
      return { allowed: u.allowed, line: u.line, usage: u.purposes };
    });
  });
}

/** The summary's purpose counts from the lines (allowed and disallowed, per purpose, for URLs each crawler may fetch). */
function summaryOf(lines: CrawlerLine[][], crawlers: string[]): string[] {
  return crawlers.flatMap((c, j) => {
    const count = (p: string, v: string) => lines.filter((l) => l[j].allowed && l[j].usage[p as 'search'] === v).length;
    if (PURPOSES.every((p) => count(p, 'allowed') === 0 && count(p, 'disallowed') === 0)) return [];
    return [`robots classify: ${c}: purposes (URLs): ${PURPOSES.map((p) => `${p} ${count(p, 'disallowed').toLocaleString('en-US')} disallowed, ${count(p, 'allowed').toLocaleString('en-US')} allowed`).join('; ')}`];
  });
}

describe('robots classify --crawlers: use purposes', () => {
  for (const profile of ['rfc', 'google'] as const) {
    it(`JSON lines: each crawler's usage is RobotsTxt.usage's, TSV --usage the same in columns, the summary counts them (${profile}, every source, 1 and 2 threads)`, async () => {
      const want = expected(FILES, URLS, CRAWLERS, profile);
      // The files' own answers are not all unknown, nor all alike: a test that can fail.
      const flat = want.flat().flatMap((w) => PURPOSES.map((p) => w.usage[p]));
      expect(new Set(flat)).toEqual(new Set(['allowed', 'disallowed', 'unknown']));
      // Each source once and each thread count once (a folder with 1, a WARC with 2): the verdicts and purposes do not
      // depend on the thread count, which writes one thread's octets (below, and test/cli/threads.test.ts).
      for (const [source, threads] of [[['--robots-dir', path.join(dir, 'robots')], '1'], [['--robots-warc', path.join(dir, 'r.warc.gz')], '2']] as const) {
        const what = `${source[0]} --threads ${threads}`;
        const json = await robots(['classify', ...source, '--crawlers', CRAWLERS.join(','), '--profile', profile, '--format', 'jsonl', '--threads', threads, urlsFile]);
        expect(json.status, json.stderr).toBe(0);
        const lines = jsonLines(json.stdout);
        expect(lines.map((l) => l.url)).toEqual(URLS);
        lines.forEach((l, i) => CRAWLERS.forEach((c, j) => expect(l.crawlers[c], `${what} ${c} ${l.url}`).toEqual(want[i][j])));
        for (const line of summaryOf(want, CRAWLERS)) expect(json.stderr).toContain(line + '\n');

        const tsv = await robots(['classify', ...source, '--crawlers', CRAWLERS.join(','), '--usage', '--profile', profile, '--threads', threads, urlsFile]);
        expect(tsv.status, tsv.stderr).toBe(0);
        const rows = tsv.stdout.trimEnd().split('\n');
        expect(rows[0]).toBe(['url', ...CRAWLERS.flatMap((c) => [c, `${c}:search`, `${c}:train-ai`, `${c}:ai-use`])].join('\t'));
        expect(rows.slice(1), what).toEqual(URLS.map((u, i) => [u, ...want[i].flatMap((w) => [w.allowed ? 'allowed' : 'disallowed', ...PURPOSES.map((p) => w.usage[p])])].join('\t')));
        const purposeLines = (stderr: string) => stderr.split('\n').filter((l) => / purposes \(URLs\)| every purpose unknown/.test(l));
        expect(purposeLines(tsv.stderr)).toEqual(purposeLines(json.stderr));
      }
      // One robots.txt for all (--robots): a file whose Content-Usage patterns decide URL by URL.
      const body = FILES['aipref.example'];
      const one = await robots(['classify', '--robots', path.join(dir, 'robots', 'aipref.example'), '--crawlers', CRAWLERS.join(','), '--profile', profile, '--format', 'jsonl', urlsFile]);
      const all = Object.fromEntries(Object.keys(FILES).concat('none.example').map((h) => [h, body]));
      const wantOne = expected(all, URLS, CRAWLERS, profile);
      jsonLines(one.stdout).forEach((l, i) => CRAWLERS.forEach((c, j) => expect(l.crawlers[c], `--robots ${c} ${l.url}`).toEqual(wantOne[i][j])));
      // Two threads that each read their ranges and write their blocks: the same octets, JSON lines and TSV.
      for (const format of [['--format', 'jsonl'], ['--usage']]) {
        const args = ['classify', '--robots', path.join(dir, 'robots', 'aipref.example'), '--crawlers', CRAWLERS.join(','), '--profile', profile, ...format, '-q', urlsFile];
        const [a, b] = [await robots([...args, '--threads', '1']), await robots([...args, '--threads', '2'])];
        expect(b.stdout).toBe(a.stdout);
      }
      expect(one.stdout).toBe((await robots(['classify', '--robots', path.join(dir, 'robots', 'aipref.example'), '--crawlers', CRAWLERS.join(','), '--profile', profile, '--format', 'jsonl', '--usage', '--threads', '2', '-q', urlsFile])).stdout);
    });
  }

  it('a robots.txt without use preferences: every purpose unknown, and the summary says so in one line', async () => {
    const r = await robots(['classify', '--robots', path.join(dir, 'robots', 'plain.example'), '--crawlers', 'GPTBot,CCBot', '--usage'], 'https://e.com/\nhttps://e.com/private\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('url\tGPTBot\tGPTBot:search\tGPTBot:train-ai\tGPTBot:ai-use\tCCBot\tCCBot:search\tCCBot:train-ai\tCCBot:ai-use\n' +
      'https://e.com/\tdisallowed\tunknown\tunknown\tunknown\tallowed\tunknown\tunknown\tunknown\n' +
      'https://e.com/private\tdisallowed\tunknown\tunknown\tunknown\tdisallowed\tunknown\tunknown\tunknown\n');
    expect(r.stderr).toMatch(/\nrobots classify: all 2 crawlers: every purpose unknown for every URL \(no Content-Usage or Content-Signal line applied where they may fetch\)\n$/);
    // Without --usage, TSV is as it was: a verdict per crawler.
    const plain = await robots(['classify', '--robots', path.join(dir, 'robots', 'plain.example'), '--crawlers', 'GPTBot,CCBot'], 'https://e.com/\n');
    expect(plain.stdout).toBe('url\tGPTBot\tCCBot\nhttps://e.com/\tdisallowed\tallowed\n');
    expect(plain.stderr).not.toMatch(/purpose/);
  });

  it('--shard: the shards with usage make the whole run', async () => {
    const args = ['classify', '--robots-dir', path.join(dir, 'robots'), '--crawlers', CRAWLERS.join(','), '--usage', '-q', urlsFile];
    const whole = (await robots(args)).stdout.trimEnd().split('\n');
    const parts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await robots([...args, '--shard', `${i}/3`, '--threads', String(1 + (i % 2))]);
      const rows = r.stdout.trimEnd().split('\n');
      expect(rows[0]).toBe(whole[0]);
      parts.push(...rows.slice(1).filter((l) => l !== ''));
    }
    expect(parts.sort()).toEqual(whole.slice(1).sort());
  });

  it('@ai and @google: the shipped names, mixed with plain names, each once; rfc leaves out the names that are not product tokens, saying so once', async () => {
    const robotsFile = path.join(dir, 'robots', 'cf.example');
    const ai = AI_CRAWLERS.map((c) => c.name);
    const google = GOOGLE_CRAWLERS.map((c) => c.name);
    const header = async (crawlers: string, profile: string) => {
      const r = await robots(['classify', '--robots', robotsFile, '--crawlers', crawlers, '--profile', profile, '-q'], 'https://cf.example/\n');
      expect(r.status, r.stderr).toBe(0);
      return { columns: r.stdout.split('\n')[0].split('\t').slice(1), stderr: r.stderr };
    };
    // ai.robots.txt spells three crawlers two ways (meta-externalagent and Meta-ExternalAgent): one column each, case aside.
    const once = (names: string[]) => names.filter((n, i) => names.findIndex((m) => m.toLowerCase() === n.toLowerCase()) === i);
    const g = await header('@ai', 'google');
    expect(g.columns).toEqual(once(ai));
    expect(g.columns).toHaveLength(163);
    expect(g.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^robots classify: note: @ai: 21 names are not product tokens .*"AI2Bot"/)]);
    const rfc = await header('@ai', 'rfc');
    expect(rfc.columns).toEqual(once(ai.filter((n) => /^[A-Za-z_-]+$/.test(n))));
    expect(rfc.stderr).toMatch(/^robots classify: note: @ai: 21 names are not product tokens .*left out as the rfc profile refuses them/);
    const mixed = await header('Googlebot,@google,GPTBot,@GOOGLE', 'rfc');
    expect(mixed.columns).toEqual(['Googlebot', ...google.filter((n) => n !== 'Googlebot'), 'GPTBot']);
    const both = await header('@ai,@google', 'google');
    expect(both.columns).toEqual(once([...ai, ...google]));
  });

  it('@ai with --usage: each of the 163 crawlers (166 names, case aside) gets Cloudflare\'s signals where it may fetch', async () => {
    const r = await robots(['classify', '--robots', path.join(dir, 'robots', 'cf.example'), '--crawlers', '@ai', '--usage', '--profile', 'google'], 'https://cf.example/a\nhttps://cf.example/private\n');
    expect(r.status).toBe(0);
    const [head, ...rows] = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    const lib = parse(FILES['cf.example'], { profile: 'google' });
    const names = AI_CRAWLERS.map((c) => c.name).filter((n, i, all) => all.findIndex((m) => m.toLowerCase() === n.toLowerCase()) === i);
    expect(head).toHaveLength(1 + 4 * 163);
    rows.forEach((row, i) => {
      const url = row[0];
      const usages = lib.usages(url, names);
      expect(row.slice(1), `${i}`).toEqual(usages.flatMap((u) => [u.allowed ? 'allowed' : 'disallowed', ...PURPOSES.map((p) => u.purposes[p])]));
    });
    expect(r.stderr).toMatch(/robots classify: ClaudeBot: purposes \(URLs\): search 0 disallowed, 1 allowed; train-ai 1 disallowed, 0 allowed; ai-use 0 disallowed, 0 allowed\n/);
    expect(r.stderr).toMatch(/robots classify: 1 other crawler: every purpose unknown/); // GPTBot: disallowed everywhere
  });

  it('usage errors: an unknown set, --usage without --crawlers, no crawler left', async () => {
    const base = ['classify', '--robots', path.join(dir, 'robots', 'plain.example')];
    for (const [args, message] of [
      [['--crawlers', 'GPTBot,@aii'], /^robots: --crawlers: unknown set "@aii": the sets are @ai \(the 163 AI crawlers of ai.robots.txt .*\), @google \(Google's 18 crawler and fetcher tokens\)$/],
      [['--usage'], /^robots: --usage adds each crawler's use purposes .*--crawlers/],
      [['--usage', '--agent', 'GPTBot'], /^robots: --usage adds each crawler's use purposes/],
    ] as [string[], RegExp][]) {
      const r = await robots([...base, ...args], 'https://e.com/\n');
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim()).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe.skipIf(!HAVE_SHARED)('robots classify --crawlers: use purposes on the corpus', () => {
  it('corpus files alone (no use preference: all unknown, but what control tokens state for Googlebot) and with Cloudflare\'s managed block before them, held to RobotsTxt.usage (google and rfc)', async () => {
    const corpus = path.join(SHARED, 'corpus', 'robots');
    const hosts = readdirSync(corpus).sort().filter((_, i) => i % 40 === 0); // ~106 hosts, spread out
    const files: Record<string, Uint8Array> = {};
    for (const h of hosts) {
      const body = readFileSync(path.join(corpus, h));
      files[h] = body;
      files[`cf.${h}`] = Buffer.concat([Buffer.from(CLOUDFLARE), body]);
    }
    const sites = path.join(dir, 'corpus-sites');
    mkdirSync(sites);
    for (const [h, body] of Object.entries(files)) writeFileSync(path.join(sites, h), body);
    const paths = ['/', '/search?q=a', '/admin/', '/wp-admin/admin-ajax.php', '/private/x', '/api/v1', '/cart', '/%7Euser/page.html'];
    const urls = Object.keys(files).flatMap((h) => paths.map((p) => `https://${h}${p}`));
    const input = path.join(dir, 'corpus-urls.txt');
    writeFileSync(input, urls.join('\n') + '\n');
    const crawlers = ['GPTBot', 'CCBot', 'ClaudeBot', 'Google-Extended', 'Googlebot', 'Bingbot'];
    for (const profile of ['google', 'rfc'] as const) {
      const r = await robots(['classify', '--robots-dir', sites, '--crawlers', crawlers.join(','), '--profile', profile, '--format', 'jsonl', '--max-octets', 'Infinity', '-q', input]);
      expect(r.status, r.stderr).toBe(0);
      const want = expected(files, urls, crawlers, profile);
      const lines = jsonLines(r.stdout);
      expect(lines).toHaveLength(urls.length);
      let known = 0;
      let stated = 0;
      lines.forEach((l, i) => crawlers.forEach((c, j) => {
        expect(l.crawlers[c], `${profile} ${c} ${l.url}`).toEqual(want[i][j]);
        // (Googlebot's train-ai and ai-use are Google-Extended's to state: the control token, named by some files.)
        if (!l.url.startsWith('https://cf.') && c !== 'Googlebot') expect(l.crawlers[c].usage).toEqual({ search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'unknown' });
        else if (l.url.startsWith('https://cf.') && l.crawlers[c].usage.search !== 'unknown') known++;
        if (c === 'Googlebot' && !l.url.startsWith('https://cf.') && l.crawlers[c].usage['train-ai'] !== 'unknown') stated++;
      }));
      expect(known).toBeGreaterThan(urls.length); // Cloudflare's block reaches most crawlers of its files
      expect(stated).toBeGreaterThan(0); // Google-Extended speaks for Googlebot on some corpus files
    }
  });
});
