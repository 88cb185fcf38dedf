// A row group's page headers checked before hyparquet reads them: hyparquet sizes
// its arrays by what a header claims (a data page's count of values, a dictionary's
// entries), and a damaged header claiming hundreds of millions ended the process
// (V8 out of memory, or an array past its largest size: no error to catch). The
// columns read are flat, so a data page holds at most the group's rows; a
// dictionary's entries take at least a bit each of its page.
import { readSync } from 'node:fs';
import type { ColumnChunk, RowGroup } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { BulkError } from '../../base/errors.js';

/** Most rows a row group may claim: its columns are read whole, an array of values each (writers make groups of
 * 10⁵ to 10⁶ rows). */
export const MAX_GROUP_ROWS = 1 << 24;
/** A page header's first read; one that does not fit is read again in a window this many times larger, once. */
const HEADER_WINDOW = 64 << 10;
const WIDER = 16;

/** Throws a one-line BulkError if a page of the named flat columns of `group` claims more than the group holds. */
export function checkGroupPages(path: string, fd: number, group: RowGroup, index: number, columns: readonly string[], maxPageOctets: number): void {
  const rows = Number(group.num_rows);
  const where = `${path}: row group ${index}`;
  if (!(Number.isSafeInteger(rows) && rows >= 0)) throw new BulkError(`${where} claims ${group.num_rows} rows`);
  if (rows > MAX_GROUP_ROWS) throw new BulkError(`${where} claims ${rows} rows (a group of more than ${MAX_GROUP_ROWS} is not read)`);
  for (const chunk of group.columns) {
    const name = chunk.meta_data?.path_in_schema.join('.');
    if (name !== undefined && columns.includes(name)) checkChunk(`${where}, column "${name}"`, fd, chunk, rows, maxPageOctets);
  }
}

function checkChunk(where: string, fd: number, chunk: ColumnChunk, rows: number, maxPageOctets: number): void {
  const meta = chunk.meta_data!;
  // Where hyparquet starts and ends a column's pages (plan.js).
  let at = Number(meta.dictionary_page_offset || meta.data_page_offset);
  const end = at + Number(meta.total_compressed_size);
  if (!(Number.isSafeInteger(at) && Number.isSafeInteger(end) && at >= 0 && end >= at)) throw new BulkError(`${where}: its pages claim octets ${at} to ${end}`);
  // As hyparquet reads a flat column: pages until the group's rows are seen (what may follow them is not read).
  for (let seen = 0; at < end - 1 && seen < rows; ) {
    const { header, length } = readHeader(where, fd, at, end);
    const uncompressed = Number(header.uncompressed_page_size);
    const compressed = Number(header.compressed_page_size);
    if (!(compressed >= 0 && uncompressed >= 0 && uncompressed <= maxPageOctets)) {
      throw new BulkError(`${where}: a page at octet ${at} claims ${compressed} octets, ${uncompressed} once decompressed`);
    }
    const values = Number(header.data_page_header?.num_values ?? header.data_page_header_v2?.num_values ?? 0);
    if (!(values >= 0 && values <= rows)) throw new BulkError(`${where}: a page at octet ${at} claims ${values} values in a group of ${rows} rows`);
    const nulls = Number(header.data_page_header_v2?.num_nulls ?? 0);
    if (!(nulls >= 0 && nulls <= values)) throw new BulkError(`${where}: a page at octet ${at} claims ${nulls} nulls of ${values} values`);
    const entries = Number(header.dictionary_page_header?.num_values ?? 0);
    if (!(entries >= 0 && entries <= 8 * uncompressed + 8)) {
      throw new BulkError(`${where}: a dictionary at octet ${at} claims ${entries} entries in ${uncompressed} octets`);
    }
    seen += values;
    at += length + compressed;
  }
}

/** The page header at `at` (not past `end`), and its length in octets. */
function readHeader(where: string, fd: number, at: number, end: number): { header: ReturnType<typeof parquetHeader>; length: number } {
  for (let window = HEADER_WINDOW; ; window *= WIDER) {
    const octets = Buffer.alloc(Math.min(window, end - at));
    const got = readSync(fd, octets, 0, octets.length, at);
    const reader = { view: new DataView(octets.buffer, octets.byteOffset, got), offset: 0 };
    try {
      const header = parquetHeader(reader);
      if (reader.offset <= got) return { header, length: reader.offset };
    } catch {
      // (read past the window: wider once, else the header is damaged)
    }
    if (got < window || window > HEADER_WINDOW) throw new BulkError(`${where}: the page header at octet ${at} does not read`);
  }
}
