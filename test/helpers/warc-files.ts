// WARC files for the tests, written by warcio (the WARC library the command
// reads them with): robots.txt captures with any HTTP status, headers and
// body, as plain WARC, gzip per record (as Common Crawl writes them) or the
// whole file gzipped.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { WARCRecord, WARCSerializer } from 'warcio';
import { expect } from 'vitest';
import { robots } from './cli-run.js';

export interface Capture {
  url: string;
  status?: number;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
  /** ISO date (default 2024-01-01). */
  date?: string;
  /** A record of another type (a revisit has HTTP headers as a response does). */
  type?: 'response' | 'request' | 'metadata' | 'revisit' | 'warcinfo';
}

export type WarcLayout = 'plain' | 'gzip-records' | 'gzip-whole';

export async function serializeCapture(c: Capture, gzip: boolean): Promise<Uint8Array> {
  const body = typeof c.body === 'string' ? new TextEncoder().encode(c.body) : c.body ?? new Uint8Array(0);
  const type = c.type ?? 'response';
  const record = await WARCRecord.create(
    {
      url: c.url,
      date: c.date ?? '2024-01-01T00:00:00Z',
      type,
      ...(type === 'response' || type === 'revisit' ? { httpHeaders: { 'Content-Type': 'text/plain', ...c.headers }, statusline: `HTTP/1.1 ${c.status ?? 200} X` } : {}),
      ...(type === 'request' ? { httpHeaders: { Host: new URL(c.url).host }, statusline: `GET ${new URL(c.url).pathname} HTTP/1.1` } : {}),
    },
    (async function* () {
      yield body;
    })(),
  );
  // The record as warcio writes it, gzipped by zlib in one call: warcio's own gzip (a CompressionStream a record)
  // gives the same octets (400 corpus records compared) for 3.6 times the CPU (2.2 against 0.6 ms a record).
  const octets = await WARCSerializer.serialize(record, { gzip: false });
  return gzip ? gzipSync(octets) : octets;
}

export async function writeWarc(file: string, captures: Capture[], layout: WarcLayout = 'gzip-records'): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for (const c of captures) parts.push(await serializeCapture(c, layout === 'gzip-records'));
  let octets = Buffer.concat(parts);
  if (layout === 'gzip-whole') octets = gzipSync(octets);
  writeFileSync(file, octets);
  return octets;
}

/** The same sites two ways, for runs that must agree: DIR/robots/<host> (--robots-dir) and
 * DIR/r.warc.gz (--robots-warc, a capture of each host's /robots.txt); and the URL list. */
export async function writeSites(dir: string, files: Record<string, string>, urls: readonly string[], urlsFile: string): Promise<void> {
  mkdirSync(path.join(dir, 'robots'));
  for (const [host, body] of Object.entries(files)) writeFileSync(path.join(dir, 'robots', host), body);
  await writeWarc(path.join(dir, 'r.warc.gz'), Object.entries(files).map(([host, body]) => ({ url: `https://${host}/robots.txt`, body })));
  writeFileSync(urlsFile, urls.join('\n') + '\n');
}

/** The same sites as every source classify reads, for runs that must agree: writeSites's folder and WARC,
 * a --robots-warc-list of that WARC, and its --robots-index (2 shards, made by the built command).
 * Returns each source's arguments. */
export async function writeEverySource(dir: string, files: Record<string, string>, urls: readonly string[], urlsFile: string): Promise<string[][]> {
  await writeSites(dir, files, urls, urlsFile);
  const warc = path.join(dir, 'r.warc.gz');
  writeFileSync(path.join(dir, 'warcs.txt'), warc + '\n');
  const index = await robots(['index', '--out', path.join(dir, 'idx'), '--shards', '2', '-q', warc]);
  expect(index.status, index.stderr).toBe(0);
  return [
    ['--robots-dir', path.join(dir, 'robots')],
    ['--robots-warc', warc],
    ['--robots-warc-list', path.join(dir, 'warcs.txt')],
    ['--robots-index', path.join(dir, 'idx')],
  ];
}
