// robots audit's purposes at `/` and operators' answers (site-audit.ts, from
// the rules' own verdicts at `/`: site-rules.ts, no compile) against the
// library's: RobotsTxt.usages(), crawlerUsage() and operatorUsage() on the
// parsed file (the engine's compiled matcher). On every file of the corpus and
// on random files with Content-Usage and Content-Signal lines, control tokens
// (Google-Extended, Applebot-Extended) with groups of their own or through `*`,
// both profiles.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { OPERATORS, parse } from '../../src/index.js';
import { PURPOSES } from '../../src/engine/usage/vocabulary.js';
import type { Profile } from '../../src/engine/parse/profile.js';
import { SiteAuditor } from '../../src/bulk/audit/site-audit.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';
import { robotsInternals } from '../../src/internal.js';

const CRAWLERS = ['GPTBot', 'CCBot', 'Google-Extended', 'ClaudeBot', 'Googlebot', 'Bingbot', 'Applebot', 'PerplexityBot'];
const PROFILES: Profile[] = ['rfc', 'google'];
const SITE = 'https://example.com';
const URL = `${SITE}/`;

/** The audit's record's purposes and operators equal the library's; whether any purpose was stated (not unknown). */
function compare(auditor: SiteAuditor, body: Uint8Array, profile: Profile): boolean {
  const record = auditor.audit(SITE, URL, { kind: 'ok', body, http: 200 });
  const robots = parse(body, { profile, maxOctets: 512_000 });
  try {
    const usages = robots.usages(URL, CRAWLERS);
    const want = CRAWLERS.map((c, i) => ({ crawler: c, purposes: { ...usages[i].purposes }, purposesVary: robotsInternals(robots).crawlerUsage(c).paths !== null }));
    const got = record.crawlers.map((c) => ({ crawler: c.crawler, purposes: c.purposes, purposesVary: c.purposesVary }));
    expect(got, profile).toEqual(want);
    const operators = OPERATORS.map((op) => {
      const a = robots.operatorUsage(URL, op);
      return { operator: op.id, purposes: PURPOSES.map((p) => [a.purposes[p].fetch?.crawler ?? null, a.purposes[p].answer]) };
    });
    expect(record.operators!.map((o) => ({ operator: o.operator, purposes: PURPOSES.map((p) => [o.purposes[p].crawler, o.purposes[p].answer]) })), profile).toEqual(operators);
    return want.some((c) => PURPOSES.some((p) => c.purposes[p] !== 'unknown'));
  } finally {
    robots.dispose();
  }
}

const auditorOf = (profile: Profile) => new SiteAuditor({ crawlers: CRAWLERS, profile, maxOctets: 512_000, operators: OPERATORS, convention: 'rfc' });

describe.skipIf(!HAVE_SHARED)('audit purposes and operators: every file of the corpus', () => {
  // Thousands of files compiled by the library, both profiles, on a busy machine: a hang guard only.
  it.each(PROFILES)('%s', { timeout: 600_000 }, async (profile) => {
    const dir = path.join(SHARED, 'corpus', 'robots');
    const auditor = auditorOf(profile);
    for (const [n, f] of readdirSync(dir).sort().entries()) {
      // (The event loop turns now and then: vitest's RPC with the worker must not wait.)
      if (n % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
      compare(auditor, readFileSync(path.join(dir, f)).subarray(0, 512_000), profile);
    }
  });
});

const agent = fc.constantFrom('*', 'GPTBot', 'Googlebot', 'Google-Extended', 'Applebot', 'Applebot-Extended', 'ClaudeBot', 'CCBot');
const value = fc.constantFrom('/', '', '/a', '/*', '/$', '/a$', '*', '/robots.txt', '/%7E', '/*.pdf', 'a', '/index.html');
const usageItems = fc.array(fc.constantFrom('train-ai=n', 'train-ai=y', 'search=y', 'search=n', 'ai-use=n', 'bots=n', 'Train-ai=n'), { minLength: 1, maxLength: 3 });
const line = fc.oneof(
  fc.tuple(fc.constantFrom('Allow', 'Disallow'), value).map(([k, v]) => `${k}: ${v}`),
  fc.tuple(fc.constantFrom('', '/', '/a', '/*.pdf'), usageItems).map(([p, items]) => `Content-Usage: ${p === '' ? '' : `${p} `}${items.join(', ')}`),
  fc.array(fc.constantFrom('search=yes', 'ai-train=no', 'ai-input=no', 'ai-train=yes'), { minLength: 1, maxLength: 3 }).map((s) => `Content-Signal: ${s.join(', ')}`),
);
const group = fc.tuple(fc.array(agent, { minLength: 1, maxLength: 2 }), fc.array(line, { maxLength: 5 }))
  .map(([agents, lines]) => [...agents.map((a) => `User-agent: ${a}`), ...lines].join('\n'));
const file = fc.array(group, { minLength: 1, maxLength: 4 }).map((g) => new TextEncoder().encode(g.join('\n\n')));

describe('audit purposes and operators: random files', () => {
  it.each(PROFILES)('%s', { timeout: 300_000 }, (profile) => {
    const auditor = auditorOf(profile);
    let stated = 0;
    fc.assert(fc.property(file, (body) => {
      if (compare(auditor, body, profile)) stated++;
    }), { numRuns: 1500 });
    // The files reach the purposes' corners: many state some purpose.
    expect(stated).toBeGreaterThan(100);
  });
});
