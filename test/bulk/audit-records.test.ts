// The audit's reading of a file (audit-records.ts) against the engine's
// (records.ts readRecords): the same groups (user-agent lines, rules, use
// preferences, in the same boundaries), License and LLM-Policy lines, on every
// file of the corpus and on random files of the lines that move a group's
// boundaries, both profiles. And its work: the lines it never reads (Sitemap,
// Crawl-delay, unknown keys, invalid lines) reach no JavaScript of its own: a
// count, not a clock.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { readRecords, type AgentLine, type Records } from '../../src/engine/parse/records.js';
import type { Profile } from '../../src/engine/parse/profile.js';
import { auditLineWork, readAuditRecords } from '../../src/bulk/audit/audit-records.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';
import { propertySeed } from '../helpers/seed.js';

const PROFILES: Profile[] = ['rfc', 'google'];

/** A user-agent line with the octets it keeps for the core's choice of groups in place of their shared
 * buffer (one per records, compared whole for each line it would make the comparison quadratic). */
function agentView({ values, valueStart, valueEnd, ...line }: AgentLine) {
  return { ...line, kept: Array.from(values.octets.subarray(valueStart, valueEnd)) };
}

/** What the audit reads of records: their groups, License and LLM-Policy lines. */
function view(r: Pick<Records, 'groups' | 'licenses' | 'llmPolicies'>) {
  return {
    groups: r.groups.map((g) => ({ agents: g.agents.map(agentView), rules: g.rules, usage: g.usage })),
    licenses: r.licenses,
    llmPolicies: r.llmPolicies,
  };
}

function expectSame(body: Uint8Array, profile: Profile): void {
  const audit = readAuditRecords(body, profile);
  expect(audit.body).toBe(body);
  expect(view(audit)).toEqual(view(readRecords(body, profile)));
}

describe('the audit reads the groups as the engine does', () => {
  it('by hand: rules outside a group, preferences, file-wide lines, a typo, a cut line', () => {
    const text = [
      'Disallow: /before', 'Content-Signal: search=yes', 'License: https://l.example/1', 'Sitemap: https://s.example/a.xml',
      'User-agent: *', 'Crawl-delay: 5', 'Content-Usage: /p train-ai=n', 'User-agent: GPTBot', 'Disallow: /x', 'Useragent: Foo/1.2',
      'Dissallow: /y$', 'Content-Signal: ai-train=no', 'LLM-Policy: https://p.example', 'bogus line', `Allow: /${'z'.repeat(17000)}`,
      'User-agent: * trailing', 'Allow: /', 'Content-Usage: train-ai=y',
    ].join('\r\n');
    for (const profile of PROFILES) expectSame(new TextEncoder().encode(text), profile);
  });

  it('random files of the lines that start, end and fill groups', () => {
    const line = fc.constantFrom(
      'User-agent: *', 'User-agent: GPTBot', 'user-agent: googlebot/2.1', 'User-agent: *bot', 'Allow: /a', 'Disallow: /', 'Disallow:',
      'Disallow: /*.pdf$', 'Content-Usage: train-ai=n', 'Content-Usage: /docs/ search=y', 'Content-Signal: ai-train=no, search=yes',
      'License: https://l.example', 'LLM-Policy: p', 'Sitemap: https://s.example', 'Crawl-delay: 3', 'Crawl-delay: x', 'Foo: bar', 'junk',
      '# comment', '', 'Disalow /typo', '\u00ff\u00fe: x', 'Allow: /\u00e9',
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.constantFrom('\n', '\r\n', '\r'), (lines, end) => {
        for (const profile of PROFILES) expectSame(new TextEncoder().encode(lines.join(end)), profile);
      }),
      { seed: propertySeed(), numRuns: 300 },
    );
  });

  it('random octets of the words and separators that decide which lines the core lexes for it (spaces before a key, CR, LF, a BOM, a NUL)', () => {
    const word = fc.constantFrom(
      'User-agent', 'user agent', 'uSERAGENT', 'Allow', 'ALLOW', 'disallow', 'Dissalow', 'content-usage', 'Content-Signal', 'crawl-delay', 'License',
      'llm-policy', 'Sitemap', 'x-unknown', '<p>', ':', ' ', '\t', '\v', '\f', '\r', '\n', '\r\n', '#', '\0', '*', '/a', 'GPTBot', 'train-ai=n', '\ufeff', 'é',
      // (The keys the core splits in a compare, with their colon, in any case: "disallow:", "allow:", "user-agent:".)
      'Disallow:', 'dISALLOW:', 'allow:', 'ALLOW:', 'User-agent:', 'user-AGENT:', 'user_agent:', 'disallow:/p', 'Allow:/',
      // (Blanks before a key, more than the 16 the core passes over in a step.)
      ' '.repeat(20), '\t\v\f '.repeat(5), ' '.repeat(15), ' '.repeat(33),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 60 }), (words) => {
        for (const profile of PROFILES) expectSame(new TextEncoder().encode(words.join('')), profile);
      }),
      { seed: propertySeed(), numRuns: 1000 },
    );
  });

  it('random long files of lines it does not read between lines it reads (indented, long, blank), each line ended by LF, CR or CRLF', () => {
    // (The core walks the lines it does not read by their ends, 64 octets a step: these cross its steps anywhere.)
    const blank = fc.constantFrom(' ', '\t', '\v', '\f');
    const text = fc.oneof(
      fc.constantFrom('User-agent: *', 'user-agent:GPTBot', 'Disallow: /a', 'allow:/b', 'Disallow :/c', 'Content-Signal: search=yes', 'License: l', '# c'),
      fc.constantFrom('<div class="x">', '</script>', 'Sitemap: https://s.example/a.xml', '', '#', 'var u = 1;', 'ua', 'Crawl-delay: 1'),
      fc.integer({ min: 40, max: 200 }).map((k) => `<p>${'x'.repeat(k)}</p>`),
    );
    const line = fc.tuple(fc.array(blank, { maxLength: 40 }), text, fc.constantFrom('\n', '\r', '\r\n')).map(([b, t, e]) => b.join('') + t + e);
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 120 }), fc.boolean(), (lines, cutLast) => {
        let body = lines.join('');
        if (cutLast) body = body.replace(/(\r\n|\r|\n)$/, '');
        for (const profile of PROFILES) expectSame(new TextEncoder().encode(body), profile);
      }),
      { seed: propertySeed(), numRuns: 400 },
    );
  });

  /** The audit of a file of a group's two lines, then 5,000 times the lines `filler` gives: its records, and how
   * many records the core's lexer wrote for it (each a line the reader's JavaScript reads). */
  const auditOf = (filler: (i: number) => string[]) => {
    const lines = ['User-agent: *', 'Disallow: /private/'];
    for (let i = 0; i < 5000; i++) lines.push(...filler(i));
    auditLineWork.records = 0;
    const records = readAuditRecords(new TextEncoder().encode(lines.join('\n')), 'rfc');
    return { records, written: auditLineWork.records };
  };

  it('the lines whose first octet starts none of the keys it reads are not lexed: no record of theirs reaches the host', () => {
    const { records, written } = auditOf((i) => [`Sitemap: https://example.com/s${i}.xml`, `# comment ${i}`, `  <li>item ${i}</li>`, `X-Unknown-${i}: v`]);
    expect(records.groups[0].rules[0].line).toBe(2);
    // Its two lines' records, not 15,002 (comments make none).
    expect(written).toBe(2);
  });

  it('the lines of the kinds it does not read make no record, though their first octet starts a key it reads', () => {
    const { records, written } = auditOf((i) => [`Crawl-delay: ${i}`, `Comment-${i}: v`, `las lineas ${i}`, `  allowing all of ${i}`]);
    expect(records.groups[0].rules[0].line).toBe(2);
    // Its two lines' records, not 20,002 (crawl-delays, unknown keys, invalid lines).
    expect(written).toBe(2);
  });

  it('the lines it does not read reach none of its JavaScript', () => {
    const { records, written } = auditOf((i) => [`Sitemap: https://example.com/s${i}.xml`, `Crawl-delay: ${i}`, `X-Unknown-${i}: v`, `an invalid line ${i}`]);
    expect(records.groups.length).toBe(1);
    // Its two lines, not 20,002.
    expect(written).toBe(2);
  });
});

describe.skipIf(!HAVE_SHARED)('the audit reads the groups as the engine does: every file of the corpus', () => {
  it('both profiles', { timeout: 600_000 }, () => {
    // (A generous bound: the corpus read twice per profile, on a machine shared with other test runs.)
    const dir = path.join(SHARED, 'corpus', 'robots');
    for (const name of readdirSync(dir).sort()) {
      const body = new Uint8Array(readFileSync(path.join(dir, name)));
      for (const profile of PROFILES) expectSame(body, profile);
    }
  });
});
