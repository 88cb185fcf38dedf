// `robots audit report`: audit's per-site JSON lines (files or stdin) made into
// one self-contained HTML page of charts and their tables
// (src/bulk/audit/report/), and the tables as TSV files for one's own plots.
// A bad input line is counted, named on stderr and left out: never fatal.
// (Its options and help: audit-report-command.ts, which imports this file when it runs.)
import { createReadStream, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { thousands } from './numbers.js';
import { CliError, reason } from './errors.js';
import { inputLines } from '../bulk/audit/report/json-lines.js';
import { ReportData } from '../bulk/audit/report/report-data.js';
import { reportPage } from '../bulk/audit/report/report-html.js';
import { tableTsv } from '../bulk/audit/report/report-tables.js';

declare const VERSION: string; // set by the build (package.json)

export interface AuditReportOptions {
  out?: string;
  tsvDir?: string;
  title: string;
  quiet?: boolean;
}

/** A site line is far shorter (a few KiB with every operator); longer is not one, and is skipped unread. */
const MAX_LINE_OCTETS = 16 << 20;

export async function auditReportCommand(files: string[], o: AuditReportOptions): Promise<number> {
  const inputs = files.length === 0 ? ['-'] : files;
  if (inputs.filter((f) => f === '-').length > 1) throw new CliError('audit report: stdin ("-") can be read once');
  const data = new ReportData();
  for (const file of inputs) await readInto(data, file);
  const name = (f: string) => (f === '-' ? 'stdin' : f);
  if (data.sites() === 0) {
    const why = data.badNotes[0] === undefined ? 'no lines' : `${thousands(data.badLines)} bad line${data.badLines === 1 ? '' : 's'}, the first ${data.badNotes[0].where}: ${data.badNotes[0].why}`;
    throw new CliError(`audit report: no site line in ${inputs.map(name).join(', ')} (${why}): give the JSON lines of robots audit --format jsonl`);
  }
  if (!o.quiet && data.badLines > 0) {
    process.stderr.write(`robots audit report: warning: ${thousands(data.badLines)} line${data.badLines === 1 ? ' is' : 's are'} not a site line of robots audit, left out:\n`);
    for (const b of data.badNotes) process.stderr.write(`robots audit report: warning:   ${b.where}: ${b.why}\n`);
  }
  const { html, tables } = reportPage(data, { title: o.title, inputs: inputs.map(name), generator: `robots-wasm ${VERSION}`, tsvDir: o.tsvDir });
  if (o.tsvDir !== undefined) {
    try {
      mkdirSync(o.tsvDir, { recursive: true });
    } catch (e) {
      throw new CliError(`audit report: cannot make the folder ${o.tsvDir}: ${reason(e)}`);
    }
    for (const t of tables) writeWhole(path.join(o.tsvDir, `${t.id}.tsv`), tableTsv(t));
  }
  if (o.out === undefined) process.stdout.write(html);
  else writeWhole(o.out, html);
  if (!o.quiet) {
    const n = (count: number, what: string) => `${thousands(count)} ${what}${count === 1 ? '' : 's'}`;
    process.stderr.write(`robots audit report: ${n(data.sites(), 'site line')}, ${n(data.crawlerNames.length, 'crawler')}${data.hasCrawl ? `, ${n(data.crawls.size, 'crawl')}` : ''}: ` +
      `${o.out ?? 'stdout'}${o.tsvDir === undefined ? '' : ` and ${tables.length} TSV files in ${o.tsvDir}`}\n`);
  }
  return 0;
}

async function readInto(data: ReportData, file: string): Promise<void> {
  const input = file === '-' ? process.stdin : createReadStream(file);
  const where = file === '-' ? 'stdin' : file;
  try {
    for await (const line of inputLines(input, MAX_LINE_OCTETS)) data.add(line.text, `${where}:${line.number}`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === undefined) throw e;
    throw new CliError(`audit report: cannot read ${where}: ${reason(e)}`);
  }
}

/** Written under a temporary name, then renamed: a reader never sees half a file. */
function writeWhole(file: string, text: string): void {
  const temp = `${file}.${process.pid}.partial`;
  try {
    writeFileSync(temp, text);
    renameSync(temp, file);
  } catch (e) {
    throw new CliError(`audit report: cannot write ${file}: ${reason(e)}`);
  }
}
