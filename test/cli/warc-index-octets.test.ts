// An index's bodies are cut at the --max-octets it was made with (its manifest says which):
// classify --robots-index with a larger --max-octets cannot have the octets past the cut, so it
// is refused in one line naming both limits and the fix; with the index's or a smaller one the
// verdicts are --robots-warc's with that limit, line for line. Captures cut to --max-octets are
// counted and named in one warning line, not one line each.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectUsageError, robots } from '../helpers/cli-run.js';
import { writeWarc } from '../helpers/warc-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-warc-index-octets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (...p: string[]) => path.join(dir, ...p);

const DEFAULT = 512_000;
/**
 * 700,000 octets: a line cut by the default limit in its middle (`Disallow: /html/E`, which
 * disallows /html/Else where the whole line does not), and a line between 512,000 and 600,000.
 */
function longBody(h: number): string {
  let s = `User-agent: *\nDisallow: /early-${h}\n`;
  const pad = (to: number) => {
    while (s.length + 100 <= to) s += `# ${'x'.repeat(97)}\n`;
    s += `#${'y'.repeat(to - s.length - 2)}\n`;
  };
  pad(DEFAULT - 'Disallow: /html/E'.length);
  s += 'Disallow: /html/Everything\n';
  pad(550_000);
  s += 'Disallow: /late\n';
  pad(700_000);
  return s;
}
const HOSTS = 5;
const warc = at('long.warc.gz');
const urls = Array.from({ length: HOSTS }, (_, h) => ['early-' + h, 'html/Else', 'html/Everything', 'late', 'public'].map((p) => `http://big${h}.example/${p}`).join('\n')).join('\n') + '\nhttp://small.example/private\n';
const lines = (stdout: string) => (stdout === '' ? [] : stdout.trimEnd().split('\n'));
const verdicts = (stdout: string) => lines(stdout).slice(0, 5).map((l) => l.split('\t')[0]);

describe('classify --robots-index and the --max-octets the index was made with', () => {
  beforeAll(async () => {
    const captures = Array.from({ length: HOSTS }, (_, h) => ({ url: `http://big${h}.example/robots.txt`, body: longBody(h) }));
    await writeWarc(warc, [...captures, { url: 'http://small.example/robots.txt', body: 'User-agent: *\nDisallow: /private\n' }]);
    expect((await robots(['index', '--shards', '2', '--out', at('idx-default'), '-q', warc])).status).toBe(0);
    expect((await robots(['index', '--shards', '2', '--out', at('idx-600000'), '--max-octets', '600000', '-q', warc])).status).toBe(0);
    expect((await robots(['index', '--shards', '2', '--out', at('idx-whole'), '--max-octets', 'Infinity', '-q', warc])).status).toBe(0);
  }, 120_000); // (three indexes of 3.5 MB of bodies: generous for a loaded machine)

  it('a larger --max-octets than the index was made with is refused in one line: both limits, and the fix', async () => {
    for (const asked of ['Infinity', '600000']) {
      const r = await robots(['classify', '--robots-index', at('idx-default'), '--max-octets', asked], urls);
      expectUsageError(r, new RegExp(`--max-octets ${asked}.*idx-default was made with --max-octets 512000.*robots index --max-octets ${asked}`));
    }
    expectUsageError(await robots(['classify', '--robots-index', at('idx-600000'), '--max-octets', 'Infinity'], urls), /idx-600000 was made with --max-octets 600000/);
  });

  it('several indexes: the smallest limit among them rules, and the refusal names its index', async () => {
    const r = await robots(['classify', '--robots-index', at('idx-whole'), '--robots-index', at('idx-default'), '--max-octets', 'Infinity'], urls);
    expectUsageError(r, /idx-default was made with --max-octets 512000/);
    const ok = await robots(['classify', '--robots-index', at('idx-whole'), '--robots-index', at('idx-default'), '-q'], urls);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe((await robots(['classify', '--robots-warc', warc, '-q'], urls)).stdout);
  });

  it("the index's limit or a smaller one: --robots-warc's verdicts with that limit, the bodies cut further where asked", async () => {
    const cases: [string, string | undefined, string[]][] = [
      // (index, --max-octets, big0's verdicts: early, html/Else, html/Everything, late, public)
      ['idx-default', undefined, ['disallowed', 'disallowed', 'disallowed', 'allowed', 'allowed']],
      ['idx-600000', undefined, ['disallowed', 'disallowed', 'disallowed', 'allowed', 'allowed']],
      ['idx-whole', undefined, ['disallowed', 'disallowed', 'disallowed', 'allowed', 'allowed']],
      ['idx-600000', '600000', ['disallowed', 'allowed', 'disallowed', 'disallowed', 'allowed']],
      ['idx-whole', '600000', ['disallowed', 'allowed', 'disallowed', 'disallowed', 'allowed']],
      ['idx-whole', 'Infinity', ['disallowed', 'allowed', 'disallowed', 'disallowed', 'allowed']],
    ];
    for (const [index, limit, want] of cases) {
      const flag = limit === undefined ? [] : ['--max-octets', limit];
      const viaIndex = await robots(['classify', '--robots-index', at(index), ...flag, '-q'], urls);
      const viaWarc = await robots(['classify', '--robots-warc', warc, ...flag, '-q'], urls);
      expect(viaIndex.status, viaIndex.stderr).toBe(0);
      expect(verdicts(viaIndex.stdout), `${index} ${limit}`).toEqual(want);
      expect(viaIndex.stdout, `${index} ${limit}`).toBe(viaWarc.stdout);
    }
  }, 60_000); // (12 commands: generous for a loaded machine)

  it('captures cut to --max-octets: one warning line that counts them and names the first 3, with -q too', async () => {
    const one = /^robots (index|classify): warning: 5 captures are longer than --max-octets \(512000\) once decoded, their first 512000 octets used: .*big0\.example.*big1\.example.*big2\.example.* and 2 more$/;
    for (const quiet of [[], ['-q']]) {
      const index = await robots(['index', '--shards', '2', '--out', at(`idx-warn${quiet.length}`), ...quiet, warc]);
      expect(index.status).toBe(0);
      const warnings = lines(index.stderr).filter((l) => l.includes('warning'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(one);
      expect(warnings[0]).toMatch(/long\.warc\.gz/);
      if (quiet.length > 0) expect(lines(index.stderr)).toHaveLength(1);
      else expect(index.stderr).toMatch(/; 5 captures cut to --max-octets \(said above\)/);
      const classify = await robots(['classify', '--robots-warc', warc, ...quiet], urls);
      expect(classify.status).toBe(0);
      const said = lines(classify.stderr).filter((l) => l.includes('warning'));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(one);
    }
    // One capture cut: named alone.
    const single = at('one.warc.gz');
    await writeWarc(single, [{ url: 'http://big0.example/robots.txt', body: longBody(0) }]);
    const r = await robots(['classify', '--robots-warc', single, '-q'], 'http://big0.example/x\n');
    expect(lines(r.stderr)).toEqual([expect.stringMatching(/^robots classify: warning: .*one\.warc\.gz: the capture of http:\/\/big0\.example\/robots\.txt \(record at uncompressed offset \d+\) is longer than --max-octets once decoded: its first 512000 octets are used$/)]);
  }, 60_000); // (four commands over 3.5 MB of bodies: generous for a loaded machine)

  it('a manifest whose --max-octets does not read is refused as damaged', async () => {
    const d = at('idx-default');
    const m = JSON.parse((await import('node:fs')).readFileSync(path.join(d, 'index.json'), 'utf8'));
    writeFileSync(path.join(d, 'index.json'), JSON.stringify({ ...m, maxOctets: 'lots' }));
    try {
      expectUsageError(await robots(['classify', '--robots-index', d], urls), /index\.json is damaged \(its maxOctets does not read\)/);
    } finally {
      writeFileSync(path.join(d, 'index.json'), JSON.stringify(m));
    }
  });
});
