// `robots classify` over the real corpus reproduces Google's verdicts and
// matching lines for every Googlebot probe: 1 and 2 threads, file and stdin,
// TSV and JSON lines. (--max-bytes Infinity: Google's open-source parser, which
// made the verdicts, reads whole files; three corpus files exceed 512,000 octets.)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { robots } from '../helpers/cli-run.js';
import { HAVE_SHARED, readJsonLinesGz, SHARED, type GoogleVerdict } from '../helpers/shared-data.js';

describe.skipIf(!HAVE_SHARED)('robots classify on the real corpus, against Google', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'robots-corpus-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const verdicts = HAVE_SHARED ? readJsonLinesGz<GoogleVerdict>('corpus/google-verdicts-seed1.jsonl.gz').filter((v) => v.agent === 'Googlebot') : [];
  const urls = path.join(dir, 'probes.txt');
  writeFileSync(urls, verdicts.map((v) => v.url).join('\n') + '\n');
  const want = verdicts.map((v) => `${v.allowed ? 'allowed' : 'disallowed'}\t${v.line}\t${v.url}\n`).join('');
  const base = ['classify', '--robots-dir', path.join(SHARED, 'corpus', 'robots'), '--agent', 'Googlebot', '--profile', 'google', '--max-bytes', 'Infinity'];

  it('has every Googlebot probe', () => expect(verdicts).toHaveLength(169_640));

  for (const threads of ['1', '2']) {
    it(`reproduces every verdict and line, in input order, with ${threads} thread(s)`, async () => {
      const r = await robots([...base, '--threads', threads, urls]);
      expect(r.stderr).toMatch(/169,640 URLs, 4,241 hosts/);
      expect(r.status).toBe(0);
      expect(r.stdout === want).toBe(true); // (a diff of 170k lines would drown the report)
    });
  }

  it('reproduces them from stdin as JSON lines', async () => {
    const r = await robots([...base, '--format', 'jsonl', '--threads', '2'], verdicts.map((v) => v.url).join('\n'));
    expect(r.status).toBe(0);
    const got = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    const mismatches = got.filter((g, i) => g.url !== verdicts[i].url || g.allowed !== verdicts[i].allowed || g.line !== verdicts[i].line);
    expect(got).toHaveLength(169_640);
    expect(mismatches).toEqual([]);
  });
});
