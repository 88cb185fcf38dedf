// lint() on control tokens (issue 40 item 6): a control token misspelt, and a
// control token's group with lines written for a crawler. Each finding with its
// code, line and message, the cases it fires on and those it must not (the
// real names, a preference by path in a group of its own, a crawler near a
// control token's name), and the corpus, on which neither fires.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lint, type Finding } from '../../src/index.js';
import { AI_CRAWLERS } from '../../src/data/ai-crawlers.js';
import { CONTROL_TOKENS } from '../../src/data/operators.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';

const codes = (body: string, code: Finding['code']) => lint(body).findings.filter((f) => f.code === code).map((f) => f.line);
const messages = (body: string, code: Finding['code']) => lint(body).findings.filter((f) => f.code === code).map((f) => [f.line, f.message, f.severity]);

describe('misspelt-control-token: a user-agent that looks like a control token but is not one', () => {
  it('within two edits, or the same letters (hyphens, underscores, spaces aside): a warning that names the token and the fix', () => {
    const body = ['GoogleExtended', 'Google-Extend', 'Gogle-Extended', 'Google_Extended', 'Google Extended', 'Applebot-Extnded', 'AppleBot-Exetnded', 'Applebot Extended'].map((n) => `User-agent: ${n}`).join('\n') + '\nDisallow: /\n';
    expect(codes(body, 'misspelt-control-token')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(messages(body, 'misspelt-control-token')[1]).toEqual([
      2, '"Google-Extend" names no crawler: it looks like Google-Extended misspelt, the control token by which Google reads a preference for train-ai and ai-use; it counts only as written (case aside): write "User-agent: Google-Extended"', 'warning',
    ]);
    expect(messages(body, 'misspelt-control-token')[5][1]).toContain('write "User-agent: Applebot-Extended"');
  });

  it('not for the control tokens themselves, case aside, nor a version after one, nor the crawlers\' names (Applebot, Googlebot, every AI crawler listed)', () => {
    const names = ['Google-Extended', 'google-extended', 'Applebot-extended', 'APPLEBOT-EXTENDED', 'Google-Extended/1.0', 'Applebot', 'Googlebot', 'GoogleOther', 'Googlebot-Extended-Nope', '*'];
    expect(codes(names.map((n) => `User-agent: ${n}`).join('\n') + '\nDisallow: /\n', 'misspelt-control-token')).toEqual([]);
    const all = AI_CRAWLERS.map((c) => `User-agent: ${c.name}\nDisallow: /\n`).join('\n');
    expect(codes(all, 'misspelt-control-token')).toEqual([]);
  });

  it('a hostile name (16 KiB) costs no comparison and finds nothing', () => {
    expect(codes(`User-agent: Google-Extended${'x'.repeat(16_000)}\nDisallow: /\n`, 'misspelt-control-token')).toEqual([]);
  });
});

describe('control-token-crawler-rules: a control token\'s group with lines written for a crawler', () => {
  it('a crawl-delay after control tokens alone: nothing fetches as one', () => {
    const body = 'User-agent: Google-Extended\nCrawl-delay: 10\nDisallow: /\n';
    expect(messages(body, 'control-token-crawler-rules')).toEqual([
      [1, 'a crawl-delay (10 s) for Google-Extended applies to no crawler: a control token names no crawler (nothing fetches as it); a crawl-delay belongs to the crawler\'s own group', 'warning'],
    ]);
    // With a crawler in the run, the delay is that crawler's.
    expect(codes('User-agent: Applebot\nUser-agent: Applebot-Extended\nCrawl-delay: 10\nDisallow: /\n', 'control-token-crawler-rules')).toEqual([]);
  });

  it('a group naming a control token with crawlers (or "*") and a rule that is not of every path', () => {
    const body = 'User-agent: Googlebot\nUser-agent: Google-Extended\nDisallow: /admin/\nAllow: /\n';
    expect(messages(body, 'control-token-crawler-rules')).toEqual([
      [3, 'this group names the control token Google-Extended with crawlers, and rules not of every path: written for crawling, they also say which paths\' content Google may use for train-ai and ai-use (all but those they disallow); to opt out of that use, give Google-Extended a group of its own ("Disallow: /")', 'warning'],
    ]);
    expect(codes('User-agent: *\nUser-agent: Applebot-Extended\nDisallow: /*?\n', 'control-token-crawler-rules')).toEqual([3]);
  });

  it('a group of control tokens alone whose rules are a crawler group\'s, copied', () => {
    const body = 'User-agent: Googlebot\nDisallow: /admin/\nDisallow: /search\n\nUser-agent: Google-Extended\nDisallow: /admin/\nDisallow: /search\n';
    expect(messages(body, 'control-token-crawler-rules')).toEqual([
      [6, 'these rules are a crawler\'s group\'s, copied under Google-Extended, which names no crawler: they stop no fetch, and say which paths\' content Google may use for train-ai and ai-use (all but those they disallow); to opt out of that use, write "Disallow: /" in its group', 'warning'],
    ]);
  });

  it('not for what a control token\'s group is for: every path, with crawlers or alone, or a preference by path in a group of its own', () => {
    const none = [
      'User-agent: Google-Extended\nDisallow: /\n',
      'User-agent: GPTBot\nUser-agent: Google-Extended\nUser-agent: Applebot-Extended\nDisallow: /\n',
      'User-agent: Google-Extended\nAllow: /\n',
      'User-agent: Google-Extended\nDisallow:\n',
      'User-agent: Google-Extended\nDisallow: /*\n',
      'User-agent: *\nDisallow: /private/\n\nUser-agent: Google-Extended\nDisallow: /articles/\n',
      'User-agent: Googlebot\nCrawl-delay: 5\nDisallow: /admin/\n',
    ];
    for (const body of none) expect(codes(body, 'control-token-crawler-rules'), body).toEqual([]);
  });
});

describe('the corpus', () => {
  it.skipIf(!HAVE_SHARED)('neither finding fires on the 4,241 real files (which name no control token, misspelt or not)', () => {
    const dir = path.join(SHARED, 'corpus/robots');
    const fired: string[] = [];
    for (const host of readdirSync(dir)) {
      const report = lint(readFileSync(path.join(dir, host)));
      for (const f of report.findings) if (f.code === 'misspelt-control-token' || f.code === 'control-token-crawler-rules') fired.push(`${host}:${f.line}`);
    }
    expect(fired).toEqual([]);
    expect(CONTROL_TOKENS.map((c) => c.token)).toEqual(['Google-Extended', 'Applebot-Extended']);
  }, 120_000); // (4,241 files linted on a machine shared with other work: a hang guard only)
});
