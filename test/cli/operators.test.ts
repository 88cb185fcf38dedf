// `robots explain --operator` and `robots check --operator` (issue 40, item 6):
// each operator's answer per purpose (search, train-ai, ai-use: yes, no or
// unknown) with the lines behind its crawler's verdict and the site's
// preference, as text and as JSON; the JSON is the library's operatorUsage(),
// on hand-written files and on random files of groups of crawlers, control
// tokens and use lines, in both profiles (library = explain = check).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OPERATORS, parse, type Profile } from '../../src/index.js';
import { robots } from '../helpers/cli-run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-operators-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const fileOf = (body: string): string => {
  const file = path.join(dir, `robots-${files++}.txt`);
  writeFileSync(file, body);
  return file;
};

// GPTBot's group disallows /private/ and says no to training; Google-Extended (a control token) disallows everything.
const BODY = 'User-agent: GPTBot\nDisallow: /private/\nContent-Usage: train-ai=n\n\nUser-agent: Google-Extended\nDisallow: /\n\nUser-agent: *\nAllow: /\n';
const FILE = fileOf(BODY);
const IDS = OPERATORS.map((o) => o.id);

/** The library's answers, as JSON carries them (a purpose with no crawler has no `fetch`). */
const library = (body: string, profile: Profile, url: string, ids: readonly string[]) => {
  const r = parse(body, { profile });
  return JSON.parse(JSON.stringify(ids.map((id) => r.operatorUsage(url, id))));
};

describe('robots explain --operator', () => {
  it('text: per operator, a line a purpose with its word, the crawler\'s verdict and its line, the preference and the lines behind it', async () => {
    const r = await robots(['explain', FILE, 'GPTBot', 'https://a.example/x', '--operator', 'openai,google']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain([
      'Operators: per purpose, yes when the crawler for it may fetch the URL and the site does not disallow the use; unknown when no crawler of the operator fetches for it.',
      '  OpenAI (openai)',
      '    search    yes      OAI-SearchBot may fetch (line 9: Allow: /); preference unknown',
      '    train-ai  no       GPTBot may fetch (no rule matched); preference disallowed',
      '      line 3: Content-Usage: train-ai=n  (train-ai disallowed)',
      '    ai-use    unknown  no crawler of OpenAI fetches for ai-use; preference unknown',
      '    user      ChatGPT-User may fetch (line 9: Allow: /), when a person asks (robots.txt: may-ignore)',
      '  Google (google)',
      '    search    yes      Googlebot may fetch (line 9: Allow: /); preference unknown',
      '    train-ai  no       Googlebot may fetch (line 9: Allow: /); preference disallowed',
      '      line 6: control token Google-Extended: disallowed  (train-ai disallowed)',
    ].join('\n') + '\n');
    // A crawler that may not fetch: its purposes are no, and the deciding rule is named.
    const d = await robots(['explain', FILE, 'GPTBot', 'https://a.example/private/y', '--operator', 'openai']);
    expect(d.status).toBe(1);
    expect(d.stdout).toContain('    train-ai  no       GPTBot may not fetch (line 2: Disallow: /private/); preference unknown\n');
  }, 60_000);

  it('JSON: "operators" is the library\'s operatorUsage() for each id, in the order given; @ai is all of them, each once', async () => {
    const r = await robots(['explain', FILE, 'GPTBot', 'https://a.example/x', '--operator', 'google', '--operator', 'openai,google', '--format', 'json']);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.operators).toEqual(library(BODY, 'rfc', 'https://a.example/x', ['google', 'openai']));
    expect(json.purposes).toEqual({ search: 'unknown', 'train-ai': 'disallowed', 'ai-use': 'unknown' });
    const all = await robots(['explain', FILE, 'GPTBot', 'https://a.example/x', '--operator', '@ai,openai', '--format', 'json']);
    expect(JSON.parse(all.stdout).operators.map((o: { operator: { id: string } }) => o.operator.id)).toEqual(IDS);
    // Without --operator, the JSON is as it was: no "operators".
    expect(JSON.parse((await robots(['explain', FILE, 'GPTBot', 'https://a.example/x', '--format', 'json'])).stdout)).not.toHaveProperty('operators');
  }, 60_000);

  it('an unknown id: one line naming the ids, exit 2, nothing on stdout', async () => {
    for (const args of [['explain', FILE, 'GPTBot', 'https://a.example/x', '--operator', 'openai,gpt'], ['check', FILE, 'GPTBot', 'https://a.example/x', '--operator', 'gpt'], ['check', FILE, 'GPTBot', '/x', '--operator', ',']]) {
      const r = await robots(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toContain(`the operators are ${IDS.join(', ')} (or @ai for all)`);
    }
  }, 60_000);

  it('a hostile id (a newline, 100,000 characters) is shown cut, on one line, exit 2', async () => {
    const r = await robots(['explain', FILE, 'GPTBot', 'https://a.example/x', '--operator', `open\nai${'x'.repeat(100_000)}`]);
    expect(r.status).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.length).toBeLessThan(400);
    expect(r.stderr).toContain('unknown operator "open\\naixxx');
  }, 60_000);
});

describe('robots check --operator, --format json', () => {
  it('text: a column per operator, id:search,train-ai,ai-use; JSON: one document, a list with each URL\'s "operators"', async () => {
    const urls = ['https://a.example/x', 'https://a.example/private/y'];
    const t = await robots(['check', FILE, 'GPTBot', ...urls, '--operator', 'openai,google']);
    expect(t.status).toBe(1);
    expect(t.stdout).toBe([
      'allowed\t0\thttps://a.example/x\t(no rule matched)\topenai:yes,no,unknown\tgoogle:yes,no,no',
      'disallowed\t2\thttps://a.example/private/y\tDisallow: /private/\topenai:yes,no,unknown\tgoogle:yes,no,no',
    ].join('\n') + '\n');
    // With --usage, the purposes' columns come first.
    const u = await robots(['check', '--usage', FILE, 'GPTBot', urls[0], '--operator', 'openai']);
    expect(u.stdout).toBe('allowed\t0\thttps://a.example/x\t(no rule matched)\tunknown\tdisallowed\tunknown\t3\topenai:yes,no,unknown\n');
    const j = await robots(['check', FILE, 'GPTBot', ...urls, '--operator', 'openai,google', '--format', 'json']);
    expect(j.status).toBe(1);
    const list = JSON.parse(j.stdout);
    expect(list.map((e: { url: string; allowed: boolean; line: number }) => [e.url, e.allowed, e.line])).toEqual([[urls[0], true, 0], [urls[1], false, 2]]);
    expect(list.map((e: { operators: unknown }) => e.operators)).toEqual(urls.map((url) => library(BODY, 'rfc', url, ['openai', 'google'])));
    expect(list[0].purposes).toEqual({ search: 'unknown', 'train-ai': 'disallowed', 'ai-use': 'unknown' });
  }, 60_000);

  it('library = explain --format json = check --format json on random files of groups of crawlers, control tokens and use lines, both profiles', async () => {
    const line = fc.constantFrom(
      'User-agent: GPTBot', 'User-agent: OAI-SearchBot', 'User-agent: Googlebot', 'User-agent: ClaudeBot', 'User-agent: Applebot', 'User-agent: CCBot', 'User-agent: PerplexityBot', 'User-agent: *',
      'User-agent: Google-Extended', 'User-agent: Applebot-Extended', 'User-agent: Google-Extended', 'User-agent: ChatGPT-User',
      'Disallow: /', 'Disallow: /a', 'Allow: /a/b', 'Disallow: /x', 'Allow: /',
      'Content-Usage: train-ai=n', 'Content-Usage: /a search=n, ai-use=y', 'Content-Usage: search=y, train-ai=y', 'Content-Usage: ai-input=n', 'Content-Signal: search=no, ai-train=no', 'Content-Signal: ai-input=yes', '',
    );
    const bodies = fc.sample(fc.array(line, { maxLength: 14 }), { numRuns: 12, seed: 6 }).map((ls) => ls.join('\n') + '\n');
    const urls = ['https://s.example/', 'https://s.example/a', 'https://s.example/a/b', 'https://s.example/x'];
    let answers = 0;
    const words = new Set<string>();
    for (const body of bodies) {
      const file = fileOf(body);
      for (const profile of ['rfc', 'google'] as const) {
        const expected = urls.map((u) => library(body, profile, u, IDS));
        for (const e of expected) for (const o of e) for (const p of Object.values(o.purposes) as { answer: string; signals: unknown[] }[]) words.add(p.signals.length > 0 ? `${p.answer} with lines` : p.answer);
        const check = await robots(['check', file, 'Googlebot', ...urls, '--operator', '@ai', '--format', 'json', '--profile', profile]);
        expect(check.stderr, `${profile}\n${body}`).toBe('');
        expect(JSON.parse(check.stdout).map((e: { operators: unknown }) => e.operators), `${profile}\n${body}`).toEqual(expected);
        // explain for one URL of the four (which one: by the file, so each is asked across the files).
        const k = files % urls.length;
        const explain = await robots(['explain', file, 'GPTBot', urls[k], '--operator', '@ai', '--format', 'json', '--profile', profile]);
        expect(JSON.parse(explain.stdout).operators, `${profile} ${urls[k]}\n${body}`).toEqual(expected[k]);
        answers += urls.length + 1;
      }
    }
    expect(answers).toBe(bodies.length * 2 * (urls.length + 1));
    // The files give every word, and answers with lines behind them.
    expect([...words]).toEqual(expect.arrayContaining(['no', 'no with lines', 'unknown', 'yes', 'yes with lines']));
  }, 300_000); // (a hang guard: 48 commands on a busy machine)
});
