// robots classify --usage on issue 42's file built to be slow (30 Content-Usage
// rules of 8,000 `*a`): each URL's purposes, usage()'s, through the same
// compiled matcher (before: 3.65 s a URL, and 13-16 s for a 16 KiB one).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from '../../dist/index.js';
import { robots } from '../helpers/cli-run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-usage-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PURPOSES = ['search', 'train-ai', 'ai-use'] as const;

describe('robots classify --usage, a file built to be slow', () => {
  it('30 rules of 8,000 `*a` and 40 URLs, half of 16 KiB: the library\'s purposes (the command\'s own hang guard: 60 s)', async () => {
    const body = 'User-agent: *\nContent-Usage: / search=y\n' + Array.from({ length: 30 }, (_, i) => `Content-Usage: /${'*a'.repeat(8000)}${i} train-ai=n\n`).join('');
    const file = path.join(dir, 'robots.txt');
    writeFileSync(file, body);
    const urls = Array.from({ length: 40 }, (_, i) => `https://example.com/${'a'.repeat(i % 2 ? 16_000 + i : 300 + i)}${i % 30}`);
    const urlsFile = path.join(dir, 'urls.txt');
    writeFileSync(urlsFile, urls.join('\n') + '\n');
    for (const profile of ['google', 'rfc'] as const) {
      const r = await robots(['classify', '--robots', file, '--crawlers', 'FooBot,GPTBot', '--usage', '--profile', profile, '-q', urlsFile]);
      expect(r.status, r.stderr).toBe(0);
      const library = parse(body, { profile });
      const rows = r.stdout.trimEnd().split('\n').slice(1);
      expect(rows).toEqual(urls.map((u) => {
        const p = library.usage(u, 'FooBot').purposes;
        const cells = ['allowed', ...PURPOSES.map((k) => p[k])];
        return [u, ...cells, ...cells].join('\t');
      }));
      // The rules decide where they match: not all alike.
      expect(new Set(rows.map((row) => row.split('\t')[3]))).toEqual(new Set(['disallowed', 'unknown']));
    }
  }, 180_000 /* a hang guard: two profiles' runs and 80 library answers on a busy machine */);
});
