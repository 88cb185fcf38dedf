// Property tests: the WASM automaton against the plain TypeScript reference
// matcher (src/engine/reference.ts) on random rule sets and URLs, both profiles.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { comparedPath, compile, corePath, parse, pathParamsQuery, referenceVerdict, robotsInternals, type Matcher } from '../../src/internal.js';
import type { ModePolicy } from '../../src/engine/match/mode-policy.js';
import { compileRules } from '../../src/engine/compile/compile.js';
import { selectRules } from '../../src/engine/parse/rule-selection.js';
import { ruleListOf, ruleModeBlocks, starHeavyCounts } from '../../src/engine/compile/literal-heads.js';
import { coldEntriesAt, coldEntriesOf, ruleModeBlocksInHost, starHeavyRuleCounts } from '../helpers/host-references.js';
import { writeStarRules } from '../helpers/star-plan-reference.js';
import {
  G_BITS, G_ENTRIES, G_FILTERS, G_FIRST, G_SEEN, G_START, N_HEADER, N_TAILS, RE_ID, RE_FLAGS, RE_LENGTH, RE_SIZE, RE_TOKENS,
  HEADER_SIZE, RM_COUNT, RM_GRAMS, RM_HEADER, RM_INDEX, RM_OCTETS, RM_SIGNATURES, RM_URLS, RM_WORK,
} from '../../src/engine/wasm/layout.js';
import { core, coreAllocatedBytes } from '../../src/engine/wasm/core.js';
import { referenceDecider } from '../../src/engine/reference.js';
import { readRecords } from '../../src/engine/parse/records.js';

// Pieces chosen to collide: wildcards, anchors, escapes of reserved and
// unreserved octets in both cases, non-ASCII, Google's index.htm rule, dot
// segments raw and escaped (rfc removes them from URLs, not from patterns).
const piece = fc.constantFrom(
  '/', 'a', 'b', 'ab', '*', '$', '.', '?', '=', '&', ';', '%', '%41', '%61', '%2a', '%2A', '%24', '%2F', '%2f', '%7e', '%7E', '%00', '%20',
  'é', 'ツ', '%C3%A9', ' ', '\t', 'index.htm', 'index.html', '~', '-', 'A', '#', ':', '//',
  '..', '/./', '/../', '%2e', '%2E%2e', '.%2e',
);
const pattern = fc.array(piece, { maxLength: 8 }).map((p) => p.join(''));
const rule = fc.record({ kind: fc.constantFrom('Allow', 'Disallow'), pattern });
// User-agent values as files write them: names in any case, with a version
// after the product token, `*` alone or with more, `*` glued to a name.
const agentLine = fc.constantFrom('*', 'FooBot', 'foobot', 'BarBot', 'Other', '* x', 'FOOBOT/2.1', 'FooBot Bar', '*bot', 'Foo_Bot', '');
// Lines that belong to no group's rules, anywhere: they must not start, end or join groups.
const otherLine = fc.constantFrom('Sitemap: http://example.com/s.xml', 'Crawl-delay: 1', '# comment', 'junk line', 'Foo: bar', 'Disallow: /x', '');
const group = fc.record({
  agents: fc.array(agentLine, { minLength: 1, maxLength: 2 }),
  rules: fc.array(rule, { maxLength: 6 }),
  other: fc.option(fc.tuple(otherLine, fc.nat(8)), { freq: 3 }),
});
const robots = fc.tuple(fc.option(otherLine, { freq: 3 }), fc.array(group, { minLength: 1, maxLength: 3 })).map(([prelude, groups]) =>
  (prelude === null ? '' : prelude + '\n') +
  groups
    .map((g) => {
      const lines = [...g.agents.map((a) => `User-agent: ${a}`), ...g.rules.map((r) => `${r.kind}: ${r.pattern}`)];
      if (g.other !== null) lines.splice(g.other[1] % (lines.length + 1), 0, g.other[0]);
      return lines.join('\n');
    })
    .join('\n'),
);
const url = fc.oneof(
  fc.array(piece, { maxLength: 10 }).map((p) => 'http://example.com/' + p.join('')),
  fc.array(piece, { maxLength: 10 }).map((p) => p.join('')),
  fc.string({ maxLength: 30, unit: 'binary' }),
  fc.constantFrom('http://example.com/robots.txt', 'http://example.com/%72obots.txt', '/robots.txt?x', 'http://x/a\u0000b', 'a:?//b/c', 'x:;/y'),
);
const agent = fc.constantFrom<string | string[]>('FooBot', 'BarBot', 'Nobody', ['FooBot', 'BarBot']);

// Rule sets whose patterns share prefixes, as the trie NFA shares nodes: common
// stems, stars at the same places, one pattern as both allow and disallow, and
// `$` and non-`$` twins; URLs over the same few octets, some long.
const stem = fc.constantFrom('', '/', '/a', '/a/', '/*', '/a*', '/*a', '/*a*', '/ab*', '/a*b*', '/*/', '/*b*a');
const tailPiece = fc.constantFrom('a', 'b', '/', '*', 'ab', '*a', 'b*', 'ba', '%61', '?');
const sharedRule = fc.record({
  pattern: fc.tuple(stem, fc.array(tailPiece, { maxLength: 5 }), fc.boolean()).map(([s, t, end]) => s + t.join('') + (end ? '$' : '')),
  kind: fc.constantFrom('Allow', 'Disallow'),
  twin: fc.constantFrom('none', 'none', 'kind', 'anchor', 'both'),
});
const sharedRobots = fc.array(sharedRule, { minLength: 1, maxLength: 40 }).map((rules) =>
  'User-agent: *\n' +
  rules
    .flatMap((r) => {
      const lines = [`${r.kind}: ${r.pattern}`];
      const other = r.kind === 'Allow' ? 'Disallow' : 'Allow';
      const twin = r.pattern.endsWith('$') ? r.pattern.slice(0, -1) : r.pattern + '$';
      if (r.twin === 'kind' || r.twin === 'both') lines.push(`${other}: ${r.pattern}`);
      if (r.twin === 'anchor' || r.twin === 'both') lines.push(`${r.kind}: ${twin}`);
      return lines;
    })
    .join('\n'),
);
const sharedUrl = fc.oneof(
  fc.array(fc.constantFrom('a', 'b', '/', 'ab', 'ba', '//', 'a?', '%61'), { maxLength: 12 }).map((p) => 'http://example.com/' + p.join('')),
  fc.array(fc.constantFrom('a', 'b', '/', 'ab', 'ba'), { minLength: 20, maxLength: 120 }).map((p) => '/' + p.join('')),
);

// Rule sets for rule mode's gram index (assembly/compile/star-plan.ts): `*` rules whose
// segments past a shared head have 4-octet grams (`/*/abca/*/bcab`), mixed with literal ones,
// and URLs over the same words, so that grams are met, filters pass and verifications fail.
const word = fc.constantFrom('abca', 'bcab', 'cabc', 'abcab', 'ab', 'ca', '.pdf', '?q=', '%41bc');
const gramRule = fc.record({
  kind: fc.constantFrom('Allow', 'Disallow'),
  pattern: fc.tuple(fc.constantFrom('', '/', '/*', '/*/', '/ab', '/abca/', '*'), fc.array(fc.oneof(word, fc.constantFrom('*', '/', '*/')), { maxLength: 6 }), fc.boolean())
    .map(([head, rest, end]) => head + rest.join('') + (end ? '$' : '')),
});
const gramRobots = fc.array(gramRule, { minLength: 1, maxLength: 40 }).map((rules) => 'User-agent: *\n' + rules.map((r) => `${r.kind}: ${r.pattern}`).join('\n'));
// Allows that Google's index.htm rule gives a companion (`/dir/$`), or nearly: the last segment
// or an earlier one, escaped, glued, with `*`, `$` and non-ASCII before it.
const indexHtmRobots = fc
  .array(fc.tuple(fc.constantFrom('Allow', 'Disallow'), fc.array(fc.constantFrom('/', 'a', '*', '$', '%61', 'é', '/index.htm', '/index.html', 'index.htm', '/Index.htm', '/index.ht', '%2F'), { maxLength: 6 })), { minLength: 1, maxLength: 12 })
  .map((rules) => 'User-agent: *\n' + rules.map(([kind, p]) => `${kind}: ${p.join('')}`).join('\n'));
const gramUrl = fc.array(fc.oneof(word, fc.constantFrom('/', '/', 'b', 'abc')), { maxLength: 14 }).map((p) => 'http://example.com/' + p.join(''));

/** Random cases of each agree() call: the default policy's. */
const RUNS = 1500;
/** Random cases of each agree() call under another policy (withPolicy): the same files, URLs and corners, each policy
 * met with each profile, cap and kind of file, and a new seed each run; those calls are most of this suite (over a
 * hundred of them), which at the default's count held a test worker over a minute on a loaded machine. */
const POLICY_RUNS = 500;
/** The mode policy the matchers of agree() and withPolicy()'s other compiles take (MatcherOptions' internal modePolicy). */
let policy: Partial<ModePolicy> | undefined;
let runs = RUNS;
function withPolicy(changes: Partial<ModePolicy>, run: () => void): void {
  const saved = [policy, runs] as const;
  policy = changes;
  runs = POLICY_RUNS;
  try {
    run();
  } finally {
    [policy, runs] = saved;
  }
}

/** referenceVerdict(body, url, agent, profile) for any url: the file read once, not once a URL. */
function referenceFor(body: string, agent: string | readonly string[], profile: 'rfc' | 'google') {
  return referenceDecider(readRecords(new TextEncoder().encode(body), profile), agent, profile);
}

/** Whether two octet arrays (of one kind) hold the same octets: the cheap test before expect().toEqual. */
function sameOctets(a: Uint8Array, b: Uint8Array): boolean {
  if (a.constructor !== b.constructor || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// The checks of agree() and the other properties run millions of times: each calls expect() only when its values
// differ (expect() then fails, saying how), since expect() itself costs more than the matcher it checks.
function agree(profile: 'rfc' | 'google', maxDfaBytes?: number, files = robots, urlArb = url) {
  fc.assert(
    fc.property(files, fc.array(urlArb, { minLength: 1, maxLength: 8 }), agent, fc.constantFrom('lexer', 'records', 'compile()'), (file, urls, ag, via) => {
      // RobotsTxt.compile() selects its rules from the lexer's records, or from the records once something read them
      // (here a cache's weighing, which keeps of a long file only what its rules point into); the package's
      // compile() from the octets alone, read during the call only (the caller's buffer blanked after it). It takes
      // no mode policy: under one, the file's compile() stands in.
      const body = via === 'records' ? file + '\n#' + 'x'.repeat(4096) : file;
      let m: Matcher;
      if (via === 'compile()' && policy === undefined) {
        const octets = new TextEncoder().encode(body);
        m = compile(octets, ag, { profile, maxDfaBytes });
        octets.fill(0x20);
      } else {
        const r = parse(body, { profile });
        if (via === 'records') void robotsInternals(r).heldBytes;
        m = r.compile(ag, { maxDfaBytes, modePolicy: policy });
      }
      try {
        const batch = m.checkMany(urls);
        const reference = referenceFor(body, ag, profile);
        urls.forEach((u, i) => {
          const ref = reference(u);
          const got = m.explain(u);
          if (got.allowed !== ref.allowed || got.line !== ref.line) expect({ allowed: got.allowed, line: got.line }).toEqual({ allowed: ref.allowed, line: ref.line });
          if (batch[i] !== (ref.allowed ? 1 : 0)) expect(batch[i]).toBe(ref.allowed ? 1 : 0);
        });
        // What checkMany touches first (assembly/match/touch.ts): the rows of the states, within the table, whatever
        // grew, widened, was cleared or turned to rule mode on the way.
        const rows = (m as unknown as { dfa: { rowsInUse: { header: number; states: number; table: number } } }).dfa.rowsInUse;
        if (rows.header !== rows.states) expect(rows.header).toBe(rows.states);
        if (rows.header > rows.table) expect(rows.header).toBeLessThanOrEqual(rows.table);
      } finally {
        m.dispose();
      }
    }),
    { numRuns: runs },
  );
}

// Each test here runs thousands of random cases against the reference (a few seconds alone; up to 47 s with two
// CPU hogs beside other suites on 2 cores): a 120 s guard against a hang, which no load reaches.
describe('WASM automaton agrees with the reference matcher', { timeout: 120_000 }, () => {
  it('profile google', () => agree('google'));
  it('profile rfc', () => agree('rfc'));
  it('rfc: an escaped * or $ is a literal that weighs its three octets', () => {
    // Disallow /x%2A (5 octets: a literal '*') outranks Allow /x*z (4); read as
    // one octet it would not. The same for %24 against a `$` anchor.
    for (const [body, url] of [
      ['User-agent: *\nDisallow: /x%2A\nAllow: /x*z\n', 'http://example.com/x*yz'],
      ['User-agent: *\nDisallow: /x%24\nAllow: /x*z\n', 'http://example.com/x$yz'],
    ]) {
      const m = parse(body, { profile: 'rfc' }).compile('FooBot');
      const ref = referenceVerdict(new TextEncoder().encode(body), url, 'FooBot', 'rfc');
      expect(ref.allowed).toBe(false);
      expect({ allowed: m.isAllowed(url), line: m.explain(url).line }).toEqual({ allowed: false, line: 2 });
    }
  });
  it('on files the compiler tokenizes in several chunks: thousands of rules, and rules longer than a chunk', () => {
    // The core tokenizes at most 2,048 rules and 16,384 tokens per call.
    const long = (c: string) => '/' + c.repeat(9000);
    for (const profile of ['google', 'rfc'] as const) {
      const lines = ['User-agent: *'];
      for (let i = 0; i < 5000; i++) lines.push(`${i % 3 ? 'Disallow' : 'Allow'}: /p${i}/%7e*é$`);
      lines.push(`Disallow: ${long('a')}`, `Allow: ${long('a')}b`, 'Disallow: /*q%41');
      const body = lines.join('\n');
      const m = parse(body, { profile }).compile('FooBot');
      const urls = ['/p1/~x', '/p4999/%7Ex%C3%A9', '/p2/%7e/é', '/p3000/~', long('a'), long('a') + 'b', long('a') + 'c', '/xqA', '/xq%41'];
      const reference = referenceFor(body, 'FooBot', profile);
      for (const u of urls) {
        const ref = reference(u);
        expect({ allowed: m.isAllowed(u), line: m.explain(u).line }, `${profile} ${u.slice(0, 40)}`).toEqual({ allowed: ref.allowed, line: ref.line });
      }
    }
  });
  it('with a tiny memory cap (tables cleared on every new state)', () => {
    agree('google', 1);
    agree('rfc', 1);
  });
  it('on long paths, escapes anywhere in them (both profiles)', () => {
    const longUrl = fc.array(piece, { minLength: 20, maxLength: 48 }).map((p) => 'http://example.com/' + p.join(''));
    agree('rfc', undefined, robots, longUrl);
    agree('rfc', 1, robots, longUrl);
    agree('google', undefined, robots, longUrl);
    // A literal rule that stops the walk must meet the decoded octet, wherever the escape is.
    for (let at = 40; at < 60; at++) {
      const stem = '/' + 'a'.repeat(at - 1);
      const m = parse(`User-agent: *\nDisallow: ${stem}A\n`).compile('FooBot');
      expect(m.isAllowed(`http://x${stem}%41${'b'.repeat(40)}`)).toBe(false);
      expect(m.isAllowed(`http://x${stem}%42${'b'.repeat(40)}`)).toBe(true);
      m.dispose();
    }
  });
  it('on long rules (tokenized 16 octets at a time), their escapes, stars and non-ASCII at every place, and URLs made from them', () => {
    const run = fc.stringMatching(/^[a-z0-9/._~-]{0,40}$/);
    const longPattern = fc.array(fc.tuple(run, piece), { minLength: 1, maxLength: 4 }).map((p) => '/' + p.flat().join(''));
    const longRules = fc.array(fc.record({ kind: fc.constantFrom('Allow', 'Disallow'), pattern: longPattern }), { minLength: 1, maxLength: 6 });
    for (const profile of ['google', 'rfc'] as const) {
      fc.assert(
        fc.property(longRules, fc.nat(), fc.constantFrom('', 'x', '/', '%41', 'é'), (rules, pick, tail) => {
          const body = 'User-agent: *\n' + rules.map((r) => `${r.kind}: ${r.pattern}`).join('\n');
          // A URL each rule matches as written ('*' as one octet), cut short, and with more after it.
          const from = rules[pick % rules.length].pattern.replace(/\*/g, 'q').replace(/\$$/, '');
          const urls = [from, from.slice(0, -1), from + tail, from.slice(0, from.length >> 1)];
          const reference = referenceFor(body, 'FooBot', profile);
          // Cold (octet tokens in a rule list) and hot from the start (u16 tokens for the automaton).
          for (const coldOctets of [undefined, 0]) {
            const m = parse(body, { profile }).compile('FooBot', { coldOctets });
            try {
              for (const u of urls) {
                const ref = reference(u);
                const got = m.explain(u);
                if (got.allowed !== ref.allowed || got.line !== ref.line) expect({ allowed: got.allowed, line: got.line }, `${profile} ${u}`).toEqual({ allowed: ref.allowed, line: ref.line });
              }
            } finally {
              m.dispose();
            }
          }
        }),
        { numRuns: 1500 },
      );
    }
  });
  it('on rules that share prefixes, stars and patterns (both profiles, with and without a cap)', () => {
    agree('google', undefined, sharedRobots, sharedUrl);
    agree('rfc', undefined, sharedRobots, sharedUrl);
    agree('google', 1, sharedRobots, sharedUrl);
  });
  it('with u32 entries, the matcher widened in the middle of its first walk', () => {
    // The first state built after the start state widens.
    withPolicy({ narrowRowsLimit: 1 }, () => {
      agree('google');
      agree('rfc', 1);
      agree('google', undefined, sharedRobots, sharedUrl);
    });
  });
});

describe('cold walk (rule by rule from a list), hot walk (the DFA), and the switch between them', { timeout: 120_000 }, () => {
  // A matcher walks its first coldOctets octets of paths cold (the policy's unless MatcherOptions say), then its DFA.
  const withCold = (octets: number, run: () => void) => withPolicy({ coldOctets: octets, coldUntil: 'octets' }, run);
  for (const [label, octets] of [['always hot', 0], ['always cold', 2 ** 31], ['switching within a case', 23]] as const) {
    it(`${label}: both profiles, with and without a tiny cap, shared prefixes and stars, long paths`, () => {
      withCold(octets, () => {
        for (const profile of ['google', 'rfc'] as const) {
          agree(profile);
          agree(profile, 1);
          agree(profile, undefined, sharedRobots, sharedUrl);
        }
        agree('google', undefined, robots, fc.array(piece, { minLength: 20, maxLength: 48 }).map((p) => 'http://example.com/' + p.join('')));
      });
    });
    // Hot walks that turn to rule mode at the first clearing (a tiny cap), every crowded list's rules in the gram index.
    it(`${label}, then rule mode with its gram index: both profiles, tiny caps, rules that share heads and grams`, () => {
      withPolicy({ coldOctets: octets, coldUntil: 'octets', ruleMode: 'reset', tailRulesMax: 0 }, () => {
        for (const profile of ['google', 'rfc'] as const) {
          agree(profile, 1, gramRobots, gramUrl);
          agree(profile, 1);
        }
      });
    });
  }
  // The cold list indexed by its rules' literal heads (assembly/match/cold-index.ts) after the first review,
  // and the cost model's reviews with tiny knobs: indexed then hot within a case, or hot straight away.
  const tiny = { indexRules: 1, indexUnits: 0, reviewUnits: 1 };
  for (const [label, changes] of [
    ['always cold, indexed after the first URL', { ...tiny, coldOctets: 2 ** 31, coldUntil: 'octets' }],
    ['by cost, indexed then hot within a case', { ...tiny, coldUntil: 'cost', hotBase: 40, hotUnits: 0, hotUrlUnits: 0 }],
    ['by cost, hot at the first review', { coldUntil: 'cost', indexRules: 2 ** 31, hotBase: 0, hotUnits: 0, hotUrlUnits: 0, reviewUnits: 1 }],
  ] as const) {
    it(`${label}: both profiles, with and without a tiny cap, shared prefixes and stars, long paths`, () => {
      withPolicy(changes, () => {
        for (const profile of ['google', 'rfc'] as const) {
          agree(profile);
          agree(profile, 1);
          agree(profile, undefined, sharedRobots, sharedUrl);
        }
        agree('google', undefined, robots, fc.array(piece, { minLength: 20, maxLength: 48 }).map((p) => 'http://example.com/' + p.join('')));
      });
    });
  }
  it('by cost, an indexed cold matcher stays cold while its walks are cheap, and turns hot when they are not (unless its rules are mostly `*` rules)', () => {
    const body = 'User-agent: *\n' + Array.from({ length: 60 }, (_, i) => `Disallow: /p${i}/*x*z\nAllow: /p${i}/y$`).join('\n') + '\nDisallow: /*.pdf$\n';
    const ref = referenceFor(body, 'FooBot', 'google');
    const urls = Array.from({ length: 400 }, (_, i) => `/p${i % 70}/${i % 3 === 0 ? 'y' : 'zx'}${i % 5 === 0 ? '.pdf' : ''}`);
    for (const [hotUrlUnits, starShare, mode] of [[1000, 0, 'cold'], [0, 0, 'hot'], [0, 8, 'cold']] as const) {
      const m = parse(body, { profile: 'google' }).compile('FooBot', { modePolicy: { indexRules: 8, indexUnits: 4, hotBase: 2000, hotUnits: 0, hotUrlUnits, starShare, starHeavyMin: 1, reviewUnits: 64 } });
      for (const u of urls) expect({ u, allowed: m.isAllowed(u), line: m.explain(u).line }).toEqual({ u, allowed: ref(u).allowed, line: ref(u).line });
      expect(m.stats.mode, `hotUrlUnits ${hotUrlUnits}, starShare ${starShare}`).toBe(mode);
      m.dispose();
    }
  });
  it('a cold matcher builds no DFA state; past its cold octets the DFA takes over', () => {
    withCold(64, () => {
      const m = parse('User-agent: *\nDisallow: /a*b\nAllow: /a/c$\n').compile('FooBot', { modePolicy: policy });
      expect(m.isAllowed('/a/x/b')).toBe(false);
      expect(m.stats.states).toBe(0); // nothing of the DFA built yet
      for (let i = 0; i < 20; i++) m.isAllowed(`/a/${i}/b`);
      expect(m.stats.states).toBeGreaterThan(0);
      expect(m.isAllowed('/a/c')).toBe(true);
      m.dispose();
    });
  });
});

describe('rule mode (the automaton thrashed): the trie of literal heads, its nodes\' `*` rules and the gram index', { timeout: 120_000 }, () => {
  // With a tiny cap the tables are cleared on the first new state; the 'reset'
  // policy turns the matcher to rule mode there, in the middle of its first walk.
  const inRuleMode = (run: () => void) => withPolicy({ ruleMode: 'reset', coldOctets: 0 }, run);
  it('both profiles: random files, shared prefixes and stars, long paths', () => {
    inRuleMode(() => {
      for (const profile of ['google', 'rfc'] as const) {
        agree(profile, 1);
        agree(profile, 1, sharedRobots, sharedUrl);
        agree(profile, 1, robots, fc.array(piece, { minLength: 20, maxLength: 48 }).map((p) => 'http://example.com/' + p.join('')));
      }
    });
  });
  // A node's list longer than tailRulesMax gives its rules that have a 4-octet gram to the gram index:
  // 0 sends every such rule there, 2 keeps short lists (both kinds of lists on one path).
  for (const tailRulesMax of [0, 2]) {
    it(`both profiles, the gram index (lists over ${tailRulesMax} rules): rules that share heads and grams, long paths`, () => {
      withPolicy({ ruleMode: 'reset', coldOctets: 0, tailRulesMax }, () => {
        for (const profile of ['google', 'rfc'] as const) {
          agree(profile, 1, gramRobots, gramUrl);
          agree(profile, 1, gramRobots, fc.array(word, { minLength: 20, maxLength: 60 }).map((p) => '/' + p.join('/')));
          agree(profile, 1, sharedRobots, sharedUrl);
          agree(profile, 1);
        }
      });
    });
  }
  // A hot matcher that the cost model turns to rule mode (mode-policy.ts rulesPayOff): the core makes its blocks
  // from the trie's rules written back as a list (src/engine/compile/trie-rule-list.ts), first to weigh the cost.
  it('by cost from the automaton: the core plans the trie\'s rules (margin 0: at the first check), both profiles', () => {
    withPolicy({ ruleMode: 'cost', coldOctets: 0, starHeavyMin: Infinity, firstCostCheck: 1, ruleModeMargin: 0, tailRulesMax: 2 }, () => {
      for (const profile of ['google', 'rfc'] as const) {
        agree(profile, 1, gramRobots, gramUrl);
        agree(profile, undefined, sharedRobots, sharedUrl);
        agree(profile);
      }
    });
  });
  it('by cost from the automaton, never paying: the blocks made to weigh it are freed (the core holds what it held)', () => {
    withPolicy({ ruleMode: 'cost', coldOctets: 0, starHeavyMin: Infinity, firstCostCheck: 1, ruleModeMargin: Infinity }, () => {
      fc.assert(
        fc.property(fc.oneof(gramRobots, sharedRobots), fc.array(gramUrl, { minLength: 1, maxLength: 8 }), (file, urls) => {
          const r = parse(file, { profile: 'google' });
          r.compile('foobot', { modePolicy: policy }).dispose(); // (whatever the file keeps once a matcher is made)
          const held = coreAllocatedBytes();
          const m = r.compile('foobot', { modePolicy: policy });
          m.checkMany(urls);
          expect(m.stats.mode).toBe('hot');
          m.dispose();
          expect(coreAllocatedBytes()).toBe(held);
        }),
        { numRuns: 300 },
      );
    });
  });
  // A matcher whose automaton would thrash takes rule mode on turning hot, made from its rules without the
  // trie (src/engine/compile/literal-heads.ts): every matcher so here (no share of `*` rules needed), hot
  // from the start (the table's tokens) or after a few cold octets (the cold list's), lists in the gram index or not.
  for (const [label, changes] of [
    ['hot from the start', { coldOctets: 0 }],
    ['after 40 cold octets', { coldOctets: 40, coldUntil: 'octets', indexRules: 1, indexUnits: 0, reviewUnits: 1 }],
  ] as const) {
    for (const tailRulesMax of [0, 2, 16]) {
      it(`made at once from the rules, ${label}, lists over ${tailRulesMax} rules to the gram index: both profiles`, () => {
        withPolicy({ ...changes, starHeavyMin: 0, starShare: Infinity, tailRulesMax }, () => {
          for (const profile of ['google', 'rfc'] as const) {
            agree(profile);
            agree(profile, undefined, sharedRobots, sharedUrl);
            agree(profile, undefined, gramRobots, gramUrl);
            agree(profile, 1, gramRobots, fc.array(word, { minLength: 20, maxLength: 60 }).map((p) => '/' + p.join('/')));
          }
        });
      });
    }
  }
  it('a cold list compiled in the core (assembly/compile/cold-list.ts) gives each rule (Google\'s index.htm companions too) the id, flags, signature and tokens that compile.ts\'s own ranking gives it, and holds only the tokens that are not its value\'s first octets', () => {
    const c = core();
    let shared = 0;
    let own = 0;
    let companions = 0;
    fc.assert(
      fc.property(fc.oneof(gramRobots, sharedRobots, robots, indexHtmRobots), fc.constantFrom('google', 'rfc') as fc.Arbitrary<'google' | 'rfc'>, (file, profile) => {
        const body = new TextEncoder().encode(file);
        const selected = selectRules(body, ['foobot'], profile);
        const inCore = compileRules(body, selected, profile, true);
        const hot = compileRules(body, selectRules(body, ['foobot'], profile), profile, false); // (compile.ts's own path)
        companions += hot.count - selected;
        expect(coldEntriesAt(c, inCore.cold!.block)).toEqual(coldEntriesOf(hot));
        // Its own tokens are those the list's block holds; the others are in the matcher's block (its values).
        const w = (at: number) => c.u32[at >>> 2];
        const list = inCore.cold!.block;
        const values = inCore.block + HEADER_SIZE + 8 * inCore.count;
        let held = 0;
        for (let id = 0; id < inCore.count; id++) {
          const x = list + RM_HEADER + id * RE_SIZE;
          const t = w(x + RE_TOKENS);
          if (t >= values && t < values + inCore.valueOctets + 1) shared++;
          else {
            expect(t).toBeGreaterThanOrEqual(list + RM_HEADER + (RE_SIZE + 4) * inCore.count);
            held += w(x + RE_LENGTH);
            own++;
          }
        }
        expect(w(list + RM_OCTETS)).toBe(held);
        c.free(inCore.cold!.block);
        c.free(inCore.block);
        c.free(hot.block);
      }),
      { numRuns: 400 },
    );
    expect(shared).toBeGreaterThan(0);
    expect(own).toBeGreaterThan(0); // (escapes and `**` keep their own)
    expect(companions).toBeGreaterThan(0);
  });
  it('a cold matcher of a Google index.htm allow is compiled in the core: its list shares the tokens that are their values\' first octets', () => {
    const body = new TextEncoder().encode('User-agent: *\nAllow: /dir/index.html\nDisallow: /\n');
    const table = compileRules(body, selectRules(body, ['foobot'], 'google'), 'google', true);
    expect(table.count).toBe(3); // (the allow, its companion /dir/$, the disallow)
    expect(core().u32[(table.cold!.block + RM_OCTETS) >>> 2]).toBe(0);
    core().free(table.cold!.block);
    core().free(table.block);
  });
  it('the core counts a cold list\'s `*`-heavy rules (with and without grams) as the host did', () => {
    fc.assert(
      fc.property(fc.oneof(gramRobots, sharedRobots, robots), (file) => {
        const body = new TextEncoder().encode(file);
        const table = compileRules(body, selectRules(body, ['foobot'], 'google'), 'google', true);
        if (table.cold === null) return;
        expect(starHeavyCounts(core(), table.cold.block, table.count)).toEqual(starHeavyRuleCounts(core(), table.cold, table.count));
      }),
      { numRuns: 300 },
    );
  });
  it('the core plans and writes rule mode\'s `*` rules (assembly/compile/star-plan.ts) as the host did (star-plan-reference.ts planOf), octet for octet', () => {
    const c = core();
    /** The star block's fields, its pointers from its start (the padding before the filters left out). */
    const starBlock = (block: number) => {
      const u32 = c.u32;
      const w = (at: number) => u32[at >>> 2];
      const count = w(block + RM_COUNT);
      const entries = Array.from({ length: count }, (_, e) => {
        const x = block + RM_HEADER + e * RE_SIZE;
        const tokens = w(x + RE_TOKENS);
        return [w(x + RE_ID), w(x + RE_FLAGS), tokens - block, w(x + RE_LENGTH), [...c.u8.subarray(tokens, tokens + w(x + RE_LENGTH))].join(',')];
      });
      const signatures = Array.from({ length: count }, (_, e) => w(w(block + RM_SIGNATURES) + 4 * e));
      const header = [w(block + 4), w(block + RM_INDEX), w(block + RM_WORK), w(block + RM_URLS), w(block + 28)];
      const g = w(block + RM_GRAMS);
      if (g === 0) return { count, entries, signatures, header };
      const bits = w(g + G_BITS);
      const rules = count - w(g + G_FIRST);
      const items = w(w(g + G_START) + 4 * (1 << bits));
      const grams = {
        at: g - block, bits, first: w(g + G_FIRST), pointers: [G_START, G_ENTRIES, G_SEEN, G_FILTERS].map((f) => w(g + f) - block),
        start: Array.from({ length: (1 << bits) + 1 }, (_, b) => w(w(g + G_START) + 4 * b)),
        seen: Array.from({ length: Math.ceil(rules / 32) }, (_, k) => w(w(g + G_SEEN) + 4 * k)),
        filters: Array.from({ length: 2 * rules }, (_, k) => w(w(g + G_FILTERS) + 4 * k)),
        entries: Array.from({ length: 2 * items }, (_, k) => w(w(g + G_ENTRIES) + 4 * k)),
      };
      return { count, entries, signatures, header, grams };
    };
    let withGrams = 0;
    let withStars = 0;
    fc.assert(
      fc.property(fc.oneof(gramRobots, sharedRobots, robots), fc.constantFrom(0, 2, 16), (file, tailRulesMax) => {
        const body = new TextEncoder().encode(file);
        const table = compileRules(body, selectRules(body, ['foobot'], 'google'), 'google', false);
        const list = ruleListOf(c, table);
        const host = ruleModeBlocksInHost(c, list, table.count, tailRulesMax);
        const hostStar = writeStarRules(c, host.plan);
        const inCore = ruleModeBlocks(c, list, table.count, tailRulesMax);
        const coreStar = inCore.star;
        expect(inCore.tried).toBe(host.plan.tried);
        expect(coreStar.octets).toBe(hostStar.octets);
        const got = starBlock(coreStar.block);
        expect(got).toEqual(starBlock(hostStar.block));
        if ('grams' in got) withGrams++;
        if (got.count > 0) withStars++;
        // The literal tries alike, their tails (the lists' places) too.
        expect(inCore.literal.octets).toBe(host.literal.octets);
        const bytes = (b: { block: number; octets: number }) => [...c.u8.subarray(b.block + N_HEADER, b.block + b.octets)].join(',');
        expect(c.u32[(inCore.literal.block + N_TAILS) >>> 2] === 0).toBe(c.u32[(host.literal.block + N_TAILS) >>> 2] === 0);
        expect(bytes(inCore.literal)).toBe(bytes(host.literal));
        for (const b of [hostStar.block, coreStar.block, host.literal.block, inCore.literal.block, list]) c.free(b);
      }),
      { numRuns: 300 },
    );
    expect(withGrams).toBeGreaterThan(30); // (the gram index made in many cases, lists in more)
    expect(withStars).toBeGreaterThan(withGrams);
  });
  it('made at once from the rules: thousands of heads that share long prefixes, are prefixes of one another, or hold %00 (the core\'s radix sort past its insertion sort)', () => {
    withPolicy({ coldOctets: 0, starHeavyMin: 0, starShare: Infinity, tailRulesMax: 4 }, () => {
      const stems = ['/', '/a', '/aaaaaaaaaaaaaaaaaaaa', '/aaaaaaaaaaaaaaaaaaaab', '/x%00', '/x%00%00', '/x', '/shared/prefix/longer/than/eight/'];
      const lines = ['User-agent: *'];
      for (let i = 0; i < 3000; i++) {
        const head = stems[i % stems.length] + (i % 5 === 0 ? '' : (i * 7919 % 97).toString(36).repeat(1 + (i % 3)));
        const tail = i % 4 === 0 ? '' : i % 4 === 1 ? '*q' : i % 4 === 2 ? '*/a*b$' : '$';
        lines.push(`${i % 3 === 0 ? 'Allow' : 'Disallow'}: ${head}${tail}`);
      }
      const body = lines.join('\n');
      const urls = Array.from({ length: 400 }, (_, i) => stems[i % stems.length] + (i * 31 % 97).toString(36).repeat(1 + (i % 4)) + ['', 'q', '/a/b', '/axb/'][i % 4]);
      for (const profile of ['google', 'rfc'] as const) {
        const m = parse(body, { profile }).compile('FooBot', { modePolicy: policy });
        const reference = referenceFor(body, 'FooBot', profile);
        for (const u of urls) {
          const ref = reference(u);
          expect({ u, allowed: m.isAllowed(u), line: m.explain(u).line }).toEqual({ u, allowed: ref.allowed, line: ref.line });
        }
        expect(m.stats.mode).toBe('rules');
        m.dispose();
      }
    });
  });
  it('made at once from the rules: rule mode from the first URL, no automaton, a fixed size', () => {
    withPolicy({ coldOctets: 0, starHeavyMin: 0, starShare: Infinity }, () => {
      const body = 'User-agent: *\nDisallow: /a*b$\nAllow: /a*b*c\nDisallow: /x\nAllow: /*.pdf$\nDisallow: /\nAllow: /x/y$\n';
      const m = parse(body).compile('FooBot', { modePolicy: policy });
      const ref = (u: string) => referenceVerdict(new TextEncoder().encode(body), u, 'FooBot', 'google');
      expect(m.explain('/ab').line).toBe(ref('/ab').line);
      expect(m.stats).toMatchObject({ mode: 'rules', states: 0, bytes: 0 });
      const held = (m as unknown as { heldBytes: number }).heldBytes;
      for (const u of ['/a/b', '/a/b/c', '/x/y', '/x/y/', '/q.pdf', '/a.pdf', '/ab', '/abc', '/', '']) {
        expect({ u, allowed: m.isAllowed(u), line: m.explain(u).line }).toEqual({ u, allowed: ref(u).allowed, line: ref(u).line });
      }
      expect((m as unknown as { heldBytes: number }).heldBytes).toBe(held);
      m.dispose();
    });
  });
  it('a matcher turns to rule mode at a clearing, and stays there with a fixed size', () => {
    inRuleMode(() => {
      const body = 'User-agent: *\nDisallow: /a*b$\nAllow: /a*b*c\nDisallow: /x\nAllow: /*.pdf$\n';
      const m = parse(body).compile('FooBot', { maxDfaBytes: 1, modePolicy: policy });
      expect(m.stats.mode).toBe('hot');
      const urls = ['/a/b', '/a/b/c', '/x/y', '/q.pdf', '/a.pdf', '/ab', '/abc', '/'];
      const ref = (u: string) => referenceVerdict(new TextEncoder().encode(body), u, 'FooBot', 'google');
      expect(m.explain('/ab').line).toBe(ref('/ab').line);
      expect(m.stats.mode).toBe('rules');
      const held = (m as unknown as { heldBytes: number }).heldBytes;
      for (let i = 0; i < 50; i++) {
        for (const u of urls) expect({ allowed: m.isAllowed(u + 'z'.repeat(i)), line: m.explain(u + 'z'.repeat(i)).line }).toEqual({ allowed: ref(u + 'z'.repeat(i)).allowed, line: ref(u + 'z'.repeat(i)).line });
      }
      expect(m.stats).toMatchObject({ mode: 'rules', states: 0, bytes: 0 }); // no automaton: its rules, as the trie is, count in heldBytes
      expect((m as unknown as { heldBytes: number }).heldBytes).toBe(held);
      m.dispose();
      expect(m.stats.mode).toBe('disposed');
    });
  });
});

describe('checkMany agrees with isAllowed', { timeout: 120_000 }, () => {
  // checkMany hands the core a batch of URLs as one string's UTF-16 with their
  // lengths, and the core encodes each to UTF-8 as TextEncoder would: non-ASCII,
  // lone surrogates (a high one ending a URL and a low one starting the next are
  // no pair) and URLs longer than a batch are its edge cases.
  const unit = fc.constantFrom('/', 'a', '*', 'é', 'ツ', '😀', '\uD83D', '\uDE00', '\uDC00', '%', '$', '\u0000', '?', '#');
  const tricky = fc.oneof(
    fc.array(unit, { maxLength: 40 }).map((p) => p.join('')),
    fc.string({ maxLength: 40, unit: 'binary' }),
    fc.array(unit, { maxLength: 40 }).map((p) => 'http://example.com/' + p.join('')),
  );
  const body = 'User-agent: *\nDisallow: /*\uD83D\nDisallow: /a*é\nAllow: /*a$\nDisallow: /%F0%9F%98%80\nDisallow: /\u0000\n';
  it('on batches of any strings, in both profiles', () => {
    for (const profile of ['google', 'rfc'] as const) {
      const m = parse(body, { profile }).compile('FooBot');
      fc.assert(
        fc.property(fc.array(tricky, { maxLength: 60 }), (urls) => {
          expect(Array.from(m.checkMany(urls))).toEqual(urls.map((u) => (m.isAllowed(u) ? 1 : 0)));
        }),
        { numRuns: 1000 },
      );
    }
  });
  it('on batches of URLs that share their start (a host\'s URLs), in both profiles', () => {
    // The core reuses a URL's path start for the next URL that begins alike.
    const start = fc.constantFrom('http://example.com', 'https://example.com:8080', 'http://example.co', '//example.com', 'a:', ':', 'http:', 'http:/', 'x');
    const tail = fc.array(fc.constantFrom('/', '?', ';', '#', ':', '//', 'a', 'm', '.', '*', '%', 'é'), { maxLength: 8 }).map((p) => p.join(''));
    for (const profile of ['google', 'rfc'] as const) {
      const m = parse(body, { profile }).compile('FooBot');
      fc.assert(
        fc.property(fc.array(fc.tuple(start, tail).map(([a, b]) => a + b), { maxLength: 40 }), (urls) => {
          expect(Array.from(m.checkMany(urls))).toEqual(urls.map((u) => (m.isAllowed(u) ? 1 : 0)));
        }),
        { numRuns: 1000 },
      );
    }
  });

  it('under rfc, on URLs with escapes, controls and non-ASCII anywhere (the batch normalises whole URLs as it encodes them)', () => {
    // isAllowed normalises the extracted path; checkMany normalises the whole
    // URL before extracting it. Escapes of unreserved and reserved characters,
    // in either case, cut short by the URL's or the path's end, and in the authority.
    const piece = fc.constantFrom(
      '/', '?', ';', '#', ':', '//', 'a', 'A', '7', 'e', 'E', 'f', 'F', '%', '%7e', '%7E', '%41', '%2f', '%2F', '%3a',
      '%25', '%4', '%e2%82', '%zz', '\t', ' ', '\u007f', '\u0000', 'é', '€', '😀', '\uD83D',
    );
    const start = fc.constantFrom('', 'http://example.com', 'http://ex%41mple.com', 'http://ex ample.com', 'http://é.com', '//h%7e');
    const url = fc.tuple(start, fc.array(piece, { maxLength: 12 })).map(([s, p]) => s + p.join(''));
    const rules = 'User-agent: *\nDisallow: /*%7E\nDisallow: /A*%2F\nAllow: /*%25$\nDisallow: /%E2%82%AC\nDisallow: /*%09\nAllow: /*:\nDisallow: /*%3A\nDisallow: /*%20*e$\nDisallow: /%F0%9F%98%80\n';
    const m = parse(rules, { profile: 'rfc' }).compile('FooBot');
    fc.assert(
      fc.property(fc.array(url, { maxLength: 40 }), (urls) => {
        expect(Array.from(m.checkMany(urls))).toEqual(urls.map((u) => (m.isAllowed(u) ? 1 : 0)));
      }),
      { numRuns: 2000 },
    );
  });

  it('across batch edges: a URL longer than a batch, and more URLs than one batch holds', () => {
    const long = '/a' + 'é'.repeat(40_000);
    const urls = ['/\uD83D', '\uDE00', long, '/x', long + '\uD83D', '\uDE00/a', ...Array.from({ length: 3000 }, (_, i) => (i % 3 ? `/a${i}é` : `/b${i}a`))];
    for (const profile of ['google', 'rfc'] as const) {
      const m = parse(body, { profile }).compile('FooBot');
      expect(Array.from(m.checkMany(urls))).toEqual(urls.map((u) => (m.isAllowed(u) ? 1 : 0)));
    }
    // Under rfc a lone surrogate is U+FFFD, which the first rule disallows: halves of a pair in two URLs are no pair.
    const rfc = parse('User-agent: *\nDisallow: /*\uD83D\n', { profile: 'rfc' }).compile('FooBot');
    expect(Array.from(rfc.checkMany(['/\uD83D', '\uDE00/b', '/\uD83D\uDE00']))).toEqual([0, 1, 1]);
  });
});

describe('the core\'s path handling agrees with the reference', { timeout: 120_000 }, () => {
  it('on edge cases around "://"', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    for (const u of ['a:?/x', 'a:?//x', 'http:;//x/y', ':?//', '://', 'x://', '//a://b/c', 'a://?b', 'a:/', 'a:b//c']) {
      expect(corePath(u, 'google'), u).toEqual(pathParamsQuery(enc(u)));
    }
  });

  it('path extraction on strings of the octets that matter to it', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const unit = fc.constantFrom(':', '/', '?', ';', '#', 'a', '\u0000', '%');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 14 }), (u) => {
        const path = pathParamsQuery(enc(u));
        const nul = path.indexOf(0);
        const want = nul < 0 ? path : path.subarray(0, nul);
        const got = corePath(u, 'google');
        if (!sameOctets(got, want)) expect(got).toEqual(want);
      }),
      { numRuns: 20_000 },
    );
  });

  it('path extraction (google) and RFC 3986 normalisation with dot segments removed (rfc) of any string', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    fc.assert(
      fc.property(fc.oneof(url, fc.string({ unit: 'binary', maxLength: 80 })), (u) => {
        const path = pathParamsQuery(enc(u));
        const nul = path.indexOf(0); // Google reads the path as a C string
        const want = nul < 0 ? path : path.subarray(0, nul);
        const got = corePath(u, 'google');
        if (!sameOctets(got, want)) expect(got).toEqual(want);
        const [gotRfc, wantRfc] = [corePath(u, 'rfc'), comparedPath(u, 'rfc')];
        if (!sameOctets(gotRfc, wantRfc)) expect(gotRfc).toEqual(wantRfc);
      }),
      { numRuns: 3000 },
    );
  });

  it('RFC 3986 normalisation of long paths: plain runs of 16 and more, escapes and dot segments across their edges', () => {
    // The core copies plain octets, and looks for "/.", 16 at a time: runs of
    // every length, with escapes, octets to encode, broken escapes and dot
    // segments at and across the edges.
    const unit = fc.constantFrom('a', 'a', 'a', 'a', '/', '%', '%4', '%41', '%2f', '%2F', '%7e', 'é', ' ', '\u007f', 'F', '~', '/.', '/..', '%2E', '.', '?');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 120 }), (p) => {
        const [got, want] = [corePath('/' + p, 'rfc'), comparedPath('/' + p, 'rfc')];
        if (!sameOctets(got, want)) expect(got).toEqual(want);
      }),
      { numRuns: 5000 },
    );
  });
});
