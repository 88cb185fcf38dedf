// A URL list in a Parquet file (Common Crawl's columnar index, or any table with
// a `url` column), read a row group at a time (hyparquet: pure JavaScript, the
// companion of the writer), so memory is bounded by one row group of the columns
// read, never the file. Other flat columns may be read beside `url`, to be passed
// through to the output.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { gunzipSync } from 'fflate';
import { decompress as unzstd } from 'fzstd';
import { parquetMetadata, parquetReadObjects, type AsyncBuffer, type FileMetaData, type SchemaElement } from 'hyparquet';
import { BulkError, reason } from '../../base/errors.js';
import { checkGroupPages } from './parquet-pages.js';

/** The column a URL list must have, and the host column Common Crawl's index has beside it. */
export const URL_COLUMN = 'url';
export const HOST_COLUMN = 'url_host_name';

/** The footer's length field, then the magic: `PAR1`. */
const FOOTER_OCTETS = 8;
const MAGIC = 'PAR1';
/** Longest footer read (a hostile length must not allocate gigabytes). */
const MAX_FOOTER_OCTETS = 64 << 20;
/** Largest page decompressed: a page header may claim any size. */
const MAX_PAGE_OCTETS = 1 << 30;

/** A row group's rows: the URLs (null where a row has none), and each passed column's values. */
export interface UrlRows {
  urls: (string | null)[];
  passed: unknown[][];
}

export class ParquetUrls {
  readonly rows: number;
  /** The schema elements of the passed columns, in the order asked. */
  readonly passedElements: SchemaElement[];
  /** The file has Common Crawl's url_host_name column. */
  readonly hasHost: boolean;
  private readonly file: AsyncBuffer;

  private constructor(readonly path: string, private readonly fd: number, size: number, private readonly metadata: FileMetaData, readonly passed: readonly string[]) {
    this.file = {
      byteLength: size,
      // Read now, and a bad range thrown now, not as a rejection: hyparquet prefetches
      // ranges a damaged footer names without awaiting them (a rejected prefetch went
      // unhandled, which ends the process), and calls slice from its async reads, so
      // a throw here rejects the read the caller awaits.
      slice: (start, end = size) => {
        if (!(Number.isSafeInteger(start) && Number.isSafeInteger(end) && start >= 0 && start <= end && end <= size)) {
          throw new BulkError(`${path}: its footer names octets ${start} to ${end} of a file of ${size}`);
        }
        const octets = Buffer.alloc(end - start);
        let at = 0;
        while (at < octets.length) {
          const n = readSync(fd, octets, at, octets.length - at, start + at);
          if (n === 0) throw new BulkError(`${path}: cut short at octet ${start + at}`);
          at += n;
        }
        return Promise.resolve(octets.buffer.slice(octets.byteOffset, octets.byteOffset + octets.length));
      },
    };
    const leaves = flatColumns(metadata.schema);
    this.rows = Number(metadata.num_rows);
    this.hasHost = leaves.has(HOST_COLUMN);
    if (!leaves.has(URL_COLUMN)) {
      throw new BulkError(`${path} has no column "${URL_COLUMN}" (its columns: ${named([...leaves.keys()])})`);
    }
    if (!isText(leaves.get(URL_COLUMN)!)) throw new BulkError(`${path}: its column "${URL_COLUMN}" is not text`);
    this.passedElements = passed.map((name) => {
      const element = leaves.get(name);
      if (element === undefined) {
        throw new BulkError(`--pass-columns: ${path} has no column "${name}" that is not nested (its columns: ${named([...leaves.keys()])})`);
      }
      return element;
    });
  }

  /** Opens the file and reads its footer: a file that is not Parquet, or has no `url` column, is a one-line error. */
  static open(path: string, passed: readonly string[] = []): ParquetUrls {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (e) {
      throw new BulkError(`cannot read the Parquet URL list ${path}: ${reason(e)}`);
    }
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw new BulkError(`cannot read the Parquet URL list ${path}: not a regular file (Parquet is read from its end)`);
      const metadata = readFooter(path, fd, stat.size);
      try {
        return new ParquetUrls(path, fd, stat.size, metadata, passed);
      } catch (e) {
        if (e instanceof BulkError) throw e;
        throw new BulkError(`${path} is not a Parquet file that reads (its schema: ${reason(e)})`);
      }
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  /** The rows, a row group at a time. */
  async *groups(): AsyncGenerator<UrlRows> {
    let start = 0;
    const columns = [URL_COLUMN, ...this.passed.filter((c) => c !== URL_COLUMN)];
    for (const [i, group] of this.metadata.row_groups.entries()) {
      const end = start + Number(group.num_rows);
      let objects: Record<string, unknown>[];
      try {
        checkGroupPages(this.path, this.fd, group, i, columns, MAX_PAGE_OCTETS);
        objects = await parquetReadObjects({ file: this.file, metadata: this.metadata, columns, rowStart: start, rowEnd: end, compressors: DECOMPRESSORS });
      } catch (e) {
        if (e instanceof BulkError) throw e;
        throw new BulkError(`${this.path}: cannot read rows ${start} to ${end - 1}: ${reason(e)}`);
      }
      start = end;
      yield {
        urls: objects.map((o) => (typeof o[URL_COLUMN] === 'string' ? (o[URL_COLUMN] as string) : null)),
        passed: this.passed.map((name) => objects.map((o) => o[name] ?? null)),
      };
    }
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** A page's octets, decompressed into the length its header claims (bounded: a header may claim any). */
const into = (inflate: (input: Uint8Array, out: Uint8Array) => Uint8Array) => (input: Uint8Array, length: number): Uint8Array => {
  if (length > MAX_PAGE_OCTETS) throw new BulkError(`a page claims ${length} octets once decompressed`);
  return inflate(input, new Uint8Array(length));
};

/** The codecs hyparquet leaves to its user that Parquet writers use (Spark's gzip, DuckDB's and Arrow's zstd):
 * fflate's and fzstd's pure JavaScript; Snappy is hyparquet's own. */
const DECOMPRESSORS = {
  GZIP: into((input, out) => gunzipSync(input, { out })),
  ZSTD: into((input, out) => unzstd(input, out)),
};

function readFooter(path: string, fd: number, size: number): FileMetaData {
  const notParquet = (why: string) => new BulkError(`${path} is not a Parquet file (${why})`);
  if (size < 4 + FOOTER_OCTETS) throw notParquet(`${size} octets`);
  const head = Buffer.alloc(4);
  readSync(fd, head, 0, 4, 0);
  const tail = Buffer.alloc(FOOTER_OCTETS);
  readSync(fd, tail, 0, FOOTER_OCTETS, size - FOOTER_OCTETS);
  if (head.toString('latin1') !== MAGIC || tail.toString('latin1', 4) !== MAGIC) throw notParquet('it does not begin and end with PAR1');
  const length = tail.readUInt32LE(0);
  if (length > size - 4 - FOOTER_OCTETS || length > MAX_FOOTER_OCTETS) throw notParquet(`its footer claims ${length} octets`);
  const footer = Buffer.alloc(length + FOOTER_OCTETS);
  readSync(fd, footer, 0, footer.length, size - footer.length);
  try {
    return parquetMetadata(footer.buffer.slice(footer.byteOffset, footer.byteOffset + footer.length));
  } catch (e) {
    throw notParquet(`its footer does not read: ${reason(e)}`);
  }
}

/** The columns that are top-level leaves (a name each), with their schema element. */
function flatColumns(schema: readonly SchemaElement[]): Map<string, SchemaElement> {
  const leaves = new Map<string, SchemaElement>();
  // schema[0] is the root; a group's children follow it, depth first. Walked with a
  // count of elements still owed, not by recursion: a hostile num_children claims
  // any number, and no more elements than the schema holds are read.
  const top = schema[0]?.num_children ?? 0;
  let i = 1;
  for (let k = 0; k < top && i < schema.length; k++) {
    const e = schema[i++];
    const children = e.num_children ?? 0;
    if (children === 0) {
      if (e.repetition_type !== 'REPEATED') leaves.set(e.name, e);
      continue;
    }
    for (let owed = children; owed > 0 && i < schema.length; owed--) owed += schema[i++].num_children ?? 0;
  }
  return leaves;
}

/** Column names for a message: the first few. */
function named(names: string[]): string {
  if (names.length === 0) return 'none';
  return names.length <= 12 ? names.join(', ') : `${names.slice(0, 12).join(', ')} and ${names.length - 12} more`;
}

function isText(e: SchemaElement): boolean {
  return e.type === 'BYTE_ARRAY' && (e.converted_type === 'UTF8' || e.logical_type?.type === 'STRING' || e.converted_type === undefined);
}
