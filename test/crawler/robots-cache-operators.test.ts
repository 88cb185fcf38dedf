// RobotsCache answers any crawler, and any operator, from its one fetch per
// origin (issue 40, item 4): a cache made for one agent gives policy(),
// isAllowed(), crawlDelay() and usage() for another, and operatorUsage() per
// operator, as the parsed file does, against a real HTTP server on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, RobotsCache } from '../../src/index.js';
import { CLOUDFLARE } from '../helpers/cloudflare-robots.js';
import { serve, startServer, type TestServer } from '../helpers/http-servers.js';

const BODY = `${CLOUDFLARE}
User-agent: SlowBot
Crawl-delay: 7
Disallow: /slow/
`;
let server: TestServer;
beforeAll(async () => {
  server = await startServer(serve(BODY));
});
afterAll(async () => {
  await server.close();
});

const cache = () => new RobotsCache({ agent: 'FooBot', userAgentHeader: 'FooBot/1.0', timeoutMs: 5000 });

describe('RobotsCache: any crawler and operator from one fetch', () => {
  it('four crawlers and two operators of one origin: one fetch, the parsed file’s answers', async () => {
    server.requests.length = 0;
    const c = cache();
    const robots = parse(BODY);
    const page = `${server.origin}/blog/post`;
    for (const agent of ['GPTBot', 'Googlebot', 'SlowBot', 'ClaudeBot']) {
      expect(await c.isAllowed(page, agent)).toBe(robots.isAllowed(page, agent));
      expect(await c.policy(`${server.origin}/slow/x`, agent)).toMatchObject({ allowed: robots.isAllowed('/slow/x', agent), status: 'ok', crawlDelay: robots.crawlDelay(agent) });
      expect(await c.usage(page, { agent })).toEqual(robots.usage(page, agent));
      expect(await c.crawlDelay(page, agent)).toBe(robots.crawlDelay(agent));
    }
    for (const operator of ['google', 'openai']) {
      expect(await c.operatorUsage(page, operator)).toEqual(robots.operatorUsage('/blog/post', operator));
    }
    expect((await c.operatorUsage(page, 'google')).purposes['train-ai'].answer).toBe('no');
    // The cache's own agent as before.
    expect(await c.policy(`${server.origin}/admin/x`)).toMatchObject({ allowed: false });
    expect(c.stats.fetches).toBe(1);
    expect(server.requests.filter((r) => r.path === '/robots.txt')).toHaveLength(1);
  });

  it('the cache’s own crawler gets its control tokens too (a Googlebot cache: Google-Extended)', async () => {
    const c = new RobotsCache({ agent: 'Googlebot', userAgentHeader: 'Googlebot/2.1', timeoutMs: 5000 });
    const u = await c.usage(`${server.origin}/a`);
    expect({ ...u.purposes }).toEqual({ search: 'unknown', 'train-ai': 'disallowed', 'ai-use': 'disallowed' });
    expect(u).toEqual(parse(BODY).usage('/a', 'Googlebot'));
  });

  it('an unavailable robots.txt: every crawler allowed, nothing stated, control tokens included', async () => {
    const other = await startServer(serve('', {}, 404));
    try {
      const c = cache();
      const r = await c.operatorUsage(`${other.origin}/a`, 'google');
      expect(Object.values(r.purposes).map((p) => [p.answer, p.preference])).toEqual([['yes', 'unknown'], ['yes', 'unknown'], ['yes', 'unknown']]);
      expect(await c.policy(`${other.origin}/a`, 'GPTBot')).toMatchObject({ allowed: true, status: 'unavailable' });
      expect(c.stats.fetches).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('a user mistake is a one-line TypeError, before any fetch', async () => {
    const c = cache();
    await expect(c.isAllowed(`${server.origin}/`, 'Googlebot/2.1')).rejects.toThrow(TypeError);
    await expect(c.operatorUsage(`${server.origin}/`, 'nobody')).rejects.toThrow(/^unknown operator "nobody"/);
    expect(c.stats.fetches).toBe(0);
  });
});
