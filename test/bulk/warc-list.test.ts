// readWarcList and warcFilesOf (src/bulk/sources/warc/warc-list.ts) on lists given as
// octets: what each line becomes, what is refused and how it is said. The
// downloads themselves: test/cli/warc-list.test.ts, on real servers.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { BulkError } from '../../src/bulk/base/errors.js';
import { DEFAULT_WARC_BASE, readWarcList, warcFilesOf } from '../../src/bulk/sources/warc/warc-list.js';
import { serve, startServer } from '../helpers/http-servers.js';
import { existsSync, readFileSync } from 'node:fs';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-warc-list-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = path.join(dir, 'a.warc.gz');
writeFileSync(file, 'x');
mkdirSync(path.join(dir, 'sub'));
writeFileSync(path.join(dir, 'sub', 'y.warc.gz'), 'y');

const listOf = (text: string | Buffer) => async () => (typeof text === 'string' ? Buffer.from(text) : text);

describe('readWarcList', () => {
  it("Common Crawl's lines (relative keys) resolve against data.commoncrawl.org; CRLF, blank lines and # comments are nothing", async () => {
    const key = 'crawl-data/CC-MAIN-2024-33/segments/1722640353668.0/robotstxt/CC-MAIN-20240802234508-20240803024508-00000.warc.gz';
    const entries = await readWarcList('paths', undefined, listOf(`# robots.txt subset\r\n\r\n${key}\r\n  ${key.replace('00000', '00001')}  \n`));
    expect(entries).toEqual([
      { where: 'paths:3', url: `${DEFAULT_WARC_BASE}${key}` },
      { where: 'paths:4', url: `${DEFAULT_WARC_BASE}${key.replace('00000', '00001')}` },
    ]);
  });

  it('gzipped or plain alike; absolute paths, file: URLs and http(s) URLs as they are; a URL base with or without its slash; a directory base', async () => {
    const text = `${file}\n${pathToFileURL(file).href}\nhttps://mirror.example/x/y.warc.gz\nHTTP://Mirror.Example:80/z\nrel/k.warc.gz\n`;
    for (const octets of [Buffer.from(text), gzipSync(text)]) {
      expect(await readWarcList('l', 'https://base.example/cc', listOf(octets))).toEqual([
        { where: 'l:1', path: file },
        { where: 'l:2', path: file },
        { where: 'l:3', url: 'https://mirror.example/x/y.warc.gz' },
        { where: 'l:4', url: 'http://mirror.example/z' },
        { where: 'l:5', url: 'https://base.example/cc/rel/k.warc.gz' },
      ]);
    }
    expect(await readWarcList('l', dir, listOf('a.warc.gz\n'))).toEqual([{ where: 'l:1', path: path.join(dir, 'a.warc.gz') }]);
  });

  it('refuses with one line naming the first bad line and how many more: other schemes, control characters, a local file not there, a URL that does not parse', async () => {
    const bad = readWarcList('l', undefined, listOf(`${file}\ns3://commoncrawl/x\n/no/such\nhttps://[::1\nftp://x\n`));
    await expect(bad).rejects.toThrow(BulkError);
    await expect(bad).rejects.toThrow(/^l:2: s3: URLs are not fetched .* \(and 3 more bad lines\)$/);
    await expect(readWarcList('l', dir, listOf('missing.warc.gz\n'))).rejects.toThrow(/^l:1: cannot read WARC file .*missing\.warc\.gz: no such file or directory$/);
    await expect(readWarcList('l', undefined, listOf(`${dir}\n`))).rejects.toThrow(/^l:1: cannot read WARC file .*: is a directory$/);
    await expect(readWarcList('l', undefined, listOf('https://[::1\n'))).rejects.toThrow(/^l:1: not a URL: https:\/\/\[::1$/);
    await expect(readWarcList('l', undefined, listOf('a\tb\x07\n'))).rejects.toThrow(/^l:1: not a path or URL \(control characters\)$/);
  });

  it('a relative entry that climbs out of its base is a bad line, however spelt; .. that stays under it is the path it names', async () => {
    for (const entry of ['../x.warc.gz', 'a/../../x.warc.gz', '%2e%2e/x.warc.gz', '.%2E/x.warc.gz', '..\\x.warc.gz', '\\\\evil.example\\x.warc.gz', 'c:/x.warc.gz']) {
      await expect(readWarcList('l', 'https://base.example/cc/', listOf(`${entry}\n`)), entry).rejects.toThrow(`l:1: ${entry} is not under --warc-base https://base.example/cc/`);
    }
    await expect(readWarcList('l', path.join(dir, 'sub'), listOf('../a.warc.gz\n'))).rejects.toThrow(/^l:1: \.\.\/a\.warc\.gz is not under --warc-base .*sub$/);
    expect(await readWarcList('l', 'https://base.example/cc', listOf('a/../b/x.warc.gz\n'))).toEqual([{ where: 'l:1', url: 'https://base.example/cc/b/x.warc.gz' }]);
    expect(await readWarcList('l', path.join(dir, 'sub'), listOf('../sub/../sub/y.warc.gz\n'))).toEqual([{ where: 'l:1', path: path.join(dir, 'sub', 'y.warc.gz') }]);
  });

  it('a bad --warc-base, a base that is a file, an empty list, a list that is not UTF-8 or not gzip inside', async () => {
    await expect(readWarcList('l', path.join(dir, 'nope'), listOf('x\n'))).rejects.toThrow(/^cannot read --warc-base .*nope: no such file or directory$/);
    await expect(readWarcList('l', file, listOf('x\n'))).rejects.toThrow(/is not a directory \(nor an http\(s\) URL\)$/);
    await expect(readWarcList('l', undefined, listOf('\n# only a comment\n'))).rejects.toThrow(/^--robots-warc-list l names no WARC file$/);
    await expect(readWarcList('l', undefined, listOf(Buffer.from([0xc3, 0x28, 0x0a])))).rejects.toThrow(/not UTF-8 text/);
    await expect(readWarcList('l', undefined, listOf(Buffer.from([0x1f, 0x8b, 1, 2, 3])))).rejects.toThrow(/^cannot read WARC list l: gzip: /);
  });
});

describe('warcFilesOf', () => {
  it('--robots-warc files first, then each list in order; a --robots-warc file not there refused first; stdin at most once', async () => {
    const hooks = { warn: () => {} };
    const files = await warcFilesOf({ files: [file], lists: ['one', 'two'] }, { userAgent: 'x' }, hooks, async (l) => Buffer.from(l === 'one' ? `${file}\n` : `${file}\n${file}\n`));
    const got: string[] = [];
    for await (const f of files) got.push(f);
    expect([files.total, got, files.skipped]).toEqual([4, [file, file, file, file], []]);
    expect(files.sources).toEqual(got.map((name) => ({ name, octets: 1 })));
    await expect(warcFilesOf({ files: [path.join(dir, 'gone.warc')] }, { userAgent: 'x' }, hooks)).rejects.toThrow(/^cannot read WARC file .*gone\.warc: no such file or directory$/);
    await expect(warcFilesOf({ lists: ['-', '-'] }, { userAgent: 'x' }, hooks)).rejects.toThrow(/can be given once/);
  });

  it('a download is a temporary file while it is read, gone after; its source is named by its URL', async () => {
    const server = await startServer(serve('warc octets'));
    try {
      const url = `${server.origin}/crawl/x.warc.gz`;
      const files = await warcFilesOf({ lists: ['l'] }, { userAgent: 'x' }, { warn: () => {} }, async () => Buffer.from(`${url}\n${file}\n`));
      const seen: [string, string][] = [];
      for await (const f of files) seen.push([f, readFileSync(f, 'utf8')]);
      expect(seen[0][1]).toBe('warc octets');
      expect(seen[1]).toEqual([file, 'x']);
      expect(existsSync(seen[0][0])).toBe(false);
      expect(files.sources).toEqual([{ name: url, octets: 11 }, { name: file, octets: 1 }]);
      expect([files.downloaded, files.downloadedOctets, files.named(`${seen[0][0]}: damaged`)]).toEqual([1, 11, `${seen[0][0]}: damaged`]);
    } finally {
      await server.close();
    }
  });
});
