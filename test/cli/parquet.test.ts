// Parquet, both ways, end to end (the built command): classify's and audit's
// --format parquet read back by DuckDB (its rows the TSV's and JSON lines'), in
// row groups of --row-group rows however many rows there are; and URL lists read
// from Parquet files DuckDB wrote as Common Crawl's columnar index is shaped (url,
// url_host_name, fetch_status, fetch_time, crawl; gzip, zstd, snappy), whose
// verdicts are those of the same URLs as lines, with their other columns passed
// through to each URL's own line, over shards too; and one-line errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { robots } from '../helpers/cli-run.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-parquet-'));
const CORPUS = path.join(SHARED, 'corpus', 'robots');
let duck: DuckDBConnection;

beforeAll(async () => {
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => {
  duck?.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

/** Rows as JSON values (DuckDB's: a BIGINT as a string, a TIMESTAMP as text). */
async function query(sql: string): Promise<Record<string, unknown>[]> {
  return (await duck.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
}
const q = (file: string) => `'${file.replace(/'/g, "''")}'`;
const lines = (text: string) => text.split('\n').filter((l) => l !== '');
/** Rows per row group of a Parquet file, as DuckDB reads its footer. */
async function rowGroups(file: string): Promise<number[]> {
  const rows = await query(`SELECT row_group_id, any_value(row_group_num_rows) AS n FROM parquet_metadata(${q(file)}) GROUP BY row_group_id ORDER BY row_group_id`);
  return rows.map((r) => Number(r.n));
}

/** URLs over the corpus's sites: paths their files rule on, and some they do not. */
function corpusUrls(sites: number): string[] {
  const hosts = readdirSync(CORPUS).sort().slice(0, sites);
  const paths = ['/', '/search?q=robots', '/wp-admin/', '/private/a.html', '/cgi-bin/x', '/images/a.png', '/index.htm'];
  return hosts.flatMap((h, i) => paths.map((p) => `${i % 5 === 0 ? 'http' : 'https'}://${h}${p}`));
}

describe.skipIf(!HAVE_SHARED)('--format parquet: typed columns, read back by DuckDB', () => {
  const urls = path.join(dir, 'urls.txt');
  beforeAll(() => writeFileSync(urls, corpusUrls(400).join('\n') + '\n'));

  it('classify: the JSON lines\' fields, a row per line', { timeout: 300_000 }, async () => {
    const out = path.join(dir, 'plain.parquet');
    const json = await robots(['classify', '-q', '--robots-dir', CORPUS, '--format', 'jsonl', urls]);
    expect(json.status).toBe(0);
    const r = await robots(['classify', '-q', '--robots-dir', CORPUS, '--format', 'parquet', '--out', out, urls]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const types = await query(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM ${q(out)})`);
    expect(types).toEqual([
      { column_name: 'url', column_type: 'VARCHAR' },
      { column_name: 'robots', column_type: 'VARCHAR' },
      { column_name: 'http', column_type: 'INTEGER' },
      { column_name: 'allowed', column_type: 'BOOLEAN' },
      { column_name: 'line', column_type: 'INTEGER' },
      { column_name: 'rule', column_type: 'VARCHAR' },
    ]);
    const expected = lines(json.stdout).map((l) => ({ http: null, ...JSON.parse(l) }));
    const got = await query(`SELECT * FROM ${q(out)}`);
    expect(got.length).toBe(2800);
    expect(got).toEqual(expected);
    // (Some of each verdict: the comparison is not of a column of one value.)
    expect(got.some((x) => x.allowed === false) && got.some((x) => x.allowed === true)).toBe(true);
  });

  it('classify --crawlers --operators: TSV\'s columns, a verdict a boolean', { timeout: 300_000 }, async () => {
    const out = path.join(dir, 'crawlers.parquet');
    const args = ['classify', '-q', '--robots-dir', CORPUS, '--crawlers', 'GPTBot,Googlebot,Baiduspider', '--usage', '--operators', 'openai,google', urls];
    const tsv = await robots(args);
    expect(tsv.status).toBe(0);
    const r = await robots([...args.slice(0, -1), '--format', 'parquet', '--out', out, urls]);
    expect(r.status).toBe(0);
    const [header, ...rows] = lines(tsv.stdout).map((l) => l.split('\t'));
    const got = await query(`SELECT * FROM ${q(out)}`);
    // Parquet carries what JSON lines do: each crawler's line too (a TSV has none), and robots/http.
    const cols = Object.keys(got[0]);
    expect(cols).toEqual(['url', 'robots', 'http', ...['GPTBot', 'Googlebot', 'Baiduspider'].flatMap((c) => [c, `${c}:line`, `${c}:search`, `${c}:train-ai`, `${c}:ai-use`]),
      ...['openai', 'google'].flatMap((o) => [`${o}:search`, `${o}:train-ai`, `${o}:ai-use`])]);
    const asTsv = got.map((g) => header.map((h) => {
      const v = g[h];
      return typeof v === 'boolean' ? (v ? 'allowed' : 'disallowed') : String(v);
    }));
    expect(asTsv).toEqual(rows);
    expect(got.filter((g) => g.Googlebot === false).length).toBeGreaterThan(0);
  });

  it('audit: the TSV\'s columns, typed, in row groups of --row-group', { timeout: 600_000 }, async () => {
    const out = path.join(dir, 'sites.parquet');
    const args = ['audit', '-q', '--robots-dir', CORPUS, '--shard', '0/3', '--crawlers', 'GPTBot,Googlebot,Baiduspider', '--operators', 'google'];
    const tsv = await robots(args, undefined, { killAfterMs: 600_000 });
    expect(tsv.status).toBe(0);
    const r = await robots([...args, '--format', 'parquet', '--row-group', '300', '--out', out], undefined, { killAfterMs: 600_000 });
    expect(r.status).toBe(0);
    const [header, ...rows] = lines(tsv.stdout).map((l) => l.split('\t'));
    const types = Object.fromEntries((await query(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM ${q(out)})`)).map((t) => [t.column_name, t.column_type]));
    expect(Object.keys(types)).toEqual(header);
    expect(types).toMatchObject({ site: 'VARCHAR', http: 'INTEGER', GPTBot: 'VARCHAR', 'GPTBot:named': 'VARCHAR', 'GPTBot:purposes-vary': 'BOOLEAN', 'google:train-ai': 'VARCHAR', 'content-signal': 'VARCHAR' });
    const got = await query(`SELECT * FROM ${q(out)}`);
    const asTsv = got.map((g) => header.map((h) => {
      const v = g[h];
      return v === null ? '' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);
    }));
    expect(asTsv).toEqual(rows);
    // A third of 4,241 sites, 300 rows a group: every group full but the last.
    const groups = await rowGroups(out);
    expect(groups.length).toBe(Math.ceil(rows.length / 300));
    expect(groups.slice(0, -1).every((n) => n === 300)).toBe(true);
    expect(groups.reduce((a, b) => a + b, 0)).toBe(rows.length);
  });

  it('audit across crawls with --ranks: a crawl column of text, a rank column of numbers (null unranked)', { timeout: 300_000 }, async () => {
    const crawl = (name: string, body: string) => {
      const d = path.join(dir, name);
      mkdirSync(d, { recursive: true });
      for (const host of ['a.example', 'b.example', 'c.example']) writeFileSync(path.join(d, host), host === 'b.example' ? body : 'User-agent: *\nDisallow: /private/\n');
      return d;
    };
    const before = crawl('crawl-1', 'User-agent: *\nAllow: /\n');
    const after = crawl('crawl-2', 'User-agent: GPTBot\nDisallow: /\n');
    const ranks = path.join(dir, 'ranks.csv');
    writeFileSync(ranks, '1,a.example\n20000,b.example\n');
    const out = path.join(dir, 'crawls.parquet');
    const args = ['audit', '-q', '--crawl', `2025=${before}`, '--crawl', `2026=${after}`, '--ranks', ranks, '--crawlers', 'GPTBot'];
    const tsv = await robots(args);
    expect(tsv.status).toBe(0);
    const r = await robots([...args, '--format', 'parquet', '--out', out]);
    expect(r.status).toBe(0);
    const types = Object.fromEntries((await query(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM ${q(out)})`)).map((t) => [t.column_name, t.column_type]));
    expect(types).toMatchObject({ crawl: 'VARCHAR', site: 'VARCHAR', rank: 'INTEGER', GPTBot: 'VARCHAR' });
    const got = await query(`SELECT crawl, site, rank, GPTBot FROM ${q(out)}`);
    expect(got).toEqual([
      { crawl: '2025', site: 'a.example', rank: 1, GPTBot: 'part' },
      { crawl: '2025', site: 'b.example', rank: 20000, GPTBot: 'none' },
      { crawl: '2025', site: 'c.example', rank: null, GPTBot: 'part' },
      { crawl: '2026', site: 'a.example', rank: 1, GPTBot: 'part' },
      { crawl: '2026', site: 'b.example', rank: 20000, GPTBot: 'all' },
      { crawl: '2026', site: 'c.example', rank: null, GPTBot: 'part' },
    ]);
    const [header, ...rows] = lines(tsv.stdout).map((l) => l.split('\t'));
    expect(header.slice(0, 3)).toEqual(['crawl', 'site', 'rank']);
    expect(rows.map((row) => row.slice(0, 3).join(' '))).toEqual(got.map((g) => `${g.crawl} ${g.site} ${g.rank ?? ''}`));
  });
});

describe('--format parquet: memory bounded by a row group', () => {
  it('20,000 URLs: groups of --row-group rows, each written as it fills', { timeout: 600_000 }, async () => {
    const urls = path.join(dir, 'many.txt');
    writeFileSync(urls, Array.from({ length: 20_000 }, (_, i) => `https://h${i % 977}.example/${i % 3 === 0 ? 'private/' : ''}p${i}`).join('\n') + '\n');
    const robotsTxt = path.join(dir, 'robots.txt');
    writeFileSync(robotsTxt, 'User-agent: *\nDisallow: /private/\n');
    const out = path.join(dir, 'many.parquet');
    const r = await robots(['classify', '-q', '--robots', robotsTxt, '--format', 'parquet', '--row-group', '1000', '--out', out, urls], undefined, { killAfterMs: 600_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const groups = await rowGroups(out);
    expect(groups).toEqual(new Array(20).fill(1_000));
    const [counts] = await query(`SELECT count(*) AS n, count(*) FILTER (WHERE NOT allowed) AS disallowed FROM ${q(out)}`);
    expect(counts).toEqual({ n: '20000', disallowed: String(Math.ceil(20_000 / 3)) });
  });
});

/** A Common Crawl index's rows: url, url_host_name, fetch_status, fetch_time, crawl, and a row number to check each line's join. */
interface IndexRow {
  url: string | null;
  url_host_name: string | null;
  fetch_status: number;
  row: number;
}

/** Rows written by DuckDB as Common Crawl's columnar index is shaped, compressed as asked. */
async function writeIndex(file: string, rows: IndexRow[], compression: string, groupRows: number): Promise<void> {
  const json = `${file}.jsonl`;
  writeFileSync(json, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  await duck.run(`COPY (SELECT url, url_host_name, fetch_status::SMALLINT AS fetch_status, TIMESTAMP '2025-09-01 12:00:00' + to_seconds(row) AS fetch_time,
    'CC-MAIN-2025-38' AS crawl, row::BIGINT AS row FROM read_json(${q(json)}, columns = {url: 'VARCHAR', url_host_name: 'VARCHAR', fetch_status: 'INTEGER', row: 'INTEGER'}) ORDER BY row)
    TO ${q(file)} (FORMAT parquet, COMPRESSION ${compression}, ROW_GROUP_SIZE ${groupRows})`);
}

describe.skipIf(!HAVE_SHARED)('--urls-parquet: a Parquet URL list (Common Crawl\'s columnar index)', () => {
  // Real URLs, and rows a list of lines cannot hold as they are: no URL, a blank one,
  // blanks around one, a line end or a tab inside one.
  const real = corpusUrls(300);
  const odd = [null, '', '  \t', `  ${real[3]}\t`, 'https://www.example.com/a\nb', 'https://www.example.com/c\r\nd', 'https://www.example.com/e\tf', '#not a url'];
  const urls = [...real.slice(0, 700), ...odd, ...real.slice(700)];
  const rows: IndexRow[] = urls.map((url, row) => ({ url, url_host_name: url === null ? null : (/^\w+:\/\/([^/]*)/.exec(url)?.[1] ?? null), fetch_status: 200 + (row % 7), row }));
  /** The same URLs as lines, as the option says it reads them: blanks around trimmed, a line end in one percent-encoded, blank ones skipped. */
  const asLines = urls.flatMap((u) => {
    const t = (u ?? '').replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, '');
    return t === '' ? [] : [t.replace(/\r/g, '%0D').replace(/\n/g, '%0A')];
  });
  /** The rows classify gives a line, in order. */
  const classified = rows.filter((r) => (r.url ?? '').trim() !== '');
  const list = path.join(dir, 'cc-index.gzip.parquet');
  const text = path.join(dir, 'cc-urls.txt');

  beforeAll(async () => {
    await writeIndex(list, rows, 'gzip', 500);
    writeFileSync(text, asLines.join('\n') + '\n');
    expect(asLines.length).toBe(classified.length);
  });

  it('the verdicts of the same URLs as lines, whatever the compression (gzip, zstd, snappy)', { timeout: 300_000 }, async () => {
    const args = ['classify', '-q', '--robots-dir', CORPUS, '--crawlers', 'GPTBot,Googlebot', '--format', 'jsonl'];
    const fromLines = await robots([...args, text]);
    expect(fromLines.status).toBe(0);
    expect(lines(fromLines.stdout).length).toBe(classified.length);
    for (const compression of ['gzip', 'zstd', 'snappy']) {
      const file = compression === 'gzip' ? list : path.join(dir, `cc-index.${compression}.parquet`);
      if (file !== list) await writeIndex(file, rows, compression, 500);
      const r = await robots([...args, '--urls-parquet', file]);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(fromLines.stdout);
    }
  });

  it('--pass-columns: each row\'s values on its own URL\'s line, in TSV, JSON lines and Parquet', { timeout: 300_000 }, async () => {
    const base = ['classify', '-q', '--robots-dir', CORPUS, '--urls-parquet', list, '--pass-columns', 'row,url_host_name', '--pass-columns', 'fetch_status,fetch_time,crawl'];
    const plain = await robots(['classify', '-q', '--robots-dir', CORPUS, text]);
    const tsv = await robots(base);
    expect(tsv.status).toBe(0);
    const tsvRows = lines(tsv.stdout).map((l) => l.split('\t'));
    expect(tsvRows.map((c) => c.slice(0, 3).join('\t'))).toEqual(lines(plain.stdout));
    expect(tsvRows.map((c) => Number(c[3]))).toEqual(classified.map((r) => r.row));
    expect(tsvRows.map((c) => c.slice(4, 7))).toEqual(classified.map((r) => [r.url_host_name ?? '', String(r.fetch_status), new Date(Date.UTC(2025, 8, 1, 12, 0, r.row)).toISOString()]));
    expect(new Set(tsvRows.map((c) => c[7]))).toEqual(new Set(['CC-MAIN-2025-38']));

    const jsonl = await robots([...base, '--format', 'jsonl']);
    expect(jsonl.status).toBe(0);
    const records = lines(jsonl.stdout).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((x) => x.row)).toEqual(classified.map((r) => r.row));
    expect(records.map((x) => x.fetch_status)).toEqual(classified.map((r) => r.fetch_status));
    expect(Object.keys(records[0])).toEqual(['url', 'robots', 'allowed', 'line', 'rule', 'row', 'url_host_name', 'fetch_status', 'fetch_time', 'crawl']);

    const out = path.join(dir, 'passed.parquet');
    const pq = await robots([...base, '--format', 'parquet', '--out', out]);
    expect(pq.status).toBe(0);
    const types = Object.fromEntries((await query(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM ${q(out)})`)).map((t) => [t.column_name, t.column_type]));
    // The passed columns keep the list's types.
    expect(types).toMatchObject({ row: 'BIGINT', url_host_name: 'VARCHAR', fetch_status: 'SMALLINT', fetch_time: 'TIMESTAMP', crawl: 'VARCHAR', allowed: 'BOOLEAN' });
    const joined = await query(`SELECT v.url, v.allowed, v.row, v.fetch_status, l.url AS listed, l.fetch_status AS listed_status, v.fetch_time = l.fetch_time AS same_time
      FROM ${q(out)} v JOIN ${q(list)} l USING (row) ORDER BY row`);
    expect(joined.map((j) => Number(j.row))).toEqual(classified.map((r) => r.row));
    expect(joined.every((j) => j.fetch_status === j.listed_status && j.same_time === true)).toBe(true);
    expect(joined.map((j) => j.allowed)).toEqual(records.map((x) => x.allowed));
  });

  it('--shard i/N: each shard\'s lines joined with their own rows; together, every row', { timeout: 300_000 }, async () => {
    const seen: number[] = [];
    for (let s = 0; s < 3; s++) {
      const r = await robots(['classify', '-q', '--robots-dir', CORPUS, '--urls-parquet', list, '--pass-columns', 'row', '--shard', `${s}/3`, '--format', 'jsonl']);
      expect(r.status).toBe(0);
      const records = lines(r.stdout).map((l) => JSON.parse(l) as { url: string; row: number });
      expect(records.length).toBeGreaterThan(0);
      for (const x of records) {
        const listed = classified.find((c) => c.row === x.row)!;
        expect(x.url).toBe(listed.url!.trim().replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/\t/g, '%09'));
        seen.push(x.row);
      }
    }
    expect(seen.sort((a, b) => a - b)).toEqual(classified.map((r) => r.row));
  });
});

describe('Parquet: one-line errors', () => {
  const robotsTxt = path.join(dir, 'err-robots.txt');
  const text = path.join(dir, 'err-urls.txt');
  const noUrl = path.join(dir, 'no-url.parquet');
  const good = path.join(dir, 'good.parquet');
  beforeAll(async () => {
    writeFileSync(robotsTxt, 'User-agent: *\nDisallow: /x\n');
    writeFileSync(text, 'https://a.example/\n');
    await duck.run(`COPY (SELECT 'https://a.example/' AS link, 1 AS n) TO ${q(noUrl)} (FORMAT parquet)`);
    await duck.run(`COPY (SELECT 'https://a.example/' AS url, 1 AS n, {'a': 1} AS nested) TO ${q(good)} (FORMAT parquet)`);
  });
  const cut = path.join(dir, 'cut.parquet');
  const fakeFooter = path.join(dir, 'fake-footer.parquet');

  it.each([
    ['--format parquet to stdout', ['classify', '--robots', robotsTxt, '--format', 'parquet', text], /^robots: --format parquet writes a file, not lines to stdout: give --out FILE/],
    ['audit --format parquet to stdout', ['audit', '--robots-dir', dir, '--format', 'parquet'], /^robots: --format parquet writes a file, not lines to stdout: give --out FILE/],
    ['a file that is not Parquet', ['classify', '--robots', robotsTxt, '--urls-parquet', text], /^robots: .*err-urls\.txt is not a Parquet file \(it does not begin and end with PAR1\)$/],
    ['no url column', ['classify', '--robots', robotsTxt, '--urls-parquet', noUrl], /^robots: .*no-url\.parquet has no column "url" \(its columns: link, n\)$/],
    ['a passed column it does not have', ['classify', '--robots', robotsTxt, '--urls-parquet', good, '--pass-columns', 'm'], /^robots: --pass-columns: .*good\.parquet has no column "m" that is not nested \(its columns: url, n\)$/],
    ['a nested passed column', ['classify', '--robots', robotsTxt, '--urls-parquet', good, '--pass-columns', 'nested'], /has no column "nested" that is not nested/],
    ['a passed column named as the output\'s', ['classify', '--robots', robotsTxt, '--urls-parquet', good, '--pass-columns', 'url'], /^robots: --pass-columns url: the output has a column of that name already$/],
    ['--pass-columns without a Parquet list', ['classify', '--robots', robotsTxt, '--pass-columns', 'n', text], /^robots: --pass-columns passes columns of --urls-parquet FILE, which is not given$/],
    ['a list both ways', ['classify', '--robots', robotsTxt, '--urls-parquet', good, text], /^robots: give the URLs as a file of lines .* or as --urls-parquet .*, not both$/],
    ['no such file', ['classify', '--robots', robotsTxt, '--urls-parquet', path.join(dir, 'none.parquet')], /^robots: cannot read the Parquet URL list .*none\.parquet: no such file or directory$/],
    ['--row-group 0', ['classify', '--robots', robotsTxt, '--format', 'parquet', '--row-group', '0', '--out', path.join(dir, 'x.parquet'), text], /^robots: --row-group must be a whole number of rows from 1 to/],
    ['--row-group without parquet', ['audit', '--robots-dir', dir, '--row-group', '10'], /^robots: --row-group is for --format parquet$/],
    ['a Parquet file cut short', ['classify', '--robots', robotsTxt, '--urls-parquet', cut], /^robots: .*cut\.parquet is not a Parquet file/],
    ['a footer that does not read', ['classify', '--robots', robotsTxt, '--urls-parquet', fakeFooter], /^robots: .*fake-footer\.parquet is not a Parquet file \(its footer/],
  ])('%s', async (_what, args, message) => {
    if (!existsSync(cut)) {
      const whole = readFileSync(good);
      writeFileSync(cut, whole.subarray(0, whole.length - 20));
      // PAR1, noise, a footer length that fits, PAR1: a footer that is not Thrift.
      const noise = Buffer.alloc(64, 0xff);
      writeFileSync(fakeFooter, Buffer.concat([Buffer.from('PAR1'), noise, Buffer.from([32, 0, 0, 0]), Buffer.from('PAR1')]));
    }
    const r = await robots(args as string[]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(message as RegExp);
    expect(existsSync(path.join(dir, 'x.parquet'))).toBe(false);
  });

  it('a temporary folder that cannot be made (TMPDIR missing)', async () => {
    const out = path.join(dir, 'y.parquet');
    const r = await robots(['classify', '--robots', robotsTxt, '--format', 'parquet', '--out', out, text], undefined, { env: { TMPDIR: path.join(dir, 'no-such-folder') } });
    expect(r.stderr).toMatch(/^robots: cannot make a temporary folder in .*no-such-folder \(TMPDIR\): no such file or directory\n$/);
    expect(r.status).toBe(2);
    expect(existsSync(out)).toBe(false);
  });
});
