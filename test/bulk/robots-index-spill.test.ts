// Reading a robots index (robots-index-reader.ts): the chosen captures' bodies are read back where
// they lie when they all lie in one shard file (no spill file written, no body copied); from
// several files they are copied to a spill of this run. Either way each site reads the body its
// capture chose. An index made by the built `robots index` from a WARC written by warcio.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { heldShardOctets, readRobotsIndexes } from '../../src/bulk/index/robots-index-reader.js';
import { MANIFEST } from '../../src/bulk/index/robots-index-format.js';
import { captureReader } from '../../src/bulk/audit/audit-sites.js';
import { robots } from '../helpers/cli-run.js';
import { writeWarc, type Capture } from '../helpers/warc-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'index-spill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hosts = Array.from({ length: 40 }, (_, i) => `site${i}.example`);
const bodyOf = (host: string, date: number) => `# ${host} of day ${date}\nUser-agent: *\nDisallow: /${host}/${date}\n`;
// Two captures a host (the later one chosen), a redirect and an empty body among them.
const captures: Capture[] = [
  ...hosts.flatMap((host) => [1, 2].map((day) => ({ url: `https://${host}/robots.txt`, date: `2024-01-0${day}T00:00:00Z`, body: bodyOf(host, day) }))),
  { url: 'https://moved.example/robots.txt', status: 301, headers: { Location: 'https://site3.example/robots.txt' } },
  { url: 'https://empty.example/robots.txt', body: '' },
];

async function indexOf(name: string, shards: number): Promise<string> {
  const warc = path.join(dir, `${name}.warc.gz`);
  await writeWarc(warc, captures);
  const out = path.join(dir, name);
  const run = await robots(['index', '--out', out, '--shards', String(shards), '-q', warc]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return out;
}

function bodiesRead(index: string): { spill: string | null; bodies: Map<string, string> } {
  const read = readRobotsIndexes([index], { maxOctets: 500_000 });
  try {
    const resolve = captureReader(read.data);
    const bodies = new Map<string, string>();
    for (const host of [...hosts, 'moved.example', 'empty.example']) {
      const found = resolve({ scheme: 'https', host, port: '' });
      bodies.set(host, found.kind === 'ok' ? Buffer.from(found.body).toString() : found.kind);
    }
    return { spill: read.data.spill, bodies };
  } finally {
    read.dispose();
  }
}

function expectedBodies(): Map<string, string> {
  return new Map([...hosts.map((h) => [h, bodyOf(h, 2)] as const), ['moved.example', bodyOf('site3.example', 2)], ['empty.example', '']]);
}

// (Generous: robots index and a read on a machine shared by many test runs.)
describe('a robots index read back', { timeout: 120_000 }, () => {
  it('reads the bodies from the shard file itself when every chosen capture is in it: no spill written', async () => {
    const index = await indexOf('one', 1);
    const shardFiles = readdirSync(index).filter((f) => f !== MANIFEST);
    expect(shardFiles).toHaveLength(1);
    const { spill, bodies } = bodiesRead(index);
    expect(spill).toBe(path.join(index, shardFiles[0]));
    expect(bodies).toEqual(expectedBodies());
    // (dispose leaves the index as it was.)
    expect(existsSync(spill!)).toBe(true);
  });

  it('copies the bodies to a spill of its own when they are in several shard files', async () => {
    const index = await indexOf('four', 4);
    const { spill, bodies } = bodiesRead(index);
    expect(path.dirname(spill!)).not.toBe(index);
    expect(bodies).toEqual(expectedBodies());
    expect(existsSync(spill!)).toBe(false); // (removed by dispose)
  });

  it("refuses a shard with an octet of a body changed, read whole in one read or by windows: that record's checksum", async () => {
    const index = await indexOf('damaged', 1);
    const shard = readdirSync(index).find((f) => f !== MANIFEST)!;
    const octets = readFileSync(path.join(index, shard));
    // (A body far into the shard: the last host's, of the later day.)
    const at = octets.indexOf(Buffer.from(`Disallow: /${hosts[hosts.length - 1]}/2`));
    expect(at).toBeGreaterThan(octets.length / 2);
    const damaged = path.join(dir, 'damaged-copy');
    cpSync(index, damaged, { recursive: true });
    octets[at + 12] ^= 0x20;
    writeFileSync(path.join(damaged, shard), octets);
    const limit = heldShardOctets.limit;
    try {
      for (const bound of [limit, 64]) {
        heldShardOctets.limit = bound;
        expect(() => readRobotsIndexes([damaged], { maxOctets: 500_000 })).toThrow(/damaged record at offset \d+ \(checksum mismatch\)/);
        expect(() => readRobotsIndexes([index], { maxOctets: 500_000 }).dispose()).not.toThrow();
      }
    } finally {
      heldShardOctets.limit = limit;
    }
  });
});
