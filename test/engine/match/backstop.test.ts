// The backstop (src/engine/match/backstop.ts): a matcher joins the
// FinalizationRegistry only if it is still live when its job ends, so a
// crawler's compile, check, dispose never pays for a registration; one kept or
// dropped without dispose() is registered, and freed once collected.
import { describe, expect, it } from 'vitest';
import { backstopRegistrations, coreAllocatedBytes, parse } from '../../../src/internal.js';
import { gc } from '../../helpers/gc.js';

const BODY = 'User-agent: *\nDisallow: /private/\nAllow: /private/ok\nDisallow: /*.pdf$\n';

describe('backstop: matchers disposed in their job are never registered', () => {
  it('compile, check, dispose, file after file: no registration; in any order within the job: none either', async () => {
    const before = backstopRegistrations();
    for (let i = 0; i < 1000; i++) {
      const m = parse(`${BODY}Disallow: /x${i}\n`).compile('FooBot');
      expect(m.isAllowed(`https://example.com/x${i}`)).toBe(false);
      m.dispose();
    }
    const held = Array.from({ length: 20 }, () => parse(BODY).compile('FooBot'));
    for (const m of held.reverse()) m.dispose(); // (the first ones made are not the last waiting)
    await Promise.resolve(); // (the job ends: what still waits is registered)
    expect(backstopRegistrations() - before).toBe(0);
  });

  it('a matcher live at the end of its job is registered; kept, it still decides; dropped, it is freed once collected', async () => {
    const robots = parse(BODY);
    robots.compile('FooBot').dispose(); // (the compiler's scratch is made)
    const before = backstopRegistrations();
    const kept = robots.compile('FooBot');
    const allocated = coreAllocatedBytes();
    (() => {
      for (let i = 0; i < 600; i++) robots.compile('FooBot').isAllowed(`https://example.com/${i}.pdf`); // (past the 256 a job holds waiting)
    })();
    expect(coreAllocatedBytes()).toBeGreaterThan(allocated + 600 * 64);
    await Promise.resolve();
    expect(backstopRegistrations() - before).toBe(601);
    for (let turn = 0; turn < 50 && coreAllocatedBytes() > allocated + 4096; turn++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(coreAllocatedBytes()).toBeLessThanOrEqual(allocated + 4096);
    expect(kept.isAllowed('https://example.com/private/x')).toBe(false);
    expect(kept.isAllowed('https://example.com/private/ok')).toBe(true);
    kept.dispose();
  });
});
