// `robots classify --operators`: per operator and purpose the one word
// RobotsTxt.operatorUsage(url, op).purposes[p].answer gives (yes, no, unknown),
// on random files of groups of the operators' crawlers, control tokens and `*`,
// rules and use lines; in both profiles, TSV and JSON lines, 1 and 2 threads,
// every source, with and without --crawlers / --agent; hosts without a
// robots.txt as the crawler columns take them; the summary's counts are the
// output's; an unknown operator is a one-line usage error.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATORS, parse } from '../../dist/index.js';
import { robots } from '../helpers/cli-run.js';
import { writeEverySource, writeWarc } from '../helpers/warc-files.js';
import { corpusFile, HAVE_SHARED, readJsonLinesGz, SHARED } from '../helpers/shared-data.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-operators-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PURPOSES = ['search', 'train-ai', 'ai-use'] as const;
const IDS = OPERATORS.map((o) => o.id);

// Random files: groups of the operators' crawlers, their control tokens and `*`, rules, Content-Usage (with and without paths) and Content-Signal lines.
const line = fc.constantFrom(
  'User-agent: Googlebot', 'User-agent: GPTBot', 'User-agent: OAI-SearchBot', 'User-agent: ClaudeBot', 'User-agent: Applebot', 'User-agent: bingbot',
  'User-agent: Google-Extended', 'User-agent: Applebot-Extended', 'User-agent: CCBot', 'User-agent: *', 'User-agent: FooBot',
  'Disallow: /a', 'Allow: /a/b', 'Disallow: /x', 'Disallow: /', 'Disallow:',
  'Content-Usage: train-ai=n', 'Content-Usage: /a search=n', 'Content-Usage: search=y, train-ai=y', 'content-usage: /x train-ai=n, ai-use=n', 'Content-Usage: ai-use=y',
  'Content-Signal: search=no', 'Content-Signal: ai-train=yes', 'Content-Signal: ai-input=no', '',
);
const files: Record<string, string> = Object.fromEntries(
  fc.sample(fc.array(line, { maxLength: 18 }), { numRuns: 50, seed: 41 }).map((ls, i) => [`h${i}.example`, ls.join('\n') + '\n']),
);
files['extended-only.example'] = 'User-agent: Google-Extended\nDisallow: /\n';
files['gptbot-only.example'] = 'User-agent: GPTBot\nDisallow: /\n';
// Control tokens whose rules decide alike for every URL (stated once per host), and ones that do not.
files['extended-comment.example'] = 'User-agent: Google-Extended\nDisallow: /   # no AI\n\nUser-agent: Googlebot\nDisallow: /x\n';
files['extended-allow.example'] = 'User-agent: Google-Extended\nDisallow: /\nAllow: /a\n';
files['extended-empty.example'] = 'User-agent: Google-Extended\nUser-agent: Applebot-Extended\nDisallow:\n\nUser-agent: *\nDisallow: /a\n';
files['apple-two.example'] = 'User-agent: Applebot-Extended\nDisallow: /x\nDisallow: /\n\nUser-agent: *\nDisallow: /a\n';
files['extended-star.example'] = 'User-agent: Google-Extended\nDisallow: /*\n';
const PATHS = ['/', '/a', '/a/b', '/x', '/y'];
// A host with no robots.txt too (no file, no capture).
const URLS = [...Object.keys(files), 'none.example'].flatMap((h) => PATHS.map((p) => `https://${h}${p}`));
const urlsFile = path.join(dir, 'urls.txt');

/** Each source's arguments: the same sites as a folder, a WARC, a WARC list and an index. */
let sources: string[][] = [];
beforeAll(async () => {
  sources = await writeEverySource(dir, files, URLS, urlsFile);
}, 120_000); // (generous: a loaded machine)

type Answers = Record<string, Record<(typeof PURPOSES)[number], string>>;

/** The library's answers per URL (an empty file for a host without one: all allowed). */
function expected(profile: 'rfc' | 'google', ids: readonly string[] = IDS): Answers[] {
  const parsed = new Map(Object.entries(files).map(([h, body]) => [h, parse(body, { profile })]));
  const empty = parse('', { profile });
  return URLS.map((url) => {
    const robotsTxt = parsed.get(new URL(url).host) ?? empty;
    return Object.fromEntries(ids.map((id) => {
      const a = robotsTxt.operatorUsage(url, id);
      return [id, Object.fromEntries(PURPOSES.map((p) => [p, a.purposes[p].answer]))];
    })) as Answers;
  });
}

function tsvRows(want: Answers[], ids: readonly string[] = IDS): string[] {
  return URLS.map((u, i) => [u, ...ids.flatMap((id) => PURPOSES.map((p) => want[i][id][p]))].join('\t'));
}

describe('robots classify --operators', () => {
  for (const profile of ['rfc', 'google'] as const) {
    it(`random files, every source, TSV and JSON lines, 1 and 2 threads: each cell is operatorUsage()'s answer (${profile})`, async () => {
      const want = expected(profile);
      // The answers vary: a test that can fail.
      expect(new Set(want.flatMap((w) => Object.values(w).flatMap((a) => Object.values(a))))).toEqual(new Set(['yes', 'no', 'unknown']));
      const header = ['url', ...IDS.flatMap((id) => PURPOSES.map((p) => `${id}:${p}`))].join('\t');
      for (const source of sources) {
        for (const threads of ['1', '2']) {
          const what = `${source[0]} --threads ${threads}`;
          const tsv = await robots(['classify', ...source, '--operators', '@ai', '--profile', profile, '--threads', threads, '-q', urlsFile]);
          expect(tsv.status, tsv.stderr).toBe(0);
          const lines = tsv.stdout.trimEnd().split('\n');
          expect(lines[0]).toBe(header);
          expect(lines.slice(1), what).toEqual(tsvRows(want));
          const json = await robots(['classify', ...source, '--operators', '@ai', '--profile', profile, '--format', 'jsonl', '--threads', threads, '-q', urlsFile]);
          expect(json.status, json.stderr).toBe(0);
          const objects = json.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { url: string; operators: Answers });
          expect(objects.map((o) => o.url)).toEqual(URLS);
          objects.forEach((o, i) => expect(o.operators, `${what} ${o.url}`).toEqual(want[i]));
        }
      }
    }, 600_000); // (generous: a dozen CLI runs on a loaded machine; no timing asserted)
  }

  it('with --crawlers (and --usage) and with --agent: the crawler columns are unchanged, the operators follow; --robots, one file for all', async () => {
    const crawlers = 'Googlebot,GPTBot';
    const ids = ['google', 'openai', 'common-crawl'];
    const want = expected('rfc', ids);
    const plain = await robots(['classify', '--robots-dir', path.join(dir, 'robots'), '--crawlers', crawlers, '--usage', '-q', urlsFile]);
    expect(plain.status, plain.stderr).toBe(0);
    const both = await robots(['classify', '--robots-dir', path.join(dir, 'robots'), '--crawlers', crawlers, '--usage', '--operators', ids.join(','), '-q', urlsFile]);
    expect(both.status, both.stderr).toBe(0);
    const plainLines = plain.stdout.trimEnd().split('\n');
    const bothLines = both.stdout.trimEnd().split('\n');
    expect(bothLines[0]).toBe(`${plainLines[0]}\t${ids.flatMap((id) => PURPOSES.map((p) => `${id}:${p}`)).join('\t')}`);
    const rows = tsvRows(want, ids);
    bothLines.slice(1).forEach((l, i) => expect(l).toBe(`${plainLines[i + 1]}\t${rows[i].split('\t').slice(1).join('\t')}`));
    // JSON lines: "crawlers" as without, then "operators".
    const plainJson = await robots(['classify', '--robots-dir', path.join(dir, 'robots'), '--crawlers', crawlers, '--format', 'jsonl', '-q', urlsFile]);
    const bothJson = await robots(['classify', '--robots-dir', path.join(dir, 'robots'), '--crawlers', crawlers, '--operators', ids.join(','), '--format', 'jsonl', '-q', urlsFile]);
    expect(bothJson.status, bothJson.stderr).toBe(0);
    const pj = plainJson.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    bothJson.stdout.trimEnd().split('\n').forEach((l, i) => expect(JSON.parse(l)).toEqual({ ...pj[i], operators: want[i] }));
    // --agent: its verdict as a crawler column.
    const agent = await robots(['classify', '--robots-dir', path.join(dir, 'robots'), '--agent', 'GPTBot', '--operators', 'openai', '-q', urlsFile]);
    expect(agent.status, agent.stderr).toBe(0);
    const parsed = new Map(Object.entries(files).map(([h, body]) => [h, parse(body)]));
    const oa = expected('rfc', ['openai']);
    expect(agent.stdout.trimEnd().split('\n')).toEqual([
      'url\tGPTBot\topenai:search\topenai:train-ai\topenai:ai-use',
      ...URLS.map((u, i) => [u, (parsed.get(new URL(u).host)?.isAllowed(u, 'GPTBot') ?? true) ? 'allowed' : 'disallowed', ...PURPOSES.map((p) => oa[i].openai[p])].join('\t')),
    ]);
    // --robots: one file for all URLs, 1 and 2 threads.
    for (const host of ['h3.example', 'extended-only.example']) {
      const lib = parse(files[host]);
      for (const threads of ['1', '2']) {
        const one = await robots(['classify', '--robots', path.join(dir, 'robots', host), '--operators', '@ai', '--threads', threads, '-q', urlsFile]);
        expect(one.status, one.stderr).toBe(0);
        expect(one.stdout.trimEnd().split('\n').slice(1)).toEqual(URLS.map((u) => [u, ...IDS.flatMap((id) => PURPOSES.map((p) => lib.operatorUsage(u, id).purposes[p].answer))].join('\t')));
      }
    }
  }, 600_000); // (generous: a loaded machine)

  it('a host whose robots.txt is missing, or unreachable: yes or no as the crawler columns say allowed or disallowed; unknown stays unknown', async () => {
    const u = path.join(dir, 'none-urls.txt');
    writeFileSync(u, 'https://none.example/a\n');
    const allow = await robots(['classify', '--robots-dir', path.join(dir, 'robots'), '--operators', 'openai', '-q', u]);
    expect(allow.stdout.split('\n')[1]).toBe('https://none.example/a\tyes\tyes\tunknown');
    const disallow = await robots(['classify', '--robots-dir', path.join(dir, 'robots'), '--missing', 'disallow', '--operators', 'openai', '-q', u]);
    expect(disallow.stdout.split('\n')[1]).toBe('https://none.example/a\tno\tno\tunknown');
  }, 120_000);

  it('--shard i/2: the union of the shards is the whole run, each line as without shards (--robots-warc, --robots-index)', async () => {
    const want = tsvRows(expected('rfc'));
    for (const source of [['--robots-warc', path.join(dir, 'r.warc.gz')], ['--robots-index', path.join(dir, 'idx')]]) {
      const got: string[] = [];
      for (const shard of ['0/2', '1/2']) {
        const r = await robots(['classify', ...source, '--operators', '@ai', '--shard', shard, '-q', urlsFile]);
        expect(r.status, r.stderr).toBe(0);
        got.push(...r.stdout.trimEnd().split('\n').slice(1).filter((l) => l !== ''));
      }
      expect(got.sort(), source[0]).toEqual([...want].sort());
    }
  }, 300_000); // (generous: a loaded machine)

  it('WARC captures of 404 (all allowed: yes where a crawler fetches) and 503 (all disallowed: no), as the crawler columns', async () => {
    const warc = path.join(dir, 'status.warc.gz');
    await writeWarc(warc, [{ url: 'https://gone.example/robots.txt', status: 404, body: 'nothing' }, { url: 'https://down.example/robots.txt', status: 503, body: 'later' }]);
    const u = path.join(dir, 'status-urls.txt');
    writeFileSync(u, 'https://gone.example/a\nhttps://down.example/a\n');
    const r = await robots(['classify', '--robots-warc', warc, '--crawlers', 'GPTBot', '--operators', 'openai', '-q', u]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n').slice(1)).toEqual([
      'https://gone.example/a\tallowed\tyes\tyes\tunknown',
      'https://down.example/a\tdisallowed\tno\tno\tunknown',
    ]);
    // The library's answers for the empty file and for one that disallows all.
    expect(PURPOSES.map((p) => parse('').operatorUsage('https://gone.example/a', 'openai').purposes[p].answer)).toEqual(['yes', 'yes', 'unknown']);
    expect(PURPOSES.map((p) => parse('User-agent: *\nDisallow: /\n').operatorUsage('https://down.example/a', 'openai').purposes[p].answer)).toEqual(['no', 'no', 'unknown']);
  }, 120_000);

  it("the summary counts yes, no and unknown per operator and purpose, as the output has them", async () => {
    const r = await robots(['classify', '--robots-dir', path.join(dir, 'robots'), '--operators', '@ai', '--threads', '2', urlsFile]);
    expect(r.status, r.stderr).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').slice(1).map((l) => l.split('\t').slice(1));
    IDS.forEach((id, o) => {
      const each = PURPOSES.map((p, i) => {
        const col = rows.map((row) => row[3 * o + i]);
        const n = (w: string) => col.filter((x) => x === w).length;
        return `${p} ${n('yes')} yes, ${n('no')} no, ${n('unknown')} unknown`;
      }).join('; ');
      expect(r.stderr).toContain(`robots classify: operator ${id}: ${each}\n`);
    });
  }, 120_000);

  it('an unknown operator: one line naming the known ones, exit 2', async () => {
    const r = await robots(['classify', '--robots-dir', path.join(dir, 'robots'), '--operators', 'google,nope', urlsFile]);
    expect(r.status).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('unknown operator "nope"');
    expect(r.stderr).toContain(IDS.join(', '));
    // No id, several names for --agent, too many crawlers for the table with the operators' slots: one line each, exit 2.
    const many = Array.from({ length: 230 }, (_, i) => `Bot${i}`).join(',');
    for (const [args, says] of [
      [['--operators', ','], 'no operator given'],
      [['--operators', 'google', '--agent', 'Googlebot,Bingbot'], '--operators with --agent takes one product token'],
      [['--operators', '@ai', '--crawlers', many], 'less 3 per operator of --operators (14), got 230'],
    ] as const) {
      const e = await robots(['classify', '--robots-dir', path.join(dir, 'robots'), ...args, urlsFile]);
      expect(e.status, args.join(' ')).toBe(2);
      expect(e.stdout).toBe('');
      expect(e.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(e.stderr).toContain(says);
    }
  }, 120_000);

  it.runIf(HAVE_SHARED)('the corpus with --operators @ai: no error, and the library\'s answers on a sample of hosts', async () => {
    const probes = readJsonLinesGz<{ host: string; url: string }>('corpus/probes-seed1.jsonl.gz');
    const hosts = [...new Set(probes.map((p) => p.host))];
    // Every 40th host: a sample spread over the corpus.
    const sample = new Set(hosts.filter((_, i) => i % 40 === 0));
    const urls = probes.filter((p) => sample.has(p.host));
    const f = path.join(dir, 'corpus-urls.txt');
    writeFileSync(f, urls.map((p) => p.url).join('\n') + '\n');
    const all = path.join(dir, 'corpus-all.txt');
    writeFileSync(all, probes.map((p) => p.url).join('\n') + '\n');
    const whole = await robots(['classify', '--robots-dir', path.join(SHARED, 'corpus', 'robots'), '--operators', '@ai', '--format', 'jsonl', '-q', all], undefined, { killAfterMs: 600_000 });
    expect(whole.status, whole.stderr).toBe(0);
    expect(whole.stdout.trimEnd().split('\n')).toHaveLength(probes.length);
    const r = await robots(['classify', '--robots-dir', path.join(SHARED, 'corpus', 'robots'), '--operators', '@ai', '--format', 'jsonl', '-q', f]);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { url: string; operators: Answers });
    expect(lines.map((l) => l.url)).toEqual(urls.map((p) => p.url));
    const parsed = new Map<string, ReturnType<typeof parse>>();
    lines.forEach((l, i) => {
      const host = urls[i].host;
      if (!parsed.has(host)) parsed.set(host, parse(corpusFile(host)));
      const lib = parsed.get(host)!;
      for (const id of IDS) {
        const a = lib.operatorUsage(l.url, id);
        expect(l.operators[id], `${id} ${l.url}`).toEqual(Object.fromEntries(PURPOSES.map((p) => [p, a.purposes[p].answer])));
      }
    });
  }, 900_000); // (generous: the whole corpus on a loaded machine; no timing asserted)
});
