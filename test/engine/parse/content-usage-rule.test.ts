// draft-ietf-aipref-attach-05 makes Content-Usage a rule (`rule =/ content-usage`), and in
// RFC 9309's grammar a rule ends its group's user-agent lines: under `rfc` a user-agent line
// after a Content-Usage line starts a new group, for verdicts and for purposes alike. Under
// `google` the groups are Google's parser's, which does not know the key (an other record).
// Content-Signal (Cloudflare's, not in RFC 9309's grammar) stays an other record in both.
import { describe, expect, it } from 'vitest';
import { parse } from '../../../src/index.js';
import { robotsInternals } from '../../../src/internal.js';

// The example: Googlebot's own group (no Allow/Disallow), then the `*` group.
const EXAMPLE = 'User-agent: Googlebot\nContent-Usage: search=y, train-ai=n\n\nUser-agent: *\nDisallow: /x\nContent-Usage: search=n\n';

const purposes = (body: string, profile: 'rfc' | 'google', url: string, agent: string) => {
  const p = parse(body, { profile }).usage(url, agent).purposes;
  return { search: p.search, 'train-ai': p['train-ai'] };
};

describe('a Content-Usage line ends its group\'s user-agent lines under rfc (a rule), not under google', () => {
  it('rfc: Googlebot has its own group: /x allowed, search allowed, train-ai disallowed', () => {
    const r = parse(EXAMPLE, { profile: 'rfc' });
    expect(r.isAllowed('https://e.example/x', 'Googlebot')).toBe(true);
    expect(r.explain('https://e.example/x', 'Googlebot')).toMatchObject({ allowed: true, line: 0 });
    expect([...r.compile('Googlebot').checkMany(['https://e.example/x', 'https://e.example/y'])]).toEqual([1, 1]);
    expect(purposes(EXAMPLE, 'rfc', 'https://e.example/x', 'Googlebot')).toEqual({ search: 'allowed', 'train-ai': 'disallowed' });
    expect(purposes(EXAMPLE, 'rfc', 'https://e.example/y', 'Googlebot')).toEqual({ search: 'allowed', 'train-ai': 'disallowed' });
    // Other crawlers: the `*` group alone.
    expect(r.isAllowed('https://e.example/x', 'FooBot')).toBe(false);
    expect(purposes(EXAMPLE, 'rfc', 'https://e.example/y', 'FooBot')).toEqual({ search: 'disallowed', 'train-ai': 'unknown' });
    expect(robotsInternals(r).rulesKey('Googlebot')).not.toBe(robotsInternals(r).rulesKey('FooBot'));
  });

  it('google: one group for Googlebot and `*` (Google\'s parser does not know the key): /x disallowed, search disallowed', () => {
    const r = parse(EXAMPLE, { profile: 'google' });
    expect(r.isAllowed('https://e.example/x', 'Googlebot')).toBe(false);
    expect(r.explain('https://e.example/x', 'Googlebot')).toMatchObject({ allowed: false, line: 5 });
    expect([...r.compile('Googlebot').checkMany(['https://e.example/x', 'https://e.example/y'])]).toEqual([0, 1]);
    expect(purposes(EXAMPLE, 'google', 'https://e.example/y', 'Googlebot')).toEqual({ search: 'disallowed', 'train-ai': 'disallowed' });
    expect(purposes(EXAMPLE, 'google', 'https://e.example/y', 'FooBot')).toEqual({ search: 'disallowed', 'train-ai': 'disallowed' });
  });

  it('between user-agent lines, after a rule, at the end: only a user-agent line after it starts a group', () => {
    const body = 'User-agent: a\nContent-Usage: /p train-ai=n\nUser-agent: b\nDisallow: /b\nContent-Usage: search=n\nUser-agent: c\nDisallow: /c\nContent-Usage: search=y';
    const rfc = parse(body, { profile: 'rfc' });
    const google = parse(body, { profile: 'google' });
    expect([rfc.isAllowed('https://e.example/b', 'a'), google.isAllowed('https://e.example/b', 'a')]).toEqual([true, false]);
    expect([rfc.isAllowed('https://e.example/b', 'b'), rfc.isAllowed('https://e.example/c', 'c')]).toEqual([false, false]);
    expect(purposes(body, 'rfc', 'https://e.example/p', 'a')).toEqual({ search: 'unknown', 'train-ai': 'disallowed' });
    expect(purposes(body, 'google', 'https://e.example/p', 'a')).toEqual({ search: 'unknown', 'train-ai': 'disallowed' });
    expect(purposes(body, 'rfc', 'https://e.example/q', 'a')).toEqual({ search: 'unknown', 'train-ai': 'unknown' });
    expect(purposes(body, 'google', 'https://e.example/q', 'a')).toEqual({ search: 'disallowed', 'train-ai': 'unknown' });
    expect(purposes(body, 'rfc', 'https://e.example/p', 'b')).toEqual({ search: 'disallowed', 'train-ai': 'unknown' });
  });

  it('a crawl-delay after it belongs to the user-agent lines after it, under rfc', () => {
    const body = 'User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nCrawl-delay: 5\n';
    expect(parse(body, { profile: 'rfc' }).crawlDelay('a')).toBeUndefined();
    expect(parse(body, { profile: 'google' }).crawlDelay('a')).toBe(5);
    expect(parse(body, { profile: 'rfc' }).crawlDelay('b')).toBe(5);
  });

  it('Content-Signal is no rule in either profile: the user-agent lines around it are one group', () => {
    const body = 'User-agent: Googlebot\nContent-Signal: search=no\n\nUser-agent: *\nDisallow: /x\n';
    for (const profile of ['rfc', 'google'] as const) {
      expect(parse(body, { profile }).isAllowed('https://e.example/x', 'Googlebot')).toBe(false);
      expect(purposes(body, profile, 'https://e.example/y', 'Googlebot').search).toBe('disallowed');
    }
  });

  it('a Content-Usage line before any user-agent line starts no group', () => {
    const body = 'Content-Usage: train-ai=n\nDisallow: /a\nUser-agent: *\nDisallow: /x\n';
    for (const profile of ['rfc', 'google'] as const) {
      const r = parse(body, { profile });
      expect([r.isAllowed('https://e.example/a', 'FooBot'), r.isAllowed('https://e.example/x', 'FooBot')]).toEqual([true, false]);
    }
  });
});
