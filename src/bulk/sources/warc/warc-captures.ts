// The robots.txt captures of one WARC file, whatever its layout (plain, gzip
// per record as WARC files are written, the whole file gzipped): the fast
// reader (warc-fast-records.ts), and warcio (warcio-captures.ts) for what it
// hands over (a record it does not read as warcio would; the file from a
// record framed otherwise than WARC writers frame them). The one way
// to read captures: the --robots-warc index (warc-index.ts) and anything that
// indexes WARCs otherwise call it.
import { closeSync, openSync, readSync } from 'node:fs';
import { fastRecordCaptures, type ReadFrom } from './warc-fast-records.js';
import type { CaptureReadOptions, WarcReadItem } from './warc-capture-read.js';
import { warcioCaptures, warcioRecordCaptures } from './warcio-captures.js';

export type { CaptureRead, CaptureReadOptions, DamageRead, WarcReadItem } from './warc-capture-read.js';
export { captureKey } from './warc-capture-read.js';

/**
 * The captures of `file` in file order (each response record's, those `wants` refuses left out),
 * then the damage that ends it, if any, or 'empty' when no record could be read. A capture's
 * body may be a view of the reader's buffer: use it before asking for the next item.
 * `reader: 'warcio'` reads it with warcio alone (the tests' judge of the fast reader). `from`: the
 * file read from a record on (for a gzip file, one beginning a member), to its end.
 */
export async function* readWarcCaptures(file: string, options: CaptureReadOptions, reader: 'auto' | 'warcio' = 'auto', from?: ReadFrom): AsyncGenerator<WarcReadItem> {
  const gzip = isGzip(file);
  if (reader === 'warcio') {
    yield* warcioCaptures(file, gzip, options);
    return;
  }
  for await (const item of fastRecordCaptures(file, gzip, options, from)) {
    if (item.kind === 'odd') {
      for await (const read of warcioRecordCaptures(item.record, options, item.offset)) {
        yield read;
        if (read.kind === 'damage') return;
      }
    } else if (item.kind === 'fallback') {
      yield* warcioCaptures(file, gzip, options, item.offset, item.given, from);
      return;
    } else {
      yield item;
    }
  }
}

/** Whether a file begins as gzip does. */
export function isGzip(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}
