// What each run of the built command loads: only the code its command needs, so
// a process that checks one URL (a crawler's shell loop, the tests' hundreds of
// runs) does not compile the Parquet reader and writer or the audit report's
// page. A module loader hook (Node's module.register, given by NODE_OPTIONS)
// records every file the process loads; the files are then searched for a
// definition each of those parts holds. Each part is also shown loaded by the
// run that asks for it, so a renamed definition cannot pass unnoticed.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { robots } from '../helpers/cli-run.js';
import { writeWarc } from '../helpers/warc-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-command-loads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
};

// The hook runs on its own thread: it appends each loaded file's URL to the log the run names.
file('hooks.mjs', `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:') || url.startsWith('node:')) appendFileSync(process.env.ROBOTS_LOAD_LOG, url + '\\n');
  return next(url, context);
}
`);
const REGISTER = pathToFileURL(file('register.mjs', `import { register } from 'node:module';
register('./hooks.mjs', import.meta.url);
`)).href;

/** The parts loaded only when asked, each by a definition only its code holds (the bundler may number a name). */
const PARTS = {
  // The Parquet library: the URL list's reader, and the writer's (for its schema).
  hyparquet: /\nfunction parquetMetadata\d*\(/,
  // --urls-parquet's reader (with its zstd decoder), and the writer of --format parquet.
  parquetUrls: /\nvar ParquetUrls\d* = class/,
  parquetWriter: /\nvar ParquetWriter\d* = class/,
  report: /\nfunction reportPage\d*\(/,
  // warcio (its writer's record type) and pako (its inflater's message): read only what the fast reader leaves.
  warcio: /"application\/warc-fields"/,
  pako: /"incorrect header check"/,
} as const;
/** Node's own modules loaded only when asked: https (with tls) for --robots-warc-list's downloads. */
const BUILTINS = { https: 'node:https' } as const;
type Part = keyof typeof PARTS | keyof typeof BUILTINS;

let runs = 0;
/** Runs the command (it must succeed): the parts the files it loaded hold. */
async function partsLoaded(args: string[], input?: string): Promise<Part[]> {
  const log = path.join(dir, `loaded-${++runs}.txt`);
  writeFileSync(log, '');
  const r = await robots(args, input, { env: { NODE_OPTIONS: `--import=${REGISTER}`, ROBOTS_LOAD_LOG: log } });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const urls = readFileSync(log, 'utf8').split('\n').filter((u) => u !== '');
  const files = urls.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u));
  expect(files.length).toBeGreaterThan(0); // (the hook ran)
  const code = files.map((f) => readFileSync(f, 'utf8')).join('\n');
  return [...(Object.keys(PARTS) as (keyof typeof PARTS)[]).filter((p) => PARTS[p].test(code)), ...(Object.keys(BUILTINS) as (keyof typeof BUILTINS)[]).filter((b) => urls.includes(BUILTINS[b]))];
}

const ROBOTS = file('robots.txt', 'User-agent: *\nDisallow: /private\n');
const ROBOTS_DIR = path.join(dir, 'robots');
mkdirSync(ROBOTS_DIR);
file('robots/shop.example', 'User-agent: *\nDisallow: /cart\n');
const URLS = file('urls.txt', 'https://shop.example/\nhttps://shop.example/cart\n');
const SITES = `${JSON.stringify({ site: 'a.example', status: 'ok', crawlers: [{ crawler: 'GPTBot', category: 'all', exact: true }], contentSignals: [], licenses: [], llmPolicies: [] })}\n`;

describe('each command loads only what it needs', () => {
  it('--version, check, explain, lint, shard: no Parquet, no report', async () => {
    expect(await partsLoaded(['--version'])).toEqual([]);
    expect(await partsLoaded(['check', ROBOTS, 'Googlebot', 'https://a.example/'])).toEqual([]);
    expect(await partsLoaded(['explain', ROBOTS, 'Googlebot', 'https://a.example/'])).toEqual([]);
    expect(await partsLoaded(['lint', ROBOTS])).toEqual([]);
    expect(await partsLoaded(['shard', '--shards', '2', URLS])).toEqual([]);
  });

  it('classify and audit in lines: no Parquet, no report', async () => {
    expect(await partsLoaded(['classify', '-q', '--robots-dir', ROBOTS_DIR, URLS])).toEqual([]);
    expect(await partsLoaded(['classify', '-q', '--robots-dir', ROBOTS_DIR, '--format', 'jsonl', URLS])).toEqual([]);
    expect(await partsLoaded(['audit', '-q', '--robots-dir', ROBOTS_DIR])).toEqual([]);
  });

  it('robots index loads warcio only for a record the fast reader leaves it (a chunked body)', async () => {
    const plain = path.join(dir, 'plain.warc.gz');
    await writeWarc(plain, [{ url: 'https://a.example/robots.txt', body: 'User-agent: *\nDisallow: /a\n' }, { url: 'https://b.example/robots.txt', status: 404 }]);
    expect(await partsLoaded(['index', '--quiet', '--threads', '1', '--out', path.join(dir, 'index-plain'), plain])).toEqual([]);
    const odd = path.join(dir, 'odd.warc.gz');
    await writeWarc(odd, [{ url: 'https://a.example/robots.txt', body: '5\r\nUser-\r\n0\r\n\r\n', headers: { 'Transfer-Encoding': 'chunked' } }]);
    expect(await partsLoaded(['index', '--quiet', '--threads', '1', '--out', path.join(dir, 'index-odd'), odd])).toEqual(['warcio', 'pako']);
  });

  it('robots index loads node:https only to download a list\'s WARC', async () => {
    const warc = await writeWarc(path.join(dir, 'served.warc.gz'), [{ url: 'https://a.example/robots.txt', body: 'User-agent: *\nDisallow: /a\n' }]);
    const server = createServer((_req, res) => res.end(warc));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const list = file('list.txt', `http://127.0.0.1:${(server.address() as AddressInfo).port}/served.warc.gz\n`);
      expect(await partsLoaded(['index', '--quiet', '--out', path.join(dir, 'index-list'), '--robots-warc-list', list])).toEqual(['https']);
    } finally {
      server.close();
    }
  });

  it('--format parquet loads the writer, --urls-parquet the reader, audit report the report', async () => {
    const verdicts = path.join(dir, 'verdicts.parquet');
    expect(await partsLoaded(['classify', '-q', '--robots-dir', ROBOTS_DIR, '--format', 'parquet', '--out', verdicts, URLS])).toEqual(['hyparquet', 'parquetWriter']);
    // (The verdicts' file has a url column: a list of URLs.)
    expect(await partsLoaded(['classify', '-q', '--robots-dir', ROBOTS_DIR, '--urls-parquet', verdicts])).toEqual(['hyparquet', 'parquetUrls']);
    expect(await partsLoaded(['audit', '-q', '--robots-dir', ROBOTS_DIR, '--format', 'parquet', '--out', path.join(dir, 'sites.parquet')])).toEqual(['hyparquet', 'parquetWriter']);
    expect(await partsLoaded(['audit', 'report', '-q', '--out', path.join(dir, 'report.html')], SITES)).toEqual(['report']);
  });
});
