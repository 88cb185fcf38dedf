// The audit's choice of a crawler's groups (src/bulk/audit/group-choice.ts, made
// over the records' user-agent lines) is the engine's (agents.ts
// applicableGroups, the core's group-choice.ts): the same groups, the same reach,
// on generated files of awkward user-agent values and on every file of the
// corpus, both profiles.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { agentTokens, applicableGroups, lastChoiceReach } from '../../src/engine/parse/agents.js';
import type { Group } from '../../src/engine/parse/records.js';
import type { Profile } from '../../src/engine/parse/profile.js';
import { readAuditRecords } from '../../src/bulk/audit/audit-records.js';
import { SiteGroupChoice } from '../../src/bulk/audit/group-choice.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';
import { propertySeed } from '../helpers/seed.js';

const PROFILES: Profile[] = ['rfc', 'google'];
const CRAWLERS = ['GPTBot', 'CCBot', 'Google-Extended', 'ClaudeBot', 'Googlebot', 'Bingbot', 'Mediapartners-Google', 'Googlebot-Image'];
/** Names only google takes (the rfc profile refuses what is not a product token). */
const GOOGLE_ONLY = ['', 'Googlebot/2.1', '*', 'bot 1', 'Bot1'];

/** Both choices for the names, compared: the groups as their indices. */
function expectSame(groups: readonly Group[], names: readonly string[], choice: SiteGroupChoice): void {
  const index = new Map(groups.map((g, i) => [g, i]));
  const engine = applicableGroups(groups, names).map((g) => index.get(g));
  const reach = lastChoiceReach();
  const audit = choice.of(names);
  expect({ groups: audit.groups.map((g) => index.get(g)), reach: audit.reach }, JSON.stringify(names)).toEqual({ groups: engine, reach });
}

/** Every name to ask of a file: the crawlers, each token its lines name, and lists of two. */
function namesOf(groups: readonly Group[], profile: Profile): (readonly string[])[] {
  const named = new Set<string>();
  for (const g of groups) for (const a of g.agents) if (a.written !== undefined) named.add(a.written);
  for (const g of groups) for (const a of g.agents) if (!a.global && a.lower !== '') named.add(a.lower);
  // (A file of hundreds of user-agent lines: its first tokens are enough, each asked over all its lines.)
  const all = [...CRAWLERS, ...[...named].slice(0, 12)].map((n) => agentTokens(n, profile));
  if (profile === 'google') for (const n of GOOGLE_ONLY) all.push(agentTokens(n, profile));
  all.push(agentTokens(['GPTBot', 'Googlebot'], profile), agentTokens(['Bingbot', ...[...named].slice(0, 2)], profile));
  return all;
}

const VALUES = ['*', '* ', '*\tfoo', '* bar', '*bot', '**', 'GPTBot', 'gptbot', 'GPTBot/1.0', 'Googlebot', 'googlebot-image', 'Googlebot Image', '360Spider', '', 'CCBot*', 'Bing_bot', 'ClaudeBot (+https://x)'];

describe("the audit's choice of a crawler's groups is the engine's", () => {
  for (const profile of PROFILES) {
    it(`${profile}: generated files of awkward user-agent values`, () => {
      const line = fc.oneof(
        fc.constantFrom(...VALUES).map((v) => `User-agent: ${v}`),
        fc.constantFrom('Disallow: /', 'Allow: /a', 'Disallow:', 'Content-Usage: train-ai=n', '# x', ''),
      );
      fc.assert(
        fc.property(fc.array(line, { maxLength: 24 }), (lines) => {
          const records = readAuditRecords(new TextEncoder().encode(lines.join('\n')), profile);
          const choice = new SiteGroupChoice(records.groups);
          for (const names of namesOf(records.groups, profile)) expectSame(records.groups, names, choice);
        }),
        { seed: propertySeed(), numRuns: 300 },
      );
    });
  }
});

describe.skipIf(!HAVE_SHARED)("the audit's choice of a crawler's groups is the engine's: every file of the corpus", () => {
  it('both profiles, the crawlers and the tokens the file names', { timeout: 600_000 }, async () => {
    const dir = path.join(SHARED, 'corpus', 'robots');
    let asked = 0;
    let files = 0;
    for (const name of readdirSync(dir).sort()) {
      // (The event loop turned now and then: vitest's worker answers its runner meanwhile.)
      if (++files % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
      const body = new Uint8Array(readFileSync(path.join(dir, name)));
      for (const profile of PROFILES) {
        const records = readAuditRecords(body, profile);
        const choice = new SiteGroupChoice(records.groups);
        for (const names of namesOf(records.groups, profile)) {
          expectSame(records.groups, names, choice);
          asked++;
        }
      }
    }
    expect(asked).toBeGreaterThan(4241 * 2 * CRAWLERS.length);
  });
});
