// robots audit's categories (all / none / part) against an independent
// reference: brute force over probe paths, each decided by the plain TypeScript
// reference matcher (src/engine/reference.ts). The probes: every path the rules
// mention (each rule's value, its `*` expanded to nothing, one octet and several),
// one octet shorter and longer, with `$`, its directories; `/`, `/robots.txt` and
// random paths;
// and the two paths the walk offers as proof (an allowed and a disallowed one),
// decided like any other probe. `all` iff every probe but /robots.txt is
// disallowed, `none` iff none is. On every file of the corpus (4,241), both
// profiles, several crawlers (some with groups of their own), and on random files
// with the property tests' corners (escapes, `$`, `*`, non-ASCII). On the corpus
// the probes are decided by the engine's compiled matcher (checkMany: the walk
// shares no code with it, and the property tests hold it to the reference), and
// on every 32nd file by the reference as well (the reference alone took
// minutes), files of all three categories in both profiles among them.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { comparedPath, referenceDecider } from '../../src/engine/reference.js';
import { parse, type RobotsTxt } from '../../src/index.js';
import { readRecords, type Group, type Records } from '../../src/engine/parse/records.js';
import { agentTokens, applicableGroups } from '../../src/engine/parse/agents.js';
import type { Profile } from '../../src/engine/parse/profile.js';
import { categoryOfRules, rulesOf, type Category } from '../../src/bulk/audit/rule-category.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';
import { propertySeed, seededRandom } from '../helpers/seed.js';

const CRAWLERS = ['Googlebot', 'Bingbot', 'Baiduspider', 'Yandex', 'GPTBot', 'CCBot', 'Mediapartners-Google', 'ia_archiver'];
const PROFILES: Profile[] = ['rfc', 'google'];
const EXPANSIONS = ['', 'a', 'xy/z.'];
/** Rules whose values make probes, at most (see probesOf). */
const MAX_PROBED = 40;
const TAILS = ['a', '/', '.', '?', '%2F', '%41', '*', 'index.html', 'é'];
/** Of the corpus's files, those decided by the reference too: every REFERENCE_EVERY-th. */
const REFERENCE_EVERY = 32;

const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');
/** One decoder for every rule's value (a decoder made per rule cost more than the probes it made). */
const UTF8 = new TextDecoder();

/** The probe paths of the groups' rules (as text). */
function probesOf(records: Records, groups: readonly Group[], random: () => number): string[] {
  const probes = new Set<string>(['/', '/robots.txt', '/robots.txt?', '/robots.tx', '/robots.txtx', '//', '/?', '/a', '/%2F']);
  // A few files have thousands of rules: their probes come from a random MAX_PROBED of them (the brute
  // force costs probes times rules), the walk's proof paths checked as for any file.
  let rules = groups.flatMap((g) => g.rules);
  if (rules.length > MAX_PROBED) rules = rules.filter(() => random() < MAX_PROBED / rules.length);
  for (const r of rules) {
    {
      const raw = UTF8.decode(records.body.subarray(r.start, r.end));
      const core = raw.endsWith('$') ? raw.slice(0, -1) : raw;
      for (const e of EXPANSIONS) {
        let x = core.split('*').join(e);
        if (!x.startsWith('/')) x = '/' + x;
        // The rule's path, one octet shorter, its directories, and one octet (or a few) longer; with `$`.
        // (One character shorter: a surrogate pair is one. A directory ends at a '/' past the first character and
        // before the last: cut by UTF-16 offset, which a '/' never splits, rather than through an array of characters.)
        const pair = x.length >= 2 && /[\uD800-\uDBFF][\uDC00-\uDFFF]$/.test(x);
        probes.add(x).add(x + '$').add(x.slice(0, x.length - (pair ? 2 : 1)));
        for (let j = x.indexOf('/', 1); j >= 0 && j < x.length - 1; j = x.indexOf('/', j + 1)) probes.add(x.slice(0, j + 1));
        for (const t of TAILS) probes.add(x + t);
      }
    }
  }
  const alphabet = Array.from('/ab.?=%2F*$-_~Z9é');
  for (let i = 0; i < 10; i++) {
    let p = '/';
    const n = Math.floor(random() * 12);
    for (let j = 0; j < n; j++) p += alphabet[Math.floor(random() * alphabet.length)];
    probes.add(p);
  }
  return [...probes];
}

interface Checked {
  category: Category;
  /** The probes alone (without the walk's two paths) gave the same category. */
  byProbesAlone: boolean;
}

const groupsOf = (records: Records, crawler: string, profile: Profile) => applicableGroups(records.groups, agentTokens(crawler, profile));

/** Decides probe paths: allowed, disallowed, or undefined for /robots.txt (aside from every category). */
type Decide = (paths: readonly string[]) => (boolean | undefined)[];

const urlOf = (p: string) => 'http://example.com' + p;
// (Only a path holding `obots` or an escape can compare as /robots.txt: the others skip the URL's reading.)
const isRobotsTxt = (p: string, profile: Profile) => /obots|%/i.test(p) && latin1(comparedPath(urlOf(p), profile)) === '/robots.txt';

/** The reference's verdicts: rule by rule, in TypeScript. */
function byReference(records: Records, crawler: string, profile: Profile): Decide {
  const decide = referenceDecider(records, crawler, profile);
  return (paths) => paths.map((p) => (isRobotsTxt(p, profile) ? undefined : decide(urlOf(p)).allowed));
}

/** The engine's verdicts: its compiled matcher (one for the probes and the walk's proofs), a batch at a time. */
function byEngine(robots: RobotsTxt, crawler: string, profile: Profile): { decide: Decide; dispose: () => void } {
  const m = robots.compile(crawler);
  return {
    decide: (paths) => {
      const out = m.checkMany(paths.map(urlOf));
      return paths.map((p, i) => (isRobotsTxt(p, profile) ? undefined : out[i] === 1));
    },
    dispose: () => m.dispose(),
  };
}

/** Checks one file and crawler: the walk's answer against the verdicts of the probes of its groups' rules. */
function check(records: Records, crawler: string, profile: Profile, random: () => number, decide: Decide = byReference(records, crawler, profile)): Checked {
  const groups = groupsOf(records, crawler, profile);
  const probes = probesOf(records, groups, random);
  const answer = categoryOfRules(rulesOf(records.body, groups, profile), profile);
  expect(answer.exact).toBe(true);
  const verdict = (p: string) => decide([p])[0];
  let allowed = false;
  let disallowed = false;
  for (const v of decide(probes)) {
    if (v === true) allowed = true;
    if (v === false) disallowed = true;
  }
  const byProbes = categoryOf(allowed, disallowed);
  // The walk's proofs, decided by the reference.
  for (const [witness, expected] of [[answer.allowedPath, true], [answer.disallowedPath, false]] as const) {
    if (witness === undefined) continue;
    const p = latin1(witness);
    if (/[^\x00-\x7f]/.test(p)) continue; // (a URL string carries only UTF-8; the walk prefers ASCII)
    expect(verdict(p), `${crawler} ${profile} witness ${JSON.stringify(p)}`).toBe(expected);
    if (expected) allowed = true;
    else disallowed = true;
  }
  const reference = categoryOf(allowed, disallowed);
  expect(answer.category, `${crawler} ${profile}`).toBe(reference);
  return { category: answer.category, byProbesAlone: byProbes === reference };
}

function categoryOf(allowed: boolean, disallowed: boolean): Category {
  return allowed && disallowed ? 'part' : disallowed ? 'all' : 'none';
}

describe('audit categories: small files, by hand', () => {
  const cases: [string, Category, Category][] = [
    // body, rfc, google
    ['User-agent: *\nDisallow: /', 'all', 'all'],
    ['User-agent: *\nDisallow:', 'none', 'none'],
    ['User-agent: *\nAllow: /\nDisallow: /', 'none', 'none'], // a tie: allow wins
    ['User-agent: *\nDisallow: /*', 'all', 'all'],
    ['User-agent: *\nDisallow: /$', 'part', 'part'],
    ['User-agent: *\nDisallow: /\nAllow: /$', 'part', 'part'],
    ['User-agent: *\nDisallow: /\nAllow: /robots.txt$', 'all', 'all'], // /robots.txt aside
    ['User-agent: *\nDisallow: /\nAllow: /robots.txt', 'part', 'part'], // /robots.txtx too
    ['User-agent: *\nDisallow: /*a$', 'part', 'part'],
    ['User-agent: *\nDisallow: /\nAllow: /*', 'none', 'none'], // '/*' is as long as '/' plus one: it wins everywhere
    ['User-agent: *\nDisallow: /\nAllow: /%7E', 'part', 'part'],
    ['User-agent: *\nDisallow: /%', 'part', 'part'],
    // Under rfc a path holds no "/./": a rule that needs one disallows nothing.
    ['User-agent: *\nDisallow: /./', 'none', 'part'],
    // Google's index.htm rule: the directory itself allowed.
    ['User-agent: *\nDisallow: /\nAllow: /index.html', 'part', 'part'],
    ['User-agent: *\nDisallow: /a\nDisallow: /', 'all', 'all'],
    ['User-agent: FooBot\nDisallow: /\n\nUser-agent: *\nDisallow: /x', 'part', 'part'],
    // The fast paths' corners: a rule matching every path, rules matching none, leading stars, allow-only files.
    ['User-agent: *\nDisallow: *', 'all', 'all'],
    ['User-agent: *\nDisallow: *$', 'all', 'all'],
    ['User-agent: *\nDisallow: /*$', 'all', 'all'],
    ['User-agent: *\nDisallow: $', 'none', 'none'],
    ['User-agent: *\nDisallow: uk/file-download/*', 'none', 'none'],
    ['User-agent: *\nDisallow: */account/', 'part', 'part'],
    ['User-agent: *\nDisallow: *.csi', 'part', 'part'],
    ['User-agent: *\nAllow: /a\nAllow: /', 'none', 'none'],
    ['User-agent: *\nDisallow: /\nAllow: *', 'none', 'none'],
    ['User-agent: *\nDisallow: /\nAllow: /a$', 'part', 'part'],
    ['User-agent: *\nDisallow: /\nAllow: /x/index.htm', 'part', 'part'],
    ['User-agent: *\nDisallow: /%41', 'part', 'part'],
    ['User-agent: *\nDisallow: /robots.txt', 'part', 'part'],
    ['User-agent: *\nDisallow: /robots.txt$', 'none', 'none'],
    ['User-agent: *\nDisallow:\nDisallow: /', 'all', 'all'],
  ];
  it.each(cases)('%j', (body, rfc, google) => {
    const random = seededRandom(1);
    for (const [profile, want] of [['rfc', rfc], ['google', google]] as const) {
      const records = readRecords(new TextEncoder().encode(body), profile);
      expect(check(records, 'Other', profile, random).category, profile).toBe(want);
    }
  });
});

describe.skipIf(!HAVE_SHARED)('audit categories: every file of the corpus, both profiles', () => {
  const dir = path.join(SHARED, 'corpus', 'robots');
  const files = HAVE_SHARED ? readdirSync(dir).sort() : [];

  // Hundreds of thousands of reference verdicts: minutes on a busy machine (a hang guard only).
  it('each site, each crawler: the walk agrees with the brute force', { timeout: 1_200_000 }, async () => {
    expect(files.length).toBe(4241);
    const random = seededRandom(propertySeed());
    const counts: Record<string, number> = {};
    const referenceCounts: Record<string, number> = {};
    let needed = 0;
    for (const [n, f] of files.entries()) {
      // (The event loop turns now and then: vitest's RPC with the worker must not wait minutes.)
      if (n % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      const body = readFileSync(path.join(dir, f)).subarray(0, 512_000);
      for (const profile of PROFILES) {
        const records = readRecords(body, profile);
        const robots = parse(body, { profile, maxOctets: Infinity });
        // Crawlers that the same groups apply to get the same answer (the audit computes it once): checked once.
        const byGroups = new Map<string, Category>();
        for (const crawler of CRAWLERS) {
          const key = groupsOf(records, crawler, profile).map((g) => records.groups.indexOf(g)).join(',');
          let category = byGroups.get(key);
          if (category === undefined) {
            const engine = byEngine(robots, crawler, profile);
            const r = check(records, crawler, profile, random, engine.decide);
            engine.dispose();
            if (n % REFERENCE_EVERY === 0) {
              expect(check(records, crawler, profile, seededRandom(n), byReference(records, crawler, profile)).category).toBe(r.category);
              referenceCounts[`${profile}:${r.category}`] = (referenceCounts[`${profile}:${r.category}`] ?? 0) + 1;
            }
            category = r.category;
            byGroups.set(key, category);
            if (!r.byProbesAlone) needed++;
          }
          counts[`${profile}:${category}`] = (counts[`${profile}:${category}`] ?? 0) + 1;
        }
        robots.dispose();
      }
    }
    // Every category occurs: the corpus holds all three, and so do the files the reference decides too.
    for (const profile of PROFILES) {
      for (const c of ['all', 'none', 'part']) {
        expect(counts[`${profile}:${c}`] ?? 0, `${profile}:${c}`).toBeGreaterThan(0);
        expect(referenceCounts[`${profile}:${c}`] ?? 0, `${profile}:${c} by the reference`).toBeGreaterThan(0);
      }
    }
    console.log(`[audit-category] corpus: ${JSON.stringify(counts)}, decided by the reference too: ${JSON.stringify(referenceCounts)}; the walk's proof paths were needed ${needed} times`);
  });
});

// Random files with the property tests' corners.
const piece = fc.constantFrom(
  '/', 'a', 'b', 'ab', '*', '$', '.', '?', '=', '%', '%41', '%61', '%2a', '%2A', '%24', '%2F', '%2f', '%7e', '%7E', '%00', '%20',
  'é', 'ツ', '%C3%A9', ' ', 'index.htm', 'index.html', '~', '-', 'A', '#', '//', '..', '/./', '/../', '%2e', '%2E%2e', '.%2e', 'robots.txt',
);
const pattern = fc.array(piece, { maxLength: 7 }).map((p) => p.join(''));
const rule = fc.record({ kind: fc.constantFrom('Allow', 'Disallow'), pattern });
const agentLine = fc.constantFrom('*', 'FooBot', 'foobot', 'BarBot', 'FOOBOT/2.1');
const group = fc.record({ agents: fc.array(agentLine, { minLength: 1, maxLength: 2 }), rules: fc.array(rule, { maxLength: 6 }) });
const robots = fc.array(group, { minLength: 1, maxLength: 3 }).map((groups) =>
  groups.map((g) => [...g.agents.map((a) => `User-agent: ${a}`), ...g.rules.map((r) => `${r.kind}: ${r.pattern}`)].join('\n')).join('\n'));

// Random files that reach the fast paths' corners (rule-category.ts): rules that match every path or none,
// leading stars, `$`, escapes, /robots.txt, empty values, allow-only groups, Google's index.htm rule.
const fastValue = fc.constantFrom(
  '', '/', '*', '/*', '*$', '/$', '$', '/*$', '*/a', '*.csi', '*a$', 'a/b', 'uk/*', '/a', '/a$', '/a/', '/%41', '/%61', '/A', '/%2F',
  '/robots.txt', '/robots.txt$', '/robots.tx', '/x/index.htm', '/index.html', '/a*b', '/a?', '/?*', '/é', '/%C3%A9',
);
const fastRules = fc.array(fc.record({ kind: fc.constantFrom('Allow', 'Disallow'), value: fastValue }), { maxLength: 5 });
const fastFiles = fc.array(fc.record({ agent: fc.constantFrom('*', 'FooBot'), rules: fastRules, allowOnly: fc.boolean() }), { minLength: 1, maxLength: 2 }).map((groups) =>
  groups.map((g) => [`User-agent: ${g.agent}`, ...g.rules.map((r) => `${g.allowOnly ? 'Allow' : r.kind}: ${r.value}`)].join('\n')).join('\n'));

describe('audit categories: random files at the fast paths\' corners', () => {
  it.each(PROFILES)('%s', { timeout: 600_000 }, (profile) => {
    const seen: Record<string, number> = {};
    fc.assert(
      fc.property(fastFiles, fc.constantFrom('FooBot', 'Nobody'), fc.integer(), (body, crawler, seed) => {
        const records = readRecords(new TextEncoder().encode(body), profile);
        const c = check(records, crawler, profile, seededRandom(seed)).category;
        seen[c] = (seen[c] ?? 0) + 1;
      }),
      { numRuns: 2000 },
    );
    for (const c of ['all', 'none', 'part']) expect(seen[c] ?? 0, c).toBeGreaterThan(20);
  });
});

describe('audit categories: random files', () => {
  it.each(PROFILES)('%s', { timeout: 600_000 }, (profile) => {
    fc.assert(
      fc.property(robots, fc.constantFrom('FooBot', 'BarBot', 'Nobody'), fc.integer(), (body, crawler, seed) => {
        const records = readRecords(new TextEncoder().encode(body), profile);
        check(records, crawler, profile, seededRandom(seed));
      }),
      { numRuns: 2000 },
    );
  });
});
