// The profile table (src/engine/parse/profile.ts) is the one list of what the
// profile changes: each trait is checked here against what the engine does,
// so the table cannot drift from the code that reads it.
import { describe, expect, it } from 'vitest';
import { parse } from '../../../src/index.js';
import { corePath } from '../../../src/engine/match/core-path.js';
import { referenceVerdict } from '../../../src/engine/reference.js';
import { DEFAULT_PROFILE, isProfile, PROFILE_TRAITS, PROFILES, profileOr, type Profile } from '../../../src/engine/parse/profile.js';
import { FLAG_GOOGLE, FLAG_RFC } from '../../../src/engine/wasm/layout.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

describe.each(PROFILES)('profile %s: each trait is what the engine does', (profile: Profile) => {
  const t = PROFILE_TRAITS[profile];
  const verdicts = (body: string, url: string, agent = 'FooBot') => {
    const engine = parse(body, { profile }).isAllowed(url, agent);
    expect(referenceVerdict(enc(body), url, agent, profile).allowed, 'the reference agrees').toBe(engine);
    return engine;
  };

  it('normalises: paths and patterns in RFC 3986 normal form', () => {
    expect(dec(corePath('/%7Ea%2f', profile))).toBe(t.normalises ? '/~a%2F' : '/%7Ea%2f');
    expect(verdicts('User-agent: *\nDisallow: /%7Ea\n', '/~a')).toBe(!t.normalises);
  });

  it('allowsRobotsTxt: /robots.txt itself always allowed', () => {
    expect(verdicts('User-agent: *\nDisallow: /\n', '/robots.txt')).toBe(t.allowsRobotsTxt);
  });

  it('pathEndsAtNul: the path ends at its first NUL', () => {
    expect(dec(corePath('/a\0b', profile))).toBe(t.pathEndsAtNul ? '/a' : '/a%00b');
    expect(verdicts('User-agent: *\nDisallow: /a$\n', '/a\0b')).toBe(!t.pathEndsAtNul);
  });

  it('indexHtmAllowsDirectory: an allow of /dir/index.htm also allows /dir/', () => {
    expect(verdicts('User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n', '/d/')).toBe(t.indexHtmAllowsDirectory);
  });

  it('requiresProductTokens: a name that is no token is refused, else compared whole', () => {
    const r = parse('User-agent: *\nDisallow: /\n', { profile });
    if (t.requiresProductTokens) expect(() => r.isAllowed('/', 'Foo Bot/1.0')).toThrow(TypeError);
    else expect(r.isAllowed('/', 'Foo Bot/1.0')).toBe(false);
  });

  it('sitemapsOnce: a repeated sitemap is listed once', () => {
    const r = parse('Sitemap: https://e.example/s.xml\nSitemap: https://e.example/s.xml\n', { profile });
    expect(r.sitemaps.length).toBe(t.sitemapsOnce ? 1 : 2);
  });

  it('contentUsageIsRule: a Content-Usage line ends its group\'s user-agent lines (a user-agent line after it starts a group)', () => {
    expect(verdicts('User-agent: FooBot\nContent-Usage: train-ai=n\nUser-agent: *\nDisallow: /a\n', '/a')).toBe(t.contentUsageIsRule);
  });

  it('matcherFlags: the core flags that apply normalises, allowsRobotsTxt and pathEndsAtNul', () => {
    expect((t.matcherFlags & FLAG_RFC) !== 0).toBe(t.normalises && t.allowsRobotsTxt);
    expect((t.matcherFlags & FLAG_GOOGLE) !== 0).toBe(t.pathEndsAtNul);
  });
});

describe('profile names', () => {
  it('isProfile and profileOr accept the two names only; rfc is the default', () => {
    expect(PROFILES).toEqual(['rfc', 'google']);
    expect(DEFAULT_PROFILE).toBe('rfc');
    expect(parse('').profile).toBe(DEFAULT_PROFILE);
    for (const v of ['rfc', 'google']) expect(isProfile(v)).toBe(true);
    for (const v of ['RFC', 'bing', '', undefined, null, 1]) expect(isProfile(v)).toBe(false);
    expect(profileOr('rfc', 'google')).toBe('rfc');
    expect(profileOr('bing', 'google')).toBe('google');
  });
});
