// The crawls of `robots audit`: one unlabelled source as before; several
// labelled ones (--crawl LABEL=SOURCE, repeatable: SOURCE an index of
// `robots index` (a directory holding index.json), a robots directory, or a
// WARC file; a label given again adds an index to its crawl); or several
// --as-of dates over one source, each date a crawl
// labelled by itself. Crawls are compared in the order given.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, reason } from './errors.js';
import { parseAsOf } from './as-of.js';

/** Where a crawl's sites come from (the options' own source when none of these is set). */
export type CrawlSource = { kind: 'dir'; dir: string } | { kind: 'index'; dirs: string[] } | { kind: 'warc'; file: string } | { kind: 'options' };

export interface Crawl {
  /** undefined: a run of one unlabelled source (no crawl column). */
  label: string | undefined;
  source: CrawlSource;
  asOf: number | undefined;
}

/** No tab, line end, `=` (LABEL=SOURCE) or `>` (the summary's `A>B` pairs). */
const LABEL = /^[^\s=>]{1,100}$/;

/** --crawl LABEL=SOURCE values, or several --as-of over the options' source, or the options' source alone. */
export function crawlsOf(crawlValues: string[] | undefined, asOfValues: string[], optionsSourceIsDir: boolean): Crawl[] {
  if (crawlValues !== undefined) {
    if (asOfValues.length > 1) throw new CliError('several --as-of are crawls of one source: give them without --crawl (or a single --as-of, for every --crawl)');
    const asOf = asOfValues.length === 1 ? parseAsOf(asOfValues[0]) : undefined;
    const crawls: Crawl[] = [];
    for (const v of crawlValues) {
      const c = crawlOf(v, asOf);
      const same = crawls.find((k) => k.label === c.label);
      if (same === undefined) crawls.push(c);
      // (A crawl indexed in slices, an index each, as the map step of bulk.md makes them.)
      else if (same.source.kind === 'index' && c.source.kind === 'index') same.source.dirs.push(...c.source.dirs);
      else throw new CliError(`--crawl: the label "${c.label}" is given twice (only indexes of one crawl may share a label)`);
    }
    return crawls;
  }
  if (asOfValues.length > 1) {
    if (optionsSourceIsDir) throw new CliError('--as-of picks among captures: give it with --robots-warc, --robots-warc-list or --robots-index');
    const seen = new Set<string>();
    return asOfValues.map((date) => {
      const label = date.trim();
      if (!LABEL.test(label) || seen.has(label)) throw new CliError(`--as-of: "${date}" is given twice or cannot label a crawl`);
      seen.add(label);
      return { label, source: { kind: 'options' }, asOf: parseAsOf(date) };
    });
  }
  return [{ label: undefined, source: { kind: 'options' }, asOf: asOfValues.length === 1 ? parseAsOf(asOfValues[0]) : undefined }];
}

function crawlOf(value: string, asOf: number | undefined): Crawl {
  const eq = value.indexOf('=');
  const label = eq < 0 ? '' : value.slice(0, eq);
  const path = eq < 0 ? '' : value.slice(eq + 1);
  if (eq < 0 || path === '') throw new CliError(`--crawl must be LABEL=SOURCE (e.g. 2025-38=idx/a: an index, a robots directory or a WARC file), got "${value}"`);
  if (!LABEL.test(label)) throw new CliError(`--crawl ${value}: a label is up to 100 characters, with no space, "=" or ">"`);
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (e) {
    throw new CliError(`--crawl ${label}: cannot read ${path}: ${reason(e)}`);
  }
  const source: CrawlSource = !isDir ? { kind: 'warc', file: path } : existsSync(join(path, 'index.json')) ? { kind: 'index', dirs: [path] } : { kind: 'dir', dir: path };
  if (source.kind === 'dir' && asOf !== undefined) throw new CliError(`--as-of picks among captures: --crawl ${label} is a robots directory`);
  return { label, source, asOf };
}
