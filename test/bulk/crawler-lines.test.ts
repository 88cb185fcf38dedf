// classify --crawlers on a host whose robots.txt names none of the crawlers and
// has no use-preference line compiles one matcher for all of them from the
// lexer's lines alone (crawler-lines.ts), not from the file's records: held to
// the records' answer (RobotsTxt's namedAgents, verdicts and purposes) for
// files of user-agent lines spelt every way the lexer takes them, cut anywhere
// by maxOctets, in both profiles (under rfc a Content-Usage line ends its
// group's user-agent lines, so its place decides the groups).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { crawlerLines } from '../../src/bulk/classify/crawler-lines.js';
import { HostMatchers } from '../../src/bulk/classify/host-matchers.js';
import { crawlerPurposes } from '../../src/bulk/classify/purpose-codes.js';
import { parse } from '../../src/index.js';
import type { Matcher } from '../../src/engine/match/matcher.js';
import type { Profile } from '../../src/engine/parse/profile.js';
import { robotsInternals } from '../../src/internal.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-crawler-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CRAWLERS = ['GPTBot', 'ClaudeBot', 'CCBot', 'AI2Bot', 'Google-Extended', 'meta_externalagent'];
const LOWER = new Set(CRAWLERS.map((c) => c.toLowerCase()));
/** The crawlers the profile takes (rfc: product tokens only, not "AI2Bot"). */
const crawlersOf = (p: Profile) => (p === 'rfc' ? CRAWLERS.filter((c) => /^[A-Za-z_-]+$/.test(c)) : CRAWLERS);
const encoder = new TextEncoder();
const MIN_OCTETS = 512_000;

const key = fc.constantFrom('User-agent', 'user-agent', 'USER-AGENT', 'useragent', 'User agent', 'User-agentX', 'Disallow', 'Allow', 'Content-Usage', 'content-usage', 'CONTENT-USAGEx', 'content-signal', 'Content-Signalx', 'Sitemap', '# User-agent');
const value = fc.constantFrom('GPTBot', 'gptbot/1.0', 'GPTBot-X', 'GPTBo', '*', '*bot', ' ClaudeBot ', 'AI2Bot', 'ai', 'FooBot', 'ccbot;', 'meta_ExternalAgent', '/', '/private', 'train-ai=n', '/private search=y', 'search=yes, ai-train=no', '');
const separator = fc.constantFrom(':', ': ', ' ', '\t', ':\t', '');
const end = fc.constantFrom('\n', '\r\n', '\r', ' # note\n');
const line = fc.tuple(key, separator, value, end).map((parts) => parts.join(''));
const body = fc.array(line, { maxLength: 14 }).map((lines) => lines.join(''));
const profile = fc.constantFrom<Profile>('rfc', 'google');

describe('crawlerLines: the lexer lines a robots.txt has for a list of crawlers', () => {
  it('the names of them that its records name (namedAgents); no use-preference line means no purpose for any', () => {
    fc.assert(
      fc.property(body, profile, (text, p) => {
        const robots = parse(text, { profile: p });
        const found = crawlerLines(encoder.encode(text), LOWER);
        expect([...(found.named ?? [])].sort()).toEqual([...robotsInternals(robots).namedAgents()].filter((n) => LOWER.has(n)).sort());
        if (!found.usage) for (const c of crawlersOf(p)) expect(crawlerPurposes(robots, c)).toBe(0);
      }),
      { numRuns: 400 },
    );
  });

  it("reads a user-agent line as the records do: `*` names no crawler, not even one named '' (Google's parser takes any name; \"User-agent: 360Spider\" is read as '')", () => {
    const names = new Set([...LOWER, '']);
    fc.assert(
      fc.property(body, profile, (text, p) => {
        const found = crawlerLines(encoder.encode(text), names);
        expect([...(found.named ?? [])].sort()).toEqual([...robotsInternals(parse(text, { profile: p })).namedAgents()].filter((n) => names.has(n)).sort());
      }),
      { numRuns: 400, examples: [['User-agent: *\nDisallow: /\n', 'google'], ['User-agent: 360Spider\nDisallow: /\n', 'google']] },
    );
  });

  it('a file cut by maxOctets is read as cut: a name cut short names the crawler it spells ("ClaudeBotz" cut after "ClaudeBot": a group of its own, not `*`)', () => {
    const lines = 'User-agent: *\nDisallow: /\nUser-agent: ClaudeBotz\nAllow: /b\n';
    for (let cut = 0; cut <= lines.length; cut++) {
      const host = `cut${cut}.example`;
      const text = `#${'-'.repeat(MIN_OCTETS - cut - 2)}\n${lines}`;
      writeFileSync(path.join(dir, host), text);
      const hosts = new HostMatchers({ dir, agents: [], crawlers: CRAWLERS, profile: 'google', maxOctets: MIN_OCTETS, cacheBytes: 1 << 24 });
      const claude = hosts.getAll(cut, () => ({ host, scheme: 'https', port: '' })).matchers[1] as Matcher;
      expect([cut, claude.isAllowed('https://x/a')]).toEqual([cut, parse(text, { profile: 'google', maxOctets: MIN_OCTETS }).isAllowed('https://x/a', 'ClaudeBot')]);
    }
  });

  it('classify --crawlers per host: each crawler the verdicts and purposes of its records, crawlers of the same groups one matcher (usage or not, cut by maxOctets or not)', () => {
    let n = 0;
    fc.assert(
      fc.property(body, fc.boolean(), fc.option(fc.integer({ min: 0, max: 120 }), { nil: undefined }), profile, (lines, usage, cut, p) => {
        const host = `h${n++}.example`;
        // Cut: the least maxOctets there is (RFC 9309's 500 KiB), `cut` octets into the lines after a long comment.
        const maxOctets = MIN_OCTETS;
        const text = cut === undefined ? lines : `#${'-'.repeat(MIN_OCTETS - cut - 2)}\n${lines}`;
        writeFileSync(path.join(dir, host), text);
        const crawlers = crawlersOf(p);
        const hosts = new HostMatchers({ dir, agents: [], crawlers, usage, profile: p, maxOctets, cacheBytes: 1 << 24 });
        const all = hosts.getAll(n, () => ({ host, scheme: 'https', port: '' }));
        const robots = parse(text, { profile: p, maxOctets });
        crawlers.forEach((c, j) => {
          const m = all.matchers[j] as Matcher;
          for (const url of ['https://x/', 'https://x/private', 'https://x/a']) expect(m.explain(url)).toEqual(robots.explain(url, c));
          if (usage) expect(all.usage![j]).toEqual(typeof all.usage![j] === 'number' ? crawlerPurposes(robots, c) : expect.any(Function));
          // The same groups, one matcher (one walk a URL); others may share one too, for the same rules.
          crawlers.forEach((d, i) => robotsInternals(robots).rulesKey(d) === robotsInternals(robots).rulesKey(c) && expect(all.matchers[i]).toBe(m));
        });
        if (!usage) expect(all.usage).toBeUndefined();
      }),
      {
        numRuns: 300,
        examples: [
          ['User-agent: ClaudeBot\nDisallow: /private\n', false, undefined, 'google'], // named after one no line names
          ['User-agent: GPTBot\nUser-agent: *\nDisallow: /private\n', true, undefined, 'google'], // a group naming one and `*`
          ['User-agent: CCBot\nDisallow: /\nUser-agent: GPTBot\nDisallow: /\n', false, undefined, 'google'], // the same rules, other lines
          ['User-agent: CCBot\nUser-agent: gptbot\nDisallow: /a\nContent-Signal: ai-train=no\n', true, 40, 'google'], // purposes: the records
          // A Content-Usage line between user-agent lines: GPTBot's own group under rfc (no rule), `*`'s under google.
          ['User-agent: GPTBot\nContent-Usage: train-ai=n\nUser-agent: *\nDisallow: /private\n', false, undefined, 'rfc'],
          ['User-agent: GPTBot\nContent-Usage: train-ai=n\nUser-agent: *\nDisallow: /private\n', false, undefined, 'google'],
          ['User-agent: GPTBot\nContent-Usage: train-ai=n\nUser-agent: *\nDisallow: /private\n', true, undefined, 'rfc'],
        ],
      },
    );
  });
});
