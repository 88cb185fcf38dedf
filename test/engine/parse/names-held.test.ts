// The crawler's names stay in the core from one compile to the next (core.ts
// putNames: a crawler compiles host after host for the same names) and are
// written again whenever they may not be there: another crawler's names, or the
// hot compiler's ranges written over them. Compiles for several crawlers in
// turn, cold and hot, must each select their own crawler's group.
import { describe, expect, it } from 'vitest';
import { parse } from '../../../src/internal.js';

const BODY = ['User-agent: googlebot', 'Disallow: /g', 'User-agent: bingbot-news', 'Disallow: /b', 'User-agent: *', 'Disallow: /s'].join('\n');
const PATHS = ['/g', '/b', '/s', '/'];
/** Each crawler's verdicts on PATHS: its own group's rule, or `*`'s. */
const EXPECTED: Record<string, boolean[]> = {
  Googlebot: [false, true, true, true],
  'bingbot-news': [true, false, true, true],
  Otherbot: [true, true, false, true],
  'Googlebot-Image': [true, true, false, true], // (under google a name is compared whole: `*` applies)
};

describe("the crawler's names held in the core", () => {
  it('compiles for crawlers in turn, cold and hot, each select their own group', () => {
    const agents = Object.keys(EXPECTED);
    for (let i = 0; i < 64; i++) {
      const agent = agents[(i * 7 + (i >> 2)) % agents.length];
      const hot = i % 3 === 0;
      const robots = parse(BODY, { profile: 'google' });
      if (i % 5 === 0) expect(robots.sitemaps).toEqual([]); // (records read first: the compile selects from them)
      const m = robots.compile(agent, hot ? { coldOctets: 0 } : undefined);
      expect(PATHS.map((p) => m.isAllowed(`https://example.com${p}`)), `${agent}, compile ${i}${hot ? ', hot' : ''}`).toEqual(EXPECTED[agent]);
      m.dispose();
    }
  });
});
