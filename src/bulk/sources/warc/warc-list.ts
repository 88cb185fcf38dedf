// --robots-warc-list: WARC files named by a list, one a line, as Common Crawl
// publishes a crawl's robots.txt captures (robotstxt.paths.gz: gzipped, each
// line a path under https://data.commoncrawl.org/). An entry is a local file,
// an http(s) URL, or a path relative to a base (a URL or a directory). The
// list is read and checked whole before anything is fetched (a bad line, or a
// local file that is not there, stops the run at once); then WarcFiles hands
// the reader (indexWarcs) one local file at a time, in list order: local
// entries as they are, URLs downloaded (warc-download.ts) into a temporary
// directory, a few ahead of the reader, each removed once it is read. So the
// disk holds at most PREFETCH + 1 downloads, and memory none of them. A URL
// that fails after its retries is said and skipped (`skipped`), and the
// caller says so at the end.
import { readFileSync, rmSync, statSync } from 'node:fs';
import { isAbsolute, join, relative as pathFrom, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { BulkError, reason } from '../../base/errors.js';
import { download, DownloadFailed, DOWNLOAD_DEFAULTS, type DownloadOptions } from './warc-download.js';
import { tempDir, type TempDir } from '../temp-dir.js';

/** What relative entries are relative to when no --warc-base is given: Common Crawl's own host (its lists' entries are keys there). */
export const DEFAULT_WARC_BASE = 'https://data.commoncrawl.org/';

/** A list's octets once decompressed: Common Crawl's largest holds ~100,000 lines of ~140 octets (14 MB). */
export const MAX_LIST_OCTETS = 64 << 20;

/** Downloads ahead of the file being read: the next files are ready when it is done. */
export const PREFETCH = 2;

/** Downloads that fail one after the other (each after its retries) that stop the run: not one
 * file's trouble but the network's, or a wrong --warc-base (a 404 for every entry), and the rest
 * would fail too, each skipped in turn. */
export const MAX_FAILURES_IN_A_ROW = 5;

/** One entry of a list: a local file, or a URL to download; `where` is LIST:LINE. */
export type WarcListEntry = { where: string; path: string; url?: undefined } | { where: string; url: string; path?: undefined };

/** The list's octets: a file, or stdin ('-'). */
export type ListReader = (list: string) => Promise<Buffer>;

/**
 * A list's entries, checked: every line a path, a file: URL or an http(s) URL (blank lines and
 * lines that start with # are skipped), every local file there. Throws a BulkError (one line,
 * naming LIST:LINE) for the first bad line, saying how many more there are.
 */
export async function readWarcList(list: string, base: string = DEFAULT_WARC_BASE, read: ListReader = readListOctets): Promise<WarcListEntry[]> {
  const resolveAgainst = parseBase(base);
  const name = list === '-' ? 'stdin' : list;
  const text = decodeList(name, await read(list));
  const entries: WarcListEntry[] = [];
  let firstBad: string | undefined;
  let bad = 0;
  // (Line by line, not split(): a list of 64 MiB of blank lines would be 67 million strings at once.)
  for (let at = 0, k = 1; at < text.length; k++) {
    let end = text.indexOf('\n', at);
    if (end === -1) end = text.length;
    const line = text.slice(at, end).trim(); // (a CR before the LF too)
    at = end + 1;
    if (line === '' || line.startsWith('#')) continue;
    const where = `${name}:${k}`;
    const entry = parseEntry(line, where, resolveAgainst);
    if (typeof entry !== 'string') entries.push(entry);
    else if (bad++ === 0) firstBad = `${where}: ${entry}`;
  }
  if (bad > 0) throw new BulkError(`${firstBad}${bad > 1 ? ` (and ${bad - 1} more bad line${bad > 2 ? 's' : ''})` : ''}`);
  if (entries.length === 0) throw new BulkError(`--robots-warc-list ${name} names no WARC file`);
  return entries;
}

async function readListOctets(list: string): Promise<Buffer> {
  if (list === '-') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_LIST_OCTETS) throw new BulkError(`--robots-warc-list stdin is longer than ${MAX_LIST_OCTETS >> 20} MiB`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }
  try {
    const st = statSync(list);
    if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (st.size > MAX_LIST_OCTETS) throw new Error(`longer than ${MAX_LIST_OCTETS >> 20} MiB`);
    return readFileSync(list);
  } catch (e) {
    throw new BulkError(`cannot read WARC list ${list}: ${reason(e)}`);
  }
}

/** The list's text: gunzipped when it is gzip (by its first octets, whatever its name), UTF-8. */
function decodeList(name: string, octets: Buffer): string {
  let plain = octets;
  if (octets[0] === 0x1f && octets[1] === 0x8b) {
    try {
      plain = gunzipSync(octets, { maxOutputLength: MAX_LIST_OCTETS });
    } catch (e) {
      const tooLong = (e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError;
      throw new BulkError(`cannot read WARC list ${name}: ${tooLong ? `longer than ${MAX_LIST_OCTETS >> 20} MiB once decompressed` : `gzip: ${reason(e)}`}`);
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(plain);
  } catch {
    throw new BulkError(`cannot read WARC list ${name}: not UTF-8 text (a list has one path or URL a line)`);
  }
}

/** --warc-base: a function resolving a relative entry, a URL or a local path, or saying why not:
 * a relative entry is a key under its base, and one that climbs out of it (`../`, `%2e%2e/`, a
 * backslash, `\\host`) is refused, so a list from elsewhere names nothing beside the base. */
function parseBase(base: string): (relative: string) => { url: string } | { path: string } | string {
  if (/^https?:\/\//i.test(base)) {
    let u: URL;
    try {
      u = new URL(base);
    } catch {
      throw new BulkError(`--warc-base ${base} is not a URL`);
    }
    // (A base without a trailing slash is a directory all the same: new URL() would drop its last part.)
    if (!u.pathname.endsWith('/')) u.pathname += '/';
    u.search = '';
    u.hash = '';
    const under = u.href;
    return (relative) => {
      let url: URL;
      try {
        url = new URL(relative, u);
      } catch {
        return `not a URL against --warc-base ${u.href}: ${relative}`;
      }
      return url.href.startsWith(under) ? { url: url.href } : `${relative} is not under --warc-base ${u.href}`;
    };
  }
  let isDir: boolean;
  try {
    isDir = statSync(base).isDirectory();
  } catch (e) {
    throw new BulkError(`cannot read --warc-base ${base}: ${reason(e)}`);
  }
  if (!isDir) throw new BulkError(`--warc-base ${base} is not a directory (nor an http(s) URL)`);
  return (relative) => {
    const path = join(base, relative);
    const climbs = pathFrom(base, path);
    return climbs === '..' || climbs.startsWith(`..${sep}`) || isAbsolute(climbs) ? `${relative} is not under --warc-base ${base}` : { path };
  };
}

/** One line: its entry, or why it is not one. */
function parseEntry(line: string, where: string, relative: (p: string) => { url: string } | { path: string } | string): WarcListEntry | string {
  if (/[\x00-\x08\x0a-\x1f\x7f]/.test(line)) return 'not a path or URL (control characters)';
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(line)?.[1].toLowerCase();
  let target: { url: string } | { path: string } | string;
  if (scheme === 'http' || scheme === 'https') {
    try {
      target = { url: new URL(line).href };
    } catch {
      return `not a URL: ${line}`;
    }
  } else if (scheme === 'file') {
    try {
      target = { path: fileURLToPath(line) };
    } catch (e) {
      return `not a file URL: ${line} (${reason(e)})`;
    }
  } else if (scheme !== undefined && scheme.length > 1) {
    return `${scheme}: URLs are not fetched (a local path, an http(s) URL, or a path relative to --warc-base): ${line}`;
  } else if (line.startsWith('/')) {
    target = { path: line };
  } else {
    target = relative(line);
    if (typeof target === 'string') return target;
  }
  if ('url' in target) return { where, url: target.url };
  try {
    const st = statSync(target.path);
    if (!st.isFile()) return `cannot read WARC file ${target.path}: ${st.isDirectory() ? 'is a directory' : 'not a regular file'}`;
  } catch (e) {
    return `cannot read WARC file ${target.path}: ${reason(e)}`;
  }
  return { where, path: target.path };
}

/** A download's settings: DOWNLOAD_DEFAULTS but for what is given. */
export type WarcFetchOptions = Partial<Omit<DownloadOptions, 'signal' | 'onRetry' | 'onOctets'>> & { userAgent: string };

export interface WarcFilesProgress {
  /** Files read (or skipped) ... */
  done: number;
  /** ... of all. */
  total: number;
  /** Octets downloaded so far (retries' included). */
  downloaded: number;
  /** Since the first. */
  ms: number;
}

export interface WarcFilesHooks {
  /** A line to show (a retry, a file skipped). */
  warn(line: string): void;
  progress?(p: WarcFilesProgress): void;
}

/** A local file: what a WARC reader reads. */
export type LocalWarc = string;

/**
 * WARC files in order, each a local file while it is read: the given local files, then each
 * list's entries (downloaded a few ahead). Iterate it once; what failed is in `skipped` after.
 */
export class WarcFiles implements AsyncIterable<LocalWarc> {
  readonly total: number;
  /** One line each: the entry (LIST:LINE and its URL), and why it was skipped. */
  readonly skipped: string[] = [];
  /** The files handed to the reader, in order: a local file's path, a download's URL (its
   * temporary file is gone once read), and their octets (for a manifest of what was read). */
  readonly sources: { name: string; octets: number }[] = [];
  /** Files downloaded, and their octets. */
  downloaded = 0;
  downloadedOctets = 0;
  private readonly entries: WarcListEntry[];
  /** The download being read: its file, and its URL. */
  private reading: { file: string; url: string } | null = null;
  private readonly fetch: Omit<DownloadOptions, 'signal' | 'onRetry' | 'onOctets'>;

  constructor(entries: WarcListEntry[], fetch: WarcFetchOptions, private readonly hooks: WarcFilesHooks) {
    this.entries = entries;
    this.total = entries.length;
    this.fetch = { ...DOWNLOAD_DEFAULTS, ...fetch };
  }

  /** A reader's line about the file being read, with the download's URL for its temporary name. */
  named(line: string): string {
    return this.reading === null ? line : line.split(this.reading.file).join(this.reading.url);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<LocalWarc> {
    const began = performance.now();
    const stop = new AbortController();
    let dir: TempDir | null = null;
    const pending: Promise<{ entry: WarcListEntry; file?: string; why?: string }>[] = [];
    let next = 0;
    let done = 0;
    let octets = 0;
    let failuresInARow = 0;
    const progress = () => this.hooks.progress?.({ done, total: this.total, downloaded: octets, ms: performance.now() - began });
    // The downloads' directory goes at the end, on an error, and when the run is interrupted.
    const cleanUp = () => dir?.dispose();
    const obtain = async (entry: WarcListEntry, k: number) => {
      if (entry.path !== undefined) return { entry, file: entry.path };
      dir ??= tempDir('robots-warc-list-');
      const file = join(dir.path, `${k}.warc`);
      try {
        const n = await download(entry.url, file, {
          ...this.fetch,
          signal: stop.signal,
          onRetry: (why, attempt, waitMs) => this.hooks.warn(`${entry.url} (${entry.where}): ${why}; retry ${attempt} of ${this.fetch.retries} in ${(waitMs / 1000).toFixed(waitMs < 10_000 ? 1 : 0)} s`),
          onOctets: (n) => {
            octets += n;
            progress();
          },
        });
        this.downloaded++;
        this.downloadedOctets += n;
        return { entry, file };
      } catch (e) {
        rmSync(file, { force: true });
        if (e instanceof DownloadFailed) return { entry, why: e.message };
        throw e;
      }
    };
    const fill = () => {
      while (pending.length < PREFETCH && next < this.entries.length) {
        const p = obtain(this.entries[next], next);
        p.catch(() => {}); // (awaited in its turn; not unhandled meanwhile)
        pending.push(p);
        next++;
      }
    };
    try {
      fill();
      progress();
      while (pending.length > 0) {
        const got = await pending.shift()!;
        fill();
        if (got.file !== undefined) {
          failuresInARow = 0;
          if (got.entry.url !== undefined) this.reading = { file: got.file, url: got.entry.url };
          this.sources.push({ name: got.entry.url ?? got.file, octets: statSync(got.file).size });
          yield got.file;
          this.reading = null;
          if (got.entry.url !== undefined) rmSync(got.file, { force: true });
        } else {
          const line = `${got.entry.url} (${got.entry.where}): ${got.why}: skipped, its captures are missing`;
          this.skipped.push(line);
          this.hooks.warn(line);
          if (++failuresInARow >= MAX_FAILURES_IN_A_ROW) {
            throw new BulkError(`${MAX_FAILURES_IN_A_ROW} WARC files of the list in a row could not be downloaded (the last: ${got.entry.url} (${got.entry.where}): ${got.why}): stopped (is --warc-base right? is the network up?)`);
          }
        }
        done++;
        progress();
      }
    } finally {
      // The reader stopped early (an error): the downloads in flight end, and their files go.
      stop.abort(new Error('stopped'));
      await Promise.allSettled(pending);
      cleanUp();
    }
  }
}

/** The WARC files of a run (robots classify, robots index): --robots-warc files, then each --robots-warc-list's entries. */
export interface WarcInputs {
  /** --robots-warc: local files. */
  files?: readonly string[];
  /** --robots-warc-list: lists ('-': stdin). */
  lists?: readonly string[];
  /** --warc-base (default DEFAULT_WARC_BASE). */
  base?: string;
}

/** All of a run's WARC files as one sequence, every list read and checked and every local file found first (else a BulkError). */
export async function warcFilesOf(inputs: WarcInputs, fetch: WarcFetchOptions, hooks: WarcFilesHooks, read: ListReader = readListOctets): Promise<WarcFiles> {
  if ((inputs.lists ?? []).filter((l) => l === '-').length > 1) throw new BulkError('--robots-warc-list - (stdin) can be given once');
  const entries: WarcListEntry[] = (inputs.files ?? []).map((file) => {
    try {
      const st = statSync(file);
      if (!st.isFile()) throw new Error(st.isDirectory() ? 'is a directory' : 'not a regular file');
    } catch (e) {
      throw new BulkError(`cannot read WARC file ${file}: ${reason(e)}`);
    }
    return { where: '--robots-warc', path: file };
  });
  for (const list of inputs.lists ?? []) entries.push(...(await readWarcList(list, inputs.base, read)));
  return new WarcFiles(entries, fetch, hooks);
}
