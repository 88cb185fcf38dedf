// A Parquet URL list that lies (octets changed at random, cut short, a footer or a
// page header that claims any size) is a one-line error (a BulkError), never a
// crash, an internal error or a hang: the reader (src/bulk/sources/urls/parquet-urls.ts)
// over files DuckDB wrote with each codec, each damaged many ways from the run's seed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata } from 'hyparquet';
import { deserializeTCompactProtocol } from 'hyparquet/src/thrift.js';
import { ByteWriter } from 'hyparquet-writer';
import { serializeTCompactProtocol } from 'hyparquet-writer/src/thrift.js';
import { ParquetUrls } from '../../src/bulk/sources/urls/parquet-urls.js';
import { BulkError } from '../../src/bulk/base/errors.js';
import { propertySeed, seededRandom } from '../helpers/seed.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-parquet-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CODECS = ['uncompressed', 'snappy', 'gzip', 'zstd'];
const originals = new Map<string, Buffer>();

beforeAll(async () => {
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  for (const codec of CODECS) {
    const file = path.join(dir, `${codec}.parquet`);
    await duck.run(`COPY (SELECT 'https://h' || (i % 37) || '.example/p' || i AS url, 'h' || (i % 37) || '.example' AS url_host_name, (200 + i % 5)::SMALLINT AS fetch_status, i::BIGINT AS n
      FROM range(3000) t(i)) TO '${file}' (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE 1000)`);
    originals.set(codec, readFileSync(file));
  }
  duck.closeSync();
});

/** Everything the reader gives of a file: its rows, or the error it ends with. */
async function readAll(file: string): Promise<{ rows: number } | { error: unknown }> {
  let urls: ParquetUrls | undefined;
  try {
    urls = ParquetUrls.open(file, ['fetch_status', 'n']);
    let rows = 0;
    for await (const g of urls.groups()) rows += g.urls.length;
    return { rows };
  } catch (error) {
    return { error };
  } finally {
    urls?.close();
  }
}

/** A file of no rows whose schema nests `depth` groups, each the only child of the one before, down to a `url` leaf. */
function deepSchema(file: string, depth: number): void {
  // SchemaElement in Thrift's compact protocol: 1 type (6: BYTE_ARRAY), 3 repetition (1: OPTIONAL), 4 name, 5 num_children, 6 converted type (0: UTF8).
  const schema: Record<string, unknown>[] = [{ field_4: 'root', field_5: 1 }];
  for (let d = 0; d < depth; d++) schema.push({ field_3: 1, field_4: `g${d}`, field_5: 1 });
  schema.push({ field_1: 6, field_3: 1, field_4: 'url', field_6: 0 });
  const w = new ByteWriter();
  w.appendUint32(0x31524150); // PAR1
  const start = w.offset;
  // FileMetaData: 1 version, 2 schema, 3 num_rows, 4 row_groups.
  serializeTCompactProtocol(w, { field_1: 2, field_2: schema, field_3: 0n, field_4: [] } as never);
  w.appendUint32(w.offset - start);
  w.appendUint32(0x31524150);
  writeFileSync(file, new Uint8Array(w.getBuffer()));
}

describe('a damaged Parquet URL list: a one-line error, or rows', () => {
  it('a schema nested 100,000 deep: no url column (not a stack overflow)', async () => {
    const file = path.join(dir, 'deep.parquet');
    deepSchema(file, 100_000);
    const r = await readAll(file);
    expect('error' in r && r.error).toBeInstanceOf(BulkError);
    expect(('error' in r && (r.error as Error).message) || '').toMatch(/deep\.parquet has no column "url" \(its columns: none\)$/);
  });

  it('the undamaged files read whole, a row group at a time', async () => {
    for (const codec of CODECS) {
      expect(await readAll(path.join(dir, `${codec}.parquet`))).toEqual({ rows: 3000 });
      // Each yield is one of the file's row groups (memory holds one group of the columns read), in order.
      const original = originals.get(codec)!;
      const sizes = parquetMetadata(Uint8Array.from(original).buffer).row_groups.map((g) => Number(g.num_rows));
      expect(sizes.length).toBeGreaterThan(1);
      const urls = ParquetUrls.open(path.join(dir, `${codec}.parquet`), ['n']);
      let start = 0;
      const read: number[] = [];
      for await (const g of urls.groups()) {
        expect([g.urls[0], g.passed[0][0]]).toEqual([`https://h${start % 37}.example/p${start}`, BigInt(start)]);
        start += g.urls.length;
        read.push(g.urls.length);
      }
      urls.close();
      expect(read).toEqual(sizes);
    }
  });

  // A page header that claims more values than its row group has rows: hyparquet sizes its arrays by the claim.
  it.each([200_000_000, -5])('a data page claiming %i values: a one-line error naming the group, the column and the claim', async (claim) => {
    const original = originals.get('uncompressed')!;
    const meta = parquetMetadata(Uint8Array.from(original).buffer);
    const chunk = meta.row_groups[0].columns.find((c) => c.meta_data?.path_in_schema.join('.') === 'url')!.meta_data!;
    const at = Number(chunk.dictionary_page_offset || chunk.data_page_offset);
    const reader = { view: new DataView(original.buffer, original.byteOffset + at, original.length - at), offset: 0 };
    const header = deserializeTCompactProtocol(reader) as { field_5: { field_1: number } };
    header.field_5.field_1 = claim;
    const w = new ByteWriter();
    serializeTCompactProtocol(w, header as never);
    // (The new header may be longer: the file's later offsets move, but the first page's header is read first.)
    const file = path.join(dir, `claim-${claim}.parquet`);
    writeFileSync(file, Buffer.concat([original.subarray(0, at), new Uint8Array(w.getBuffer()), original.subarray(at + reader.offset)]));
    const r = await readAll(file);
    expect('error' in r && r.error).toBeInstanceOf(BulkError);
    expect(('error' in r && (r.error as Error).message) || '').toMatch(new RegExp(`row group 0, column "url": a page at octet ${at} claims ${claim} values in a group of 2048 rows$`));
  });

  // 4 codecs × 150 damaged files, each read in this process: seconds on a quiet machine; the timeout is a hang guard.
  // Seed 12 made hyparquet ask the file for octets at NaN (a slice it never awaited: an unhandled rejection, which
  // ends the command with a stack trace); seed 6 a run of a page's levels claim hundreds of millions of values
  // (hyparquet wrote them past its array's end until V8 ended the process: patches/hyparquet+1.31.5.patch bounds
  // it); then the run's own seed.
  it.each([12, 6, propertySeed()])('octets changed, runs of octets zeroed or set, the file cut short (seed %i)', { timeout: 600_000 }, async (seed) => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const next = seededRandom(seed);
    const int = (n: number) => Math.floor(next() * n);
    const kinds = new Map<string, number>();
    try {
      for (const codec of CODECS) {
        const original = originals.get(codec)!;
        for (let k = 0; k < 150; k++) {
          const damaged = Buffer.from(original);
          let bytes = damaged;
          const how = k % 4;
          if (how === 0) for (let j = 1 + int(8); j > 0; j--) damaged[int(damaged.length)] = int(256);
          else if (how === 1) {
            const from = int(damaged.length);
            damaged.fill(int(2) === 0 ? 0 : 0xff, from, Math.min(damaged.length, from + 1 + int(16)));
          }
          else if (how === 2) bytes = damaged.subarray(0, int(damaged.length));
          // A length field in the footer's Thrift (its last kilobyte) set to a large varint.
          else damaged.set([0xff, 0xff, 0xff, 0xff, 0x07], Math.max(0, damaged.length - 8 - 1 - int(Math.min(1024, damaged.length - 16))));
          const file = path.join(dir, `damaged-${codec}-${k}.parquet`);
          writeFileSync(file, bytes);
          const r = await readAll(file);
          if ('error' in r) {
            if (!(r.error instanceof BulkError)) throw new Error(`${codec} #${k} (kind ${how}, seed ${seed}): not a BulkError: ${(r.error as Error)?.stack ?? String(r.error)}`);
            expect((r.error as Error).message).not.toContain('\n');
            kinds.set('error', (kinds.get('error') ?? 0) + 1);
          } else {
            kinds.set('rows', (kinds.get('rows') ?? 0) + 1);
          }
          rmSync(file);
          await new Promise((resolve) => setImmediate(resolve)); // (the reader reads synchronously: let vitest's RPC through, and a stray rejection be seen)
        }
      }
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled.map((e) => String(e))).toEqual([]);
    // Damage is mostly found (most files then refuse to read).
    expect(kinds.get('error') ?? 0).toBeGreaterThan(100);
  });
});
