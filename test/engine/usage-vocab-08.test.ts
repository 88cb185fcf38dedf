// The purposes in draft-ietf-aipref-vocab-08's labels (issue 40, item 1):
// search, train-ai and ai-use. A Content-Usage `ai-use` speaks to ai-use (it was
// a label of earlier drafts, then gone, and -08 brought it back); Content-Signal's
// `ai-input` is ai-use and `ai-train` is train-ai; Cloudflare's `use=` key is
// reported with its value, mapping to no purpose. `ai-input`, the purpose's name
// before 0.1.x renamed it, is still read from a result's purposes, until 0.2.
import { describe, expect, it } from 'vitest';
import { lint, parse, RobotsCache, type FetchFunction } from '../../src/index.js';

const url = (path: string) => `https://example.com${path}`;
const NONE = { search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'unknown' };

describe('vocab-08: search, train-ai and ai-use', () => {
  it('Content-Usage: ai-use=n disallows ai-use, ai-use=y allows it; one Dictionary of the three labels', () => {
    for (const profile of ['google', 'rfc'] as const) {
      const robots = parse('User-agent: *\nContent-Usage: ai-use=n\nContent-Usage: /open/ ai-use=y, train-ai=n, search=y\n', { profile });
      expect(robots.usage(url('/'), 'FooBot')).toEqual({
        allowed: true,
        line: 0,
        purposes: { ...NONE, 'ai-use': 'disallowed' },
        signals: [{ field: 'content-usage', value: 'ai-use=n', line: 2, purpose: 'ai-use', preference: 'disallowed' }],
      });
      expect(robots.usage(url('/open/a'), 'FooBot').purposes).toEqual({ search: 'allowed', 'train-ai': 'disallowed', 'ai-use': 'allowed' });
    }
    // As a response header too.
    expect(parse('').usage(url('/'), 'FooBot', { headers: { 'content-usage': 'ai-use=n' } }).purposes).toEqual({ ...NONE, 'ai-use': 'disallowed' });
  });

  it('ai-use is no longer a legacy label; the other labels of earlier drafts still are', () => {
    const u = parse('User-agent: *\nContent-Usage: ai-use=y, genai=n, ai=n\n').usage(url('/'), 'FooBot');
    expect(u.signals.map((s) => [s.value, s.purpose ?? null, s.legacy ?? false])).toEqual([['ai-use=y', 'ai-use', false], ['genai=n', null, true], ['ai=n', null, true]]);
  });

  it('Content-Signal: ai-input is ai-use, ai-train is train-ai; Content-Signal has no ai-use key', () => {
    const u = parse('User-agent: *\nContent-Signal: search=yes, ai-input=no, ai-train=yes\n').usage(url('/'), 'FooBot');
    expect(u.purposes).toEqual({ search: 'allowed', 'train-ai': 'allowed', 'ai-use': 'disallowed' });
    expect(u.signals.find((s) => s.value === 'ai-input=no')).toEqual({ field: 'content-signal', value: 'ai-input=no', line: 2, purpose: 'ai-use', preference: 'disallowed' });
    expect(parse('User-agent: *\nContent-Signal: ai-use=no\n').usage(url('/'), 'FooBot').purposes).toEqual(NONE);
    // And as a page's header.
    expect(parse('').usage(url('/'), 'FooBot', { headers: { 'content-signal': 'ai-input=yes' } }).purposes['ai-use']).toBe('allowed');
  });

  it("Cloudflare's use= key is reported in signals with its value, mapping to no purpose", () => {
    const u = parse('User-agent: *\nContent-Signal: search=yes, use=reference\nContent-Signal: USE = Immediate\n').usage(url('/'), 'FooBot');
    expect(u.purposes).toEqual({ ...NONE, search: 'allowed' });
    expect(u.signals).toEqual([
      { field: 'content-signal', value: 'search=yes', line: 2, purpose: 'search', preference: 'allowed' },
      { field: 'content-signal', value: 'use=reference', line: 2 },
      { field: 'content-signal', value: 'USE = Immediate', line: 3 },
    ]);
  });
});

describe('ai-input, the deprecated name of ai-use in a result (until 0.2)', () => {
  // (An Allow in each group: the first ends its user-agent lines under either grammar.)
  const BODY = 'User-agent: *\nAllow: /\nContent-Signal: ai-input=no\n\nUser-agent: BarBot\nAllow: /\nContent-Usage: ai-use=y\n';

  it('purposes["ai-input"] reads ai-use, from usage(), usages(), explainAll() and RobotsCache.usage()', async () => {
    const robots = parse(BODY);
    expect(robots.usage(url('/'), 'FooBot').purposes['ai-input']).toBe('disallowed');
    expect(robots.usages(url('/'), ['FooBot', 'BarBot']).map((u) => u.purposes['ai-input'])).toEqual(['disallowed', 'allowed']);
    expect(robots.explainAll(url('/'), 'BarBot').purposes['ai-input']).toBe('allowed');
    expect(parse('').usage(url('/'), 'FooBot').purposes['ai-input']).toBe('unknown');
    const fetch: FetchFunction = async () => new Response(BODY, { status: 200 });
    const cache = new RobotsCache({ agent: 'FooBot', userAgentHeader: 'FooBot/1.0 (+https://foo.example/bot)', fetch });
    expect((await cache.usage(url('/'))).purposes['ai-input']).toBe('disallowed');
  });

  it('not enumerable: keys, JSON and printing name the new purposes only', () => {
    const purposes = parse(BODY).usage(url('/'), 'FooBot').purposes;
    expect(Object.keys(purposes)).toEqual(['search', 'train-ai', 'ai-use']);
    expect(JSON.stringify(purposes)).toBe('{"search":"unknown","train-ai":"unknown","ai-use":"disallowed"}');
    expect('ai-input' in purposes).toBe(true);
    expect(Object.prototype.hasOwnProperty.call(purposes, 'ai-input')).toBe(false);
  });
});

describe('lint: ai-input in a Content-Usage line', () => {
  it('is a finding: it is Content-Signal\'s key; AIPREF\'s label is ai-use', () => {
    const f = lint('User-agent: *\nContent-Usage: ai-input=n\nAllow: /\n').findings;
    expect(f.map((x) => [x.line, x.code, x.message])).toEqual([
      [2, 'unknown-usage-key', 'Content-Usage key "ai-input" means nothing to crawlers: ai-input is Content-Signal\'s key; AIPREF calls it ai-use ("ai-use=n")'],
    ]);
  });

  it('ai-use is a Content-Usage label (no finding), and in a Content-Signal line a finding naming ai-input', () => {
    expect(lint('User-agent: *\nContent-Usage: ai-use=n, train-ai=n, search=y\nAllow: /\n').findings).toEqual([]);
    expect(lint('User-agent: *\nContent-Signal: ai-use=no\nAllow: /\n').findings.map((x) => [x.code, x.message])).toEqual([
      ['unknown-usage-key', 'Content-Signal key "ai-use" means nothing to crawlers: Content-Signal calls it ai-input ("ai-input=no")'],
    ]);
    // A value other than y/n for ai-use, as for the other labels.
    expect(lint('User-agent: *\nContent-Usage: ai-use=no\nAllow: /\n').findings.map((x) => x.message)).toEqual([
      '"ai-use=no": Content-Usage takes y or n (write "ai-use=n"); any other value leaves ai-use unknown',
    ]);
  });

  it('a use allowed where nothing may be fetched names ai-use, in either field', () => {
    const f = lint('User-agent: *\nDisallow: /\nContent-Usage: ai-use=y\nContent-Signal: ai-input=yes\n').findings.filter((x) => x.code === 'usage-contradicts-rules');
    expect(f.map((x) => [x.line, x.message.slice(0, x.message.indexOf(','))])).toEqual([[3, 'Content-Usage allows ai-use'], [4, 'Content-Signal allows ai-input']]);
  });
});
