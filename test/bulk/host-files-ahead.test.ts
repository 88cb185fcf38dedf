// A --robots-dir's host files read ahead (host-files-ahead.ts): the reader finds
// the origins of a block as the classifier does (every spelling of a host, its
// scheme and port, --shard), reads each new one once, and the classifier then
// takes them from memory, not from the directory: shown by changing the
// directory in between. An origin the reader did not read is looked up.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlockClassifier, type ClassifyConfig } from '../../src/bulk/classify/classify-config.js';
import { FilesReadAhead, HostFilesAhead } from '../../src/bulk/classify/host-files-ahead.js';
import { shardOf } from '../../src/bulk/hosts/shard.js';
import { hashHost, HOST_HASHES } from '../../src/bulk/hosts/host-hash.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-files-ahead-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const DISALLOW_ALL = 'User-agent: *\nDisallow: /\n';
const ALLOW_ALL = 'User-agent: *\nAllow: /\n';
const put = (name: string, body: string) => writeFileSync(path.join(dir, name), body);
mkdirSync(path.join(dir, 'https'));
mkdirSync(path.join(dir, 'folder.example'));

const config: ClassifyConfig = { robotsDir: dir, agents: ['FooBot'], profile: 'rfc', format: 'tsv', maxOctets: 1 << 20, cacheBytes: 1 << 24 };
const verdicts = (output: Uint8Array) => new TextDecoder().decode(output).split('\n').slice(0, -1).map((l) => l.split('\t')[0]);
const block = (urls: string[]) => new TextEncoder().encode(urls.join('\n') + '\n');

describe('host files read ahead', () => {
  it('the classifier decides by the files as read ahead, every spelling of a host one origin; an origin not read ahead is looked up', () => {
    put('a.example', DISALLOW_ALL);
    put('b.example', DISALLOW_ALL);
    writeFileSync(path.join(dir, 'https', 'c.example:8443'), DISALLOW_ALL);
    const urls = ['http://a.example/1', 'http://A.EXAMPLE./2', 'https://c.example:8443/3', 'http://folder.example/4', 'http://none.example/5', 'not a url', 'http://b.example/6'];
    const reader = new HostFilesAhead(dir, 1 << 20);
    const files = reader.read(block(urls));
    // a.example once for both spellings; folder and none looked up (unreadable, none); the line without a host not.
    expect(files.keys.length).toBe(5);
    expect(reader.reads).toBe(3);
    expect(files.unreadable).toEqual([path.join(dir, 'folder.example'), 'is a directory']);
    // Changed since: the classifier still decides by what was read ahead ...
    put('a.example', ALLOW_ALL);
    writeFileSync(path.join(dir, 'https', 'c.example:8443'), ALLOW_ALL);
    put('none.example', DISALLOW_ALL);
    const classifier = new BlockClassifier(config);
    const r = classifier.classify(block(urls), undefined, new FilesReadAhead(files));
    expect(verdicts(r.output)).toEqual(['disallowed', 'disallowed', 'disallowed', 'disallowed', 'allowed', 'allowed', 'disallowed']);
    expect(r.unreadable).toEqual([`cannot read ${path.join(dir, 'folder.example')}: is a directory`]);
    // ... and a host the reader had already read (so not read ahead again) is looked up by the classifier.
    put('b2.example', DISALLOW_ALL);
    const again = reader.read(block(['http://a.example/7', 'http://b2.example/8']));
    expect([...again.keys].length).toBe(1);
    const fresh = new BlockClassifier(config);
    expect(verdicts(fresh.classify(block(['http://a.example/7', 'http://b2.example/8']), undefined, new FilesReadAhead(again)).output)).toEqual(['allowed', 'disallowed']);
  });

  it('--shard: only the shard\'s hosts are read', () => {
    const hosts = Array.from({ length: 40 }, (_, i) => `s${i}.example`);
    for (const h of hosts) put(h, DISALLOW_ALL);
    const shard = { index: 1, count: 3 };
    const mine = hosts.filter((h) => {
      hashHost(h);
      return shardOf(HOST_HASHES[0], 3) === 1;
    });
    const reader = new HostFilesAhead(dir, 1 << 20, shard);
    reader.read(block(hosts.map((h) => `http://${h}/x`)));
    expect(mine.length).toBeGreaterThan(0);
    expect(reader.reads).toBe(mine.length);
  });

  it('the classifier replays the reader\'s split of the block (line-splits.ts) instead of splitting it again, with the same output; a split of another block is not replayed', () => {
    const hosts = Array.from({ length: 300 }, (_, i) => `split${i}.example`);
    hosts.forEach((h, i) => put(h, i % 3 === 0 ? DISALLOW_ALL : 'User-agent: *\nDisallow: /private\n'));
    // Past MAX_RECORDS lines (two splitLines calls), some hosts spelled otherwise (canonicalised), blank lines and a line without a host.
    const urls: string[] = [];
    for (let i = 0; i < 40_000; i++) {
      const h = hosts[Math.floor(i / 134)];
      urls.push(i % 97 === 0 ? `HTTP://${h.toUpperCase()}./private/${i}` : i % 101 === 0 ? '' : i % 103 === 0 ? 'no host here' : `http://${h}/${i % 2 === 0 ? 'private' : 'public'}/${i}`);
    }
    const lines = block(urls);
    const files = new HostFilesAhead(dir, 1 << 20).read(lines);
    expect(files.splits?.calls.length).toBe(2 * 3);
    const replaying = new BlockClassifier(config);
    const replayed = replaying.classify(lines, undefined, new FilesReadAhead(files));
    expect(replaying.splitCalls).toBe(0);
    const splitting = new BlockClassifier(config);
    const split = splitting.classify(lines, undefined, new FilesReadAhead({ ...files, splits: undefined }));
    expect(splitting.splitCalls).toBe(2);
    expect(Buffer.from(replayed.output).equals(Buffer.from(split.output))).toBe(true);
    expect(replayed.urls).toBe(split.urls);
    expect(replayed.allowed).toBe(split.allowed);
    expect(replayed.newHosts).toEqual(split.newHosts);
    // A split recorded for other octets (here: the block less its last line) does not fit: the block is split here.
    const other = new HostFilesAhead(dir, 1 << 20).read(block(urls.slice(0, -1)));
    const refusing = new BlockClassifier(config);
    const refused = refusing.classify(lines, undefined, new FilesReadAhead({ ...files, splits: other.splits }));
    expect(refusing.splitCalls).toBe(2);
    expect(Buffer.from(refused.output).equals(Buffer.from(split.output))).toBe(true);
  });
});
