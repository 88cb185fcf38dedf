// classify's tables: --format parquet (the verdicts as a Parquet file) and
// --urls-parquet (the URLs from a Parquet file's `url` column, other columns
// passed through with --pass-columns). classify itself reads and writes lines:
// a Parquet list becomes a temporary list of its URLs, and a Parquet output (or
// passed columns) is made from its JSON lines (or TSV) once written, a line at a
// time, joined with the list's rows in order. Memory: a row group, both ways.
// The Parquet reader and writer are imported only by a run that uses them.
import { createReadStream, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { SchemaElement } from 'hyparquet';
import { CliError } from './errors.js';
import { parseRowGroup } from './row-group.js';
import { echoUrl } from './url-echo.js';
import { FORMATS, formatNames } from './options.js';
import { tempDir, type TempDir } from '../bulk/sources/temp-dir.js';
import type { ParquetUrls } from '../bulk/sources/urls/parquet-urls.js';
import type { TableColumn } from '../bulk/formats/parquet-table.js';
import { ClassifyColumns, type ClassifyShape } from '../bulk/formats/classify-columns.js';
import { OutputSink } from '../bulk/base/output-sink.js';
import { BulkError, reason } from '../bulk/base/errors.js';

/** The options this file reads (classify's own: classify.ts). */
export interface TableOptions {
  format: string;
  out?: string;
  urlsParquet?: string;
  passColumns?: string[];
  rowGroup?: string;
}

export interface TableRun<O extends TableOptions> {
  /** classify's options for its own run: JSON lines where Parquet is to be written. */
  options: O;
  parquetOut: boolean;
  urls?: ParquetUrls;
  pass: string[];
  /** --row-group (undefined: the writer's default). */
  rowGroup: number | undefined;
}

/** Verdict lines between two writes of a text output. */
const BATCH_LINES = 1024;

/** The run's tables, checked (one-line errors), or null when classify reads and writes lines only. */
export async function tableRun<O extends TableOptions>(inputPath: string | undefined, o: O): Promise<TableRun<O> | null> {
  const parquetOut = o.format === 'parquet';
  const { text, json } = FORMATS.classify;
  if (!parquetOut && ![...text, ...json].includes(o.format as never)) {
    throw new CliError(`--format must be ${formatNames('classify')}, or parquet (a file: --out FILE), got "${o.format}"`);
  }
  if (!parquetOut && o.urlsParquet === undefined) {
    if (o.passColumns !== undefined) throw new CliError('--pass-columns passes columns of --urls-parquet FILE, which is not given');
    if (o.rowGroup !== undefined) throw new CliError('--row-group is for --format parquet');
    return null;
  }
  if (parquetOut && (o.out === undefined || o.out === '-')) {
    throw new CliError('--format parquet writes a file, not lines to stdout: give --out FILE (e.g. --out verdicts.parquet)');
  }
  if (!parquetOut && o.rowGroup !== undefined) throw new CliError('--row-group is for --format parquet');
  if (o.urlsParquet !== undefined && inputPath !== undefined) {
    throw new CliError(`give the URLs as a file of lines (${inputPath}) or as --urls-parquet ${o.urlsParquet}, not both`);
  }
  if (o.passColumns !== undefined && o.urlsParquet === undefined) throw new CliError('--pass-columns passes columns of --urls-parquet FILE, which is not given');
  const pass = (o.passColumns ?? []).flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  if (o.passColumns !== undefined && pass.length === 0) throw new CliError('--pass-columns needs column names, e.g. --pass-columns url_host_name,fetch_status');
  const repeated = pass.find((c, i) => pass.indexOf(c) !== i);
  if (repeated !== undefined) throw new CliError(`--pass-columns names ${repeated} twice`);
  const rowGroup = parseRowGroup(o.rowGroup);
  return {
    options: parquetOut ? { ...o, format: 'jsonl' } : o,
    parquetOut,
    urls: o.urlsParquet === undefined ? undefined : (await import('../bulk/sources/urls/parquet-urls.js')).ParquetUrls.open(o.urlsParquet, pass),
    pass,
    rowGroup,
  };
}

/** A passed column may not take the name of one of the output's own (its Parquet columns, its JSON fields). */
export function checkPassNames(pass: readonly string[], shape: ClassifyShape): void {
  const names = new Set([...new ClassifyColumns(shape).columns.map((c) => c.name), 'crawlers', 'operators']);
  for (const p of pass) {
    if (names.has(p)) throw new CliError(`--pass-columns ${p}: the output has a column of that name already`);
  }
}

/** How classify is run here: on a file of URL lines (undefined: stdin), writing to out. */
export type Classify = (input: string | undefined, out: string | undefined) => Promise<number>;

/** classify run for its tables: the URL list made, the verdicts written as asked. */
export async function classifyTables<O extends TableOptions>(run: TableRun<O>, inputPath: string | undefined, shape: ClassifyShape, classify: Classify): Promise<number> {
  let temp: TempDir;
  try {
    temp = tempDir('robots-tables-');
  } catch (e) {
    throw new BulkError(`cannot make a temporary folder in ${tmpdir()} (TMPDIR): ${reason(e)}`);
  }
  try {
    let input = inputPath;
    if (run.urls !== undefined) {
      input = join(temp.path, 'urls.txt');
      await writeUrlList(run.urls, input);
    }
    if (!run.parquetOut && run.pass.length === 0) return await classify(input, run.options.out);
    const verdicts = join(temp.path, 'verdicts');
    const code = await classify(input, verdicts);
    const text = run.options.format === 'jsonl' ? 'jsonl' : 'tsv';
    const header = text === 'tsv' && (shape.crawlers !== undefined || shape.operators !== undefined);
    await rewrite(verdicts, run, shape, text, header);
    return code;
  } finally {
    temp.dispose();
    run.urls?.close();
  }
}

/**
 * A URL as classify reads it from a line (blanks around it trimmed: space, \t to \r),
 * with the line ends it holds percent-encoded (a line holds no line end; the URL is
 * classified so); null for no URL (classify skips a blank line).
 */
function listed(url: string | null): string | null {
  if (url === null) return null;
  const trimmed = url.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, '');
  return trimmed === '' ? null : trimmed.replace(/[\r\n]/g, (c) => (c === '\r' ? '%0D' : '%0A'));
}

async function writeUrlList(urls: ParquetUrls, path: string): Promise<void> {
  const out = createWriteStream(path);
  const failed = once(out, 'error').then(([e]) => {
    throw new BulkError(`cannot write the URLs of ${urls.path} to the temporary file ${path}: ${reason(e)}`);
  });
  failed.catch(() => {});
  for await (const group of urls.groups()) {
    let text = '';
    for (const u of group.urls) {
      const line = listed(u);
      if (line !== null) text += line + '\n';
    }
    if (!out.write(text)) await Promise.race([once(out, 'drain'), failed]);
  }
  out.end();
  await Promise.race([once(out, 'close'), failed]);
}

/** The list's rows again, in order, with their passed values: each verdict line finds its row by its URL. */
class PassedRows {
  private readonly groups: AsyncGenerator<{ urls: (string | null)[]; passed: unknown[][] }>;
  private urls: (string | null)[] = [];
  private passed: unknown[][] = [];
  private i = 0;

  constructor(urls: ParquetUrls) {
    this.groups = urls.groups();
  }

  /**
   * The passed values of the next row whose URL classify echoed as `url`. The rows
   * it has no line for (blank, or of another --shard: a URL's rows are all of one
   * shard) are passed over.
   */
  async next(url: string): Promise<unknown[]> {
    for (;;) {
      while (this.i < this.urls.length) {
        const i = this.i++;
        const line = listed(this.urls[i]);
        if (line !== null && echoUrl(line) === url) return this.passed.map((column) => column[i]);
      }
      const g = await this.groups.next();
      if (g.done) throw new Error(`classify wrote a verdict for ${JSON.stringify(url)}, which the Parquet list has no row for after the rows joined before it`);
      ({ urls: this.urls, passed: this.passed } = g.value);
      this.i = 0;
    }
  }
}

/** The verdict lines as the output asks: Parquet, or the lines with the passed columns added. */
async function rewrite<O extends TableOptions>(verdicts: string, run: TableRun<O>, shape: ClassifyShape, text: 'jsonl' | 'tsv', header: boolean): Promise<void> {
  const columns = new ClassifyColumns(shape);
  const rows = run.urls === undefined || run.pass.length === 0 ? undefined : new PassedRows(run.urls);
  // (The writer imported before the lines are read: lines read while an import is awaited would be lost.)
  const parquet = run.parquetOut ? await import('../bulk/formats/parquet-table.js') : undefined;
  const lines = createInterface({ input: createReadStream(verdicts), crlfDelay: Infinity });
  if (parquet !== undefined) {
    const passed = run.pass.map((name, i): TableColumn => ({ name, type: 'STRING', element: passedElement(run.urls!.passedElements[i]) }));
    const table = new parquet.ParquetTable(run.options.out!, [...columns.columns, ...passed], run.rowGroup);
    try {
      for await (const line of lines) {
        if (line === '') continue;
        const record = JSON.parse(line) as Record<string, unknown>;
        const row = columns.row(record);
        if (rows !== undefined) row.push(...(await rows.next(String(record.url))));
        await table.add(row);
      }
      await table.finish();
    } catch (e) {
      const what = table.abandon();
      throw withWhat(e, what);
    }
    return;
  }
  const sink = new OutputSink(run.options.out);
  try {
    let batch = '';
    let n = 0;
    let first = true;
    for await (const line of lines) {
      if (line === '') continue;
      if (first && header) {
        batch += `${line}\t${run.pass.map(tsvCell).join('\t')}\n`;
      } else if (text === 'jsonl') {
        const values = await rows!.next(String((JSON.parse(line) as { url: unknown }).url));
        batch += `${line.slice(0, -1)},${run.pass.map((name, i) => `${JSON.stringify(name)}:${jsonValue(values[i])}`).join(',')}}\n`;
      } else {
        const cells = line.split('\t');
        const values = await rows!.next(cells[header ? 0 : 2]);
        batch += `${line}\t${values.map(tsvCell).join('\t')}\n`;
      }
      first = false;
      if (++n % BATCH_LINES === 0) {
        await sink.write(Buffer.from(batch));
        batch = '';
        if (sink.closedByReader) break;
      }
    }
    await sink.write(Buffer.from(batch));
    await sink.finish();
  } catch (e) {
    throw withWhat(e, sink.abandon());
  }
}

/** A passed column's type in the output: the list's own, but INT96 (deprecated, not written) as a timestamp. */
function passedElement(e: SchemaElement): SchemaElement {
  const { name, repetition_type: _r, num_children: _n, field_id: _f, ...rest } = e;
  if (e.type === 'INT96') return { name, type: 'INT64', converted_type: 'TIMESTAMP_MICROS' };
  return { name, ...rest };
}

function text(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (typeof v === 'object' && v !== null) return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
  return String(v);
}

/** A passed value in a TSV cell: tabs and line ends would break the row; none is an empty cell. */
function tsvCell(v: unknown): string {
  return v === null || v === undefined ? '' : text(v).replace(/[\t\r\n]/g, ' ');
}

/** A passed value in JSON: a number beyond 2^53 as a string, a date as ISO 8601, octets as text. */
function jsonValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? v.toString() : JSON.stringify(v.toString());
  if (typeof v === 'number' || typeof v === 'boolean') return Number.isFinite(v) || typeof v === 'boolean' ? String(v) : 'null';
  return JSON.stringify(text(v));
}

/** An error, with what became of the output said after it. */
function withWhat(e: unknown, what: string): unknown {
  if (e instanceof CliError) return new CliError(`${e.message}; ${what}`, e.exitCode);
  if (e instanceof BulkError) return new BulkError(`${e.message}; ${what}`);
  return e;
}
