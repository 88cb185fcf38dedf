// The core's witnesses (assembly/bulk/audit-witness.ts, core-witnesses.ts)
// against the host's (rule-category.ts over path-verdict.ts's rules): per set of
// groups the same category, the same proof paths and the same verdict at `/`
// (its deciding line too), on every file of the corpus for several crawlers and
// on random files with the corners (escapes, `$`, `*`, non-ASCII, /robots.txt,
// dot segments), both profiles. What the core gives back (undecided, a set it
// does not take) the host decides, as before. And the work: a set the core
// decides compares no rule in JavaScript (a count, not a clock).
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { readRecords, type Group } from '../../src/engine/parse/records.js';
import { agentTokens, applicableGroups } from '../../src/engine/parse/agents.js';
import type { Profile } from '../../src/engine/parse/profile.js';
import { categoryOfRules, rulesOf } from '../../src/bulk/audit/rule-category.js';
import { pathVerdict, ruleComparisons } from '../../src/bulk/audit/path-verdict.js';
import { coreCategory, coreDecided } from '../../src/bulk/audit/core-witnesses.js';
import { SiteRules } from '../../src/bulk/audit/site-rules.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';
import { propertySeed } from '../helpers/seed.js';

const PROFILES: Profile[] = ['rfc', 'google'];
const CRAWLERS = ['Googlebot', 'Bingbot', 'GPTBot', 'CCBot', 'Baiduspider', 'Mediapartners-Google'];
const ROOT = Uint8Array.of(0x2f);
const latin1 = (b: Uint8Array | undefined) => (b === undefined ? undefined : Buffer.from(b).toString('latin1'));

/** The host's answer for the groups, in the form compared. */
function hostAnswer(body: Uint8Array, groups: readonly Group[], profile: Profile) {
  const rules = rulesOf(body, groups, profile);
  const root = pathVerdict(rules, ROOT);
  const a = categoryOfRules(rules, profile, root.allowed);
  return { root, category: a.category, exact: a.exact, allowed: latin1(a.allowedPath), disallowed: latin1(a.disallowedPath) };
}

/** Checks each distinct set of the file's groups (for the crawlers); returns the sets the core decided and all sets. */
function expectSame(body: Uint8Array, profile: Profile): { decided: number; sets: number } {
  const records = readRecords(body, profile);
  const seen = new Set<string>();
  let decided = 0;
  for (const crawler of CRAWLERS) {
    const groups = applicableGroups(records.groups, agentTokens(crawler, profile));
    const key = groups.map((g) => records.groups.indexOf(g)).join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    const host = hostAnswer(records.body, groups, profile);
    const core = coreCategory(records.body, groups, profile);
    if (core === undefined) continue;
    expect(core.atRoot).toEqual(host.root);
    if (core.answer === undefined) continue; // (the host's to decide)
    decided++;
    const a = core.answer;
    expect({ root: core.atRoot, category: a.category, exact: a.exact, allowed: latin1(a.allowedPath), disallowed: latin1(a.disallowedPath) }).toEqual(host);
  }
  return { decided, sets: seen.size };
}

/** GPTBot's category on a site of these lines (rfc), with the work it took: the sets the core decided and the rules
 * compared in JavaScript while it was found. */
function gptbotCategory(lines: readonly string[]) {
  const body = new TextEncoder().encode(lines.join('\n'));
  const site = new SiteRules(readRecords(body, 'rfc'), 'rfc', 'https://example.com/');
  try {
    ruleComparisons.count = 0;
    const before = coreDecided.sets;
    const set = site.of('GPTBot');
    const answer = set.category();
    return { body, answer, atRoot: set.atRoot(), coreSets: coreDecided.sets - before, comparisons: ruleComparisons.count };
  } finally {
    site.dispose();
  }
}

describe("the core's witnesses give the host's answer", () => {
  it('by hand: the early answers, a leading star, /robots.txt, an anchored rule, dot segments, escapes', () => {
    const files = [
      'User-agent: *\nAllow: /\n',
      'User-agent: *\nDisallow:\n',
      'User-agent: *\nDisallow: /\n',
      'User-agent: *\nDisallow: *\n',
      'User-agent: *\nDisallow: /\nAllow: /public/\n',
      'User-agent: *\nDisallow: /robots.txt\nDisallow: /*a$\n',
      'User-agent: *\nDisallow: *.pdf\nAllow: /\n',
      'User-agent: *\nDisallow: /$\n',
      'User-agent: *\nDisallow: /./x\nDisallow: /%7e/\nDisallow: /%2f%2F\nAllow: /%41\n',
      'User-agent: *\nDisallow: /a\u00e9/\nDisallow: #x\nDisallow: /b#c\n',
      'User-agent: GPTBot\nDisallow: /\nUser-agent: *\nAllow: /index.htm\nDisallow: /x/index.html\n',
    ];
    for (const text of files) for (const profile of PROFILES) expectSame(new TextEncoder().encode(text), profile);
  });

  it('random files of the corners', () => {
    const value = fc.array(fc.constantFrom('/', 'a', 'b', '*', '$', '%', '2', 'F', 'e', '.', '?', '#', '\u00e9', 'robots.txt', 'index.htm', '~'), { maxLength: 12 }).map((parts) => parts.join(''));
    const rule = fc.tuple(fc.constantFrom('Allow', 'Disallow'), value).map(([k, v]) => `${k}: ${v}`);
    const group = fc.tuple(fc.constantFrom('*', 'GPTBot', 'Googlebot'), fc.array(rule, { maxLength: 8 })).map(([a, rules]) => [`User-agent: ${a}`, ...rules].join('\n'));
    fc.assert(
      fc.property(fc.array(group, { minLength: 1, maxLength: 4 }), (groups) => {
        for (const profile of PROFILES) expectSame(new TextEncoder().encode(groups.join('\n')), profile);
      }),
      { seed: propertySeed(), numRuns: 400 },
    );
  });

  it('a set the core decides compares no rule in JavaScript', () => {
    const lines = ['User-agent: *'];
    for (let i = 0; i < 100; i++) lines.push(`Disallow: /${i}-private/`);
    const { answer, atRoot, coreSets, comparisons } = gptbotCategory(lines);
    expect(atRoot).toEqual({ allowed: true, line: 0 });
    expect(answer.category).toBe('part');
    expect(latin1(answer.disallowedPath)).toBe('/0-private/');
    expect(coreSets).toBe(1);
    // The host compared `/` and `/0-private/` with each of the 100 rules: 200.
    expect(comparisons).toBe(0);
  });

  it("allows before `/*/` disallows (as sophos.com's): the core's, its rules told apart by their octets", () => {
    const lines = ['User-agent: *'];
    for (let i = 0; i < 40; i++) lines.push(`Allow: /l${i}/medialibrary/sitemap.xml`);
    for (let i = 0; i < 400; i++) lines.push(`Disallow: /*/press-${i.toString(36)}/`);
    lines.push('Disallow: /private/');
    const { body, answer, coreSets, comparisons } = gptbotCategory(lines);
    expect(answer.category).toBe('part');
    expect(latin1(answer.disallowedPath)).toBe('//press-0/'); // (its literal octets: the star matching nothing)
    expect(coreSets).toBe(1);
    // The host's index compares the 81 candidates before it with the 400 rules starting "/": 32,000 and more.
    expect(comparisons).toBe(0);
    expectSame(body, 'rfc');
  });

  it("200 allows before the disallows (as christies.com's): the core's, 400 candidates compared with 210 rules", () => {
    const lines = ['User-agent: *'];
    for (let i = 0; i < 200; i++) lines.push(`Allow: /js/file-${i}.js`);
    for (const d of ['js', 'css', 'xml', 'login', 'test', 'mobile', 'live', 'search', 'my', 'cart']) lines.push(`Disallow: /${d}/`);
    const { body, answer, coreSets, comparisons } = gptbotCategory(lines);
    expect(answer.category).toBe('part');
    expect(latin1(answer.disallowedPath)).toBe('/js/');
    expect(coreSets).toBe(1);
    expect(comparisons).toBe(0);
    expectSame(body, 'rfc');
  });

  it("20,000 rules (as docs.oracle.com's, cut at 512,000 octets): the core's too", () => {
    const lines = ['User-agent: *'];
    for (let i = 0; i < 20_000; i++) lines.push(`Disallow: /javase/${i.toString(36)}/docs/api/index-files/`);
    const { answer, coreSets, comparisons } = gptbotCategory(lines);
    expect(answer.category).toBe('part');
    expect(latin1(answer.disallowedPath)).toBe('/javase/0/docs/api/index-files/');
    expect(coreSets).toBe(1);
    // The host compared `/` and the first rule's path with each of the 20,000 rules: 40,000.
    expect(comparisons).toBe(0);
  });

  it('thousands of allows before the first disallow: past its bound, the host decides (the same answer)', () => {
    const lines = ['User-agent: *'];
    for (let i = 0; i < 3000; i++) lines.push(`Allow: /${i.toString(36)}-assets/`);
    lines.push('Disallow: /private/');
    const body = new TextEncoder().encode(lines.join('\n'));
    const records = readRecords(body, 'rfc');
    const groups = records.groups;
    const core = coreCategory(body, groups, 'rfc');
    expect(core?.answer).toBeUndefined();
    expect(core?.atRoot).toEqual({ allowed: true, line: 0 });
    const site = new SiteRules(records, 'rfc', 'https://example.com/');
    try {
      expect(latin1(site.of('GPTBot').category().disallowedPath)).toBe('/private/');
    } finally {
      site.dispose();
    }
  });
});

describe.skipIf(!HAVE_SHARED)("the core's witnesses give the host's answer: every file of the corpus", () => {
  it('both profiles, several crawlers', { timeout: 900_000 }, () => {
    // (A generous bound: every set decided twice, on a machine shared with other test runs.)
    const dir = path.join(SHARED, 'corpus', 'robots');
    let decided = 0;
    let sets = 0;
    for (const name of readdirSync(dir).sort()) {
      const body = new Uint8Array(readFileSync(path.join(dir, name)));
      for (const profile of PROFILES) {
        const n = expectSame(body, profile);
        decided += n.decided;
        sets += n.sets;
      }
    }
    // Nearly every set is the core's (the rest: more rules than it takes, an index.htm allow under google, a walk).
    expect(decided / sets).toBeGreaterThan(0.97);
  });
});
