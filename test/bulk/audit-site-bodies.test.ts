// The audit's sites of a robots index (captureSites) read each robots.txt body as a view of the
// reader's window: the audit is done with a body before it asks the next site's, so no body is
// copied into octets of its own (a count, not a clock); each site still reads its own body, in the
// index's order or any other, and audits as a copy of it would. An index made by the built
// `robots index` from a WARC written by warcio. The index's one shard is read once: its records
// whole in one read, the bodies views of it, none read from the file again (a count); a shard over
// the bound is read by windows, its bodies read again from the file, the same.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldShardOctets, readRobotsIndexes } from '../../src/bulk/index/robots-index-reader.js';
import { captureReader, captureSites, type AuditSite } from '../../src/bulk/audit/audit-sites.js';
import { robotsBodyWork } from '../../src/bulk/sources/warc/warc-robots.js';
import { SiteAuditor } from '../../src/bulk/audit/site-audit.js';
import type { WarcIndex } from '../../src/bulk/sources/warc/warc-index.js';
import { robots } from '../helpers/cli-run.js';
import { writeWarc, type Capture } from '../helpers/warc-files.js';
import { gc } from '../helpers/gc.js';

const dir = mkdtempSync(path.join(tmpdir(), 'audit-site-bodies-'));
const hosts = Array.from({ length: 60 }, (_, i) => `site${String(i).padStart(2, '0')}.example`);
const bodyOf = (host: string, i: number) =>
  `User-agent: GPTBot\nDisallow: /${host}\n\nUser-agent: *\nAllow: /\n` +
  // (Some bodies longer than a window of the reader, some far shorter.)
  (i % 7 === 0 ? `Disallow: /${'x'.repeat(90)}\n`.repeat(1500) : '');
const captures: Capture[] = [
  ...hosts.map((host, i) => ({ url: `https://${host}/robots.txt`, body: bodyOf(host, i) })),
  { url: 'https://empty.example/robots.txt', body: '' },
];
const expected = new Map([...hosts.map((h, i) => [`https://${h}`, bodyOf(h, i)] as const), ['https://empty.example', '']]);
let index: WarcIndex;
let indexDir: string;

// (Generous: robots index run by the built command on a machine shared by many test runs.)
beforeAll(async () => {
  const warc = path.join(dir, 'r.warc.gz');
  await writeWarc(warc, captures);
  indexDir = path.join(dir, 'idx');
  const run = await robots(['index', '--out', indexDir, '-q', warc]);
  expect(run.stderr).toBe('');
  index = readRobotsIndexes([indexDir], { maxOctets: 500_000 });
}, 120_000);
afterAll(() => {
  index?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function bodyText(s: AuditSite): string {
  const found = s.robots();
  if (found.kind !== 'ok') throw new Error(`${s.site}: ${found.kind}`);
  return Buffer.from(found.body).toString();
}

describe("the audit's sites read from a robots index", () => {
  it('read each body where the reader holds it: no octet copied, in order or not', () => {
    const sites = captureSites(index.data);
    expect(sites.map((s) => s.site).sort()).toEqual([...expected.keys()].sort());
    const before = robotsBodyWork.copied;
    for (const s of sites) expect(bodyText(s)).toBe(expected.get(s.site));
    for (const s of [...sites].reverse()) expect(bodyText(s)).toBe(expected.get(s.site));
    expect(robotsBodyWork.copied - before).toBe(0);
  });

  it('a reader whose bodies a caller may keep (threads, classify) still copies them', () => {
    const read = captureReader(index.data);
    const before = robotsBodyWork.copied;
    const kept = hosts.map((host) => read({ scheme: 'https', host, port: '' }));
    kept.forEach((found, i) => expect(found.kind === 'ok' && Buffer.from(found.body).toString()).toBe(bodyOf(hosts[i], i)));
    expect(robotsBodyWork.copied - before).toBeGreaterThan(0);
  });

  it('audit as copies of the bodies do', () => {
    const auditor = new SiteAuditor({ crawlers: ['GPTBot', 'CCBot'], profile: 'rfc', maxOctets: 500_000, convention: 'rfc' });
    for (const s of captureSites(index.data)) {
      const found = s.robots();
      const copy = found.kind === 'ok' ? { ...found, body: Uint8Array.from(found.body) } : found;
      const fromCopy = auditor.audit(s.site, s.url, copy);
      expect(auditor.audit(s.site, s.url, s.robots())).toEqual(fromCopy);
    }
  });

  it("read no body from the shard file again: its records were read whole, once, and the bodies are views of them", () => {
    const sites = captureSites(index.data);
    const before = robotsBodyWork.read;
    for (const s of sites) expect(bodyText(s)).toBe(expected.get(s.site));
    for (const s of [...sites].reverse()) expect(bodyText(s)).toBe(expected.get(s.site));
    expect(robotsBodyWork.read - before).toBe(0);
  });

  it('a shard over the bound of one read: its records read by windows, the bodies read again from the file, the same', () => {
    const limit = heldShardOctets.limit;
    heldShardOctets.limit = 1024;
    let windowed: WarcIndex | undefined;
    try {
      windowed = readRobotsIndexes([indexDir], { maxOctets: 500_000 });
      expect(windowed.data.held).toBeUndefined();
      const before = robotsBodyWork.read;
      for (const s of captureSites(windowed.data)) expect(bodyText(s)).toBe(expected.get(s.site));
      expect(robotsBodyWork.read - before).toBeGreaterThan(0);
    } finally {
      heldShardOctets.limit = limit;
      windowed?.dispose();
    }
  });

  it('a disposed index keeps none of its held octets once the job that disposed it ends', async () => {
    const readAndDispose = () => {
      const read = readRobotsIndexes([indexDir], { maxOctets: 500_000 });
      const octets = new WeakRef(read.data.held!.octets.buffer);
      read.dispose();
      return octets;
    };
    const octets = readAndDispose();
    // (A WeakRef's target is kept until the job ends: the reads of one loop reuse it.)
    await new Promise((r) => setImmediate(r));
    gc();
    expect(octets.deref()).toBeUndefined();
  });
});
