// Over WARC captures, an origin's robots.txt follows RobotsCache's policy over fetches, each
// capture taken as a fetch at its WARC-Date: an unreachable capture (5xx, 429) after a good one
// keeps the good one's rules (RFC 9309 2.3.1.4, Google's reading), so a time series (--as-of)
// records no opt-out the site never made; unreachable for 30 days with no copy, it is unavailable;
// a 4xx is no copy. The same with --robots-warc, --robots-warc-list and --robots-index (indexes
// made apart, read together), whatever the order the captures are read in.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { robots } from '../helpers/cli-run.js';
import { writeWarc, type Capture } from '../helpers/warc-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-warc-copy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (...p: string[]) => path.join(dir, ...p);
const rules = (p: string) => `User-agent: *\nDisallow: /${p}\n`;
const day = (d: string) => `${d}T00:00:00Z`;

/** Read first: the later failures. Read second: the good copies, older, and the rest. */
const FIRST: Capture[] = [
  { url: 'http://copy.example/robots.txt', status: 503, date: day('2024-02-10') },
  { url: 'http://long.example/robots.txt', status: 500, date: day('2024-06-10') },
  { url: 'http://redir.example/robots.txt', status: 503, date: day('2024-02-10') },
  { url: 'http://nocopy.example/robots.txt', status: 503, date: day('2024-02-20') },
];
const SECOND: Capture[] = [
  { url: 'http://copy.example/robots.txt', body: rules('jan'), date: day('2024-01-10') },
  { url: 'http://copy.example/robots.txt', body: rules('mar'), date: day('2024-03-10') },
  { url: 'http://long.example/robots.txt', body: rules('jan'), date: day('2024-01-10') },
  { url: 'http://long.example/robots.txt', status: 429, date: day('2024-02-10') },
  { url: 'http://nocopy.example/robots.txt', status: 503, date: day('2024-01-10') },
  { url: 'http://nocopy.example/robots.txt', status: 503, date: day('2024-01-25') },
  { url: 'http://gone.example/robots.txt', status: 404, date: day('2024-01-10') },
  { url: 'http://gone.example/robots.txt', status: 503, date: day('2024-02-10') },
  { url: 'http://redir.example/robots.txt', status: 301, headers: { Location: 'https://www.redir.example/robots.txt' }, date: day('2024-01-10') },
  { url: 'https://www.redir.example/robots.txt', body: rules('r'), date: day('2024-01-10') },
];
const URLS = ['http://copy.example/jan', 'http://copy.example/mar', 'http://long.example/jan', 'http://nocopy.example/x', 'http://gone.example/x', 'http://redir.example/r'];
const input = URLS.join('\n') + '\n';

/** Each URL's verdict and its host's robots.txt, as of each date. */
const SERIES: [string | undefined, string[]][] = [
  ['2024-01-31', ['disallowed ok 200', 'allowed ok 200', 'disallowed ok 200', 'disallowed unreachable 503', 'allowed unavailable 404', 'disallowed ok 200']],
  // copy, long, redir: a 503 or 429 after their January copy: the copy. nocopy: unreachable since
  // January 10 with no copy, so unavailable from 30 days on. gone: a 404 is no copy.
  ['2024-02-20', ['disallowed ok 200', 'allowed ok 200', 'disallowed ok 200', 'allowed unavailable 503', 'disallowed unreachable 503', 'disallowed ok 200']],
  ['2024-03-31', ['allowed ok 200', 'disallowed ok 200', 'disallowed ok 200', 'allowed unavailable 503', 'disallowed unreachable 503', 'disallowed ok 200']],
  // long: unreachable again four months on; the copy still holds (as the cache keeps it).
  ['2024-06-30', ['allowed ok 200', 'disallowed ok 200', 'disallowed ok 200', 'allowed unavailable 503', 'disallowed unreachable 503', 'disallowed ok 200']],
  [undefined, ['allowed ok 200', 'disallowed ok 200', 'disallowed ok 200', 'allowed unavailable 503', 'disallowed unreachable 503', 'disallowed ok 200']],
];

const w1 = at('w1.warc.gz');
const w2 = at('w2.warc.gz');
const SOURCES: Record<string, string[]> = {
  '--robots-warc': ['--robots-warc', w1, '--robots-warc', w2],
  '--robots-warc-list': ['--robots-warc-list', at('list.txt')],
  '--robots-index (one)': ['--robots-index', at('idx')],
  '--robots-index (made apart)': ['--robots-index', at('idx1'), '--robots-index', at('idx2')],
};

describe('over WARC captures, a 5xx after a good capture keeps the good one, as RobotsCache keeps its copy', () => {
  beforeAll(async () => {
    await writeWarc(w1, FIRST);
    await writeWarc(w2, SECOND);
    writeFileSync(at('list.txt'), `${w1}\n${w2}\n`);
    for (const [out, files] of [['idx', [w1, w2]], ['idx1', [w1]], ['idx2', [w2]]] as const) {
      expect((await robots(['index', '--shards', '3', '--out', at(out), '-q', ...files])).status).toBe(0);
    }
  }, 60_000); // (three index runs: generous for a loaded machine)

  for (const [name, source] of Object.entries(SOURCES)) {
    it(`a time series with ${name}`, async () => {
      for (const [asOf, want] of SERIES) {
        const r = await robots(['classify', ...source, ...(asOf === undefined ? [] : ['--as-of', asOf]), '--format', 'jsonl', '-q'], input);
        expect(r.status, r.stderr).toBe(0);
        const got = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l)).map((g) => `${g.allowed ? 'allowed' : 'disallowed'} ${g.robots} ${g.http}`);
        expect(got, `${name} as of ${asOf}`).toEqual(want);
      }
    }, 60_000); // (five commands: generous for a loaded machine)
  }
});
