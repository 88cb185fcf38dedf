// --robots-warc over the real corpus: a WARC made of the corpus files (each
// the 200 capture of https://<host>/robots.txt, written by warcio, gzip per
// record) gives the same verdicts and lines as --robots-dir on the same files
// for every Googlebot probe, in input order, with 1 and 2 threads: Google's;
// and for two crawlers at once (--crawlers), each as its own --robots-dir run.
// --robots-dir on these probes gives Google's verdicts with 1 and 2 threads
// (test/cli/corpus.test.ts): Google's is --robots-dir's, and no run here
// repeats that one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { robots } from '../helpers/cli-run.js';
import { HAVE_SHARED, readJsonLinesGz, SHARED, type GoogleVerdict } from '../helpers/shared-data.js';
import { corpusWarcs } from '../helpers/corpus-warcs.js';

describe.skipIf(!HAVE_SHARED)('robots classify --robots-warc on the real corpus', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'robots-warc-corpus-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let warc = '';
  const urls = path.join(dir, 'probes.txt');
  const robotsDir = path.join(SHARED, 'corpus', 'robots');
  let want = '';

  beforeAll(async () => {
    warc = (await corpusWarcs()).all; // (the run's one WARC of the corpus: test/helpers/corpus-warcs.ts)
    const verdicts = readJsonLinesGz<GoogleVerdict>('corpus/google-verdicts-seed1.jsonl.gz').filter((v) => v.agent === 'Googlebot');
    writeFileSync(urls, verdicts.map((v) => v.url).join('\n') + '\n');
    want = verdicts.map((v) => `${v.allowed ? 'allowed' : 'disallowed'}\t${v.line}\t${v.url}\n`).join('');
  }, 120_000);

  const common = ['--agent', 'Googlebot', '--profile', 'google', '--max-bytes', 'Infinity'];
  /** Bingbot's own --robots-dir run, made once: any thread count writes the same octets (test/cli/threads.test.ts). */
  let bingbotAlone: Promise<string> | undefined;
  const bingbot = () => (bingbotAlone ??= robots(['classify', '--robots-dir', robotsDir, '--agent', 'Bingbot', '--profile', 'google', '--max-bytes', 'Infinity', '-q', urls]).then((r) => r.stdout));
  for (const threads of ['1', '2']) {
    it(`every verdict and line as --robots-dir's and Google's, with ${threads} thread(s)`, async () => {
      const r = await robots(['classify', '--robots-warc', warc, ...common, '--threads', threads, urls]);
      expect(r.stderr).toMatch(/indexed 4,241 responses/);
      expect(r.stderr).toMatch(/169,640 URLs, 4,241 hosts/);
      expect(r.status).toBe(0);
      expect(r.stdout === want).toBe(true); // (a diff of 170k lines would drown the report)
    }, 120_000);

    it(`two crawlers at once, each as its own --robots-dir run, with ${threads} thread(s)`, async () => {
      const both = await robots(['classify', '--robots-warc', warc, '--crawlers', 'Googlebot,Bingbot', '--profile', 'google', '--max-bytes', 'Infinity', '--format', 'jsonl', '--threads', threads, '-q', urls]);
      expect(both.status).toBe(0);
      const lines = both.stdout.trimEnd().split('\n');
      for (const crawler of ['Googlebot', 'Bingbot']) {
        // Googlebot's --robots-dir run is Google's verdicts (above).
        const alone = { stdout: crawler === 'Googlebot' ? want : await bingbot() };
        const mine = lines.map((l) => {
          const j = JSON.parse(l);
          return `${j.crawlers[crawler].allowed ? 'allowed' : 'disallowed'}\t${j.crawlers[crawler].line}\t${j.url}\n`;
        }).join('');
        expect(mine === alone.stdout, crawler).toBe(true);
      }
    }, 120_000);
  }
});
