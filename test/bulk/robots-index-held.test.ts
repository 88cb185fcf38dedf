// The index reader's memory while it reads an index shard file after shard file (no --shard: the audit's and
// classify's whole-index read): it holds one file's records at most. Measured, not counted: after each file's
// read (shardReadProbe), a full collection, then the process's ArrayBuffer octets. The shards are made to grow
// in the order they are read (each host's shard computed as the indexer computes it), the case where a buffer
// given back for the next read but too small for it was kept alive until the read ended (a WeakRef's target is
// kept through the job that made it), so that every file's records were alive at the last.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRobotsIndexes, shardReadProbe } from '../../src/bulk/index/robots-index-reader.js';
import { captureShard } from '../../src/bulk/index/robots-index-format.js';
import { captureKey } from '../../src/bulk/sources/warc/warc-index.js';
import { captureSites } from '../../src/bulk/audit/audit-sites.js';
import { robots } from '../helpers/cli-run.js';
import { writeWarc, type Capture } from '../helpers/warc-files.js';
import { gc } from '../helpers/gc.js';

/** Full collections until the ArrayBuffer octets stop falling (V8 frees a dead buffer's octets on a thread of its
 * own after a collection, and counts them freed at a later one). */
function settle(): void {
  let before = Infinity;
  for (let i = 0; i < 8; i++) {
    gc();
    const now = process.memoryUsage().arrayBuffers;
    if (now >= before) return;
    before = now;
  }
}

const SHARDS = 4;
/** A body's octets, and the bodies of shard s: (s + 1) times PER_SHARD, so each file read is larger than the last. */
const BODY = 200_000;
const PER_SHARD = 6;
const dir = mkdtempSync(path.join(tmpdir(), 'robots-index-held-'));
let indexDir: string;
const bodies = new Map<string, string>();

/** Hosts whose captures the indexer puts in shard s, as many as wanted there. */
function hostsByShard(): string[][] {
  const byShard: string[][] = Array.from({ length: SHARDS }, () => []);
  for (let i = 0; byShard.some((h, s) => h.length < (s + 1) * PER_SHARD); i++) {
    const host = `site${i}.example`;
    const s = captureShard(captureKey(`https://${host}/robots.txt`)!, SHARDS);
    if (byShard[s].length < (s + 1) * PER_SHARD) byShard[s].push(host);
  }
  return byShard;
}

// (Generous: the built command on a machine shared by many test runs.)
beforeAll(async () => {
  const captures: Capture[] = [];
  for (const hosts of hostsByShard()) {
    for (const host of hosts) {
      // (Rules that differ from host to host and from line to line: the octets are the shard's, whatever gzip does.)
      let body = `User-agent: GPTBot\nDisallow: /${host}\n`;
      for (let line = 0; body.length < BODY; line++) body += `Disallow: /${host}/${line.toString(36)}/${'abcdefghij'.repeat(4)}\n`;
      bodies.set(`https://${host}`, body);
      captures.push({ url: `https://${host}/robots.txt`, body });
    }
  }
  const warc = path.join(dir, 'r.warc.gz');
  await writeWarc(warc, captures);
  indexDir = path.join(dir, 'idx');
  const run = await robots(['index', '--shards', String(SHARDS), '--out', indexDir, '-q', warc]);
  expect(run.stderr).toBe('');
}, 180_000);
afterAll(() => {
  shardReadProbe.afterRead = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('robots index reader: one shard file held at a time', () => {
  it('holds one file\'s records at most while it reads every shard, each larger than the last; the bodies the same', () => {
    const smallest = PER_SHARD * BODY;
    const largest = SHARDS * PER_SHARD * BODY;
    // The ArrayBuffer octets after each file's read, less those after the first: the earlier files' records
    // kept alive would add up to (1 + 2 + 3) times the smallest's here (10.8 MB), one file's alone to 3.
    settle();
    const after: number[] = [];
    shardReadProbe.afterRead = () => {
      settle();
      after.push(process.memoryUsage().arrayBuffers);
    };
    const index = readRobotsIndexes([indexDir], { maxOctets: 500_000 });
    shardReadProbe.afterRead = undefined;
    try {
      expect(after).toHaveLength(SHARDS);
      const rise = after[SHARDS - 1] - after[0];
      expect(rise).toBeGreaterThan((largest - smallest) * 0.8); // (the measure sees the held file's records)
      expect(rise).toBeLessThan(largest);
      const sites = captureSites(index.data);
      expect(sites).toHaveLength(bodies.size);
      for (const s of sites) {
        const found = s.robots();
        expect(found.kind === 'ok' && Buffer.from(found.body).toString()).toBe(bodies.get(s.site));
      }
    } finally {
      index.dispose();
    }
  });
});
