// robots audit on a hostile robots.txt (issue 41, the built command): thirty
// allows `/b{i}aaa…` of 16 KiB, then thirty disallows `/*aaa…ab{i}`, whose glob
// matching was quadratic in the rules' octets (a minute or more for this one
// site). It finishes, every crawler `part`, exact, and classify (the compiled
// matcher: no code shared with the audit's witnesses) gives each proof path the
// verdict the audit says it proves. The work itself is counted in
// test/bulk/audit-glob-work.test.ts; here the timeouts are hang guards only.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { robots } from '../helpers/cli-run.js';
import type { SiteRecord } from '../../src/bulk/audit/site-audit.js';
import { hostileRobotsTxt } from '../helpers/hostile-globs.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-audit-globs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sites = path.join(dir, 'robots');
mkdirSync(sites);
// (About 1 MB: past the default --max-octets, read whole with Infinity.)
writeFileSync(path.join(sites, 'example.com'), hostileRobotsTxt(16384, 30));

describe('audit: a hostile file of long runs after stars', () => {
  for (const profile of ['rfc', 'google']) {
    // Hang guards: a second now; generous for a loaded machine (before the fix, a minute or more).
    it(`${profile}: every crawler part, its proof paths as classify decides them`, { timeout: 300_000 }, async () => {
      const r = await robots(['audit', '--robots-dir', sites, '--max-octets', 'Infinity', '--profile', profile, '--format', 'jsonl', '-q'], undefined, { killAfterMs: 240_000 });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const [record] = r.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as SiteRecord & { crawlers: { allowedPath?: string; disallowedPath?: string }[] });
      expect(record.crawlers.length).toBe(6);
      const proofs = new Set<string>();
      for (const c of record.crawlers) {
        expect(c.category, c.crawler).toBe('part');
        expect(c.exact).toBe(true);
        proofs.add(`allowed\t${c.allowedPath}`).add(`disallowed\t${c.disallowedPath}`);
      }
      const expected = [...proofs];
      const urls = expected.map((p) => `https://example.com${p.split('\t')[1]}`);
      const verdicts = await robots(['classify', '--robots-dir', sites, '--max-octets', 'Infinity', '--profile', profile, '--agent', 'GPTBot', '-q'], urls.join('\n') + '\n', { killAfterMs: 240_000 });
      expect(verdicts.status).toBe(0);
      expect(verdicts.stdout.split('\n').filter((l) => l !== '').map((l) => l.split('\t')[0])).toEqual(expected.map((p) => p.split('\t')[0]));
    });
  }
});
