// The classifying side of the host files read ahead (host-files-ahead.ts's
// FilesReadAhead, host-matchers.ts's loadFile): the classifier asks for the files
// in the order the reader read them, so it takes each by trying the next one, and
// a host whose file was read ahead is compiled without its origin being made (a
// host name's strings and an object per host, on the classifying thread). Counted:
// the origins asked for; and the answers, for keys asked out of order and for
// keys the reader never read.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FilesReadAhead, HostFilesAhead } from '../../src/bulk/classify/host-files-ahead.js';
import { HostMatchers } from '../../src/bulk/classify/host-matchers.js';
import { UNREACHABLE } from '../../src/bulk/classify/classification.js';
import type { Matcher } from '../../src/engine/match/matcher.js';
import type { Origin } from '../../src/bulk/hosts/origin.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-ahead-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const HOSTS = 50;
for (let h = 0; h < HOSTS; h++) writeFileSync(path.join(dir, `h${h}.example`), h % 2 === 0 ? 'User-agent: *\nDisallow: /\n' : 'User-agent: *\nDisallow: /private\n');
mkdirSync(path.join(dir, 'folder.example'));
const names = [...Array.from({ length: HOSTS }, (_, h) => `h${h}.example`), 'folder.example', 'none.example'];
const block = new TextEncoder().encode(names.map((host) => `https://${host}/private/x`).join('\n') + '\n');

describe('files read ahead, taken in order', () => {
  it('a host read ahead is compiled without making its origin; one without a file makes it once (its entry is weighed by its name)', () => {
    const reader = new HostFilesAhead(dir, 1 << 20);
    const files = reader.read(block);
    expect(files.keys.length).toBe(names.length);
    const hosts = new HostMatchers({ dir, agents: ['FooBot'], profile: 'rfc', maxOctets: 1 << 20, cacheBytes: 1 << 24 });
    hosts.readAhead(new FilesReadAhead(files));
    let made = 0;
    const origin = (host: string) => (): Origin => (made++, { host, scheme: 'https', port: '' });
    for (let h = 0; h < HOSTS; h++) {
      const m = hosts.get(files.keys[h], origin(names[h])) as Matcher;
      expect(m.isAllowed('https://x/private/x')).toBe(false);
      expect(m.isAllowed('https://x/public')).toBe(h % 2 === 1);
    }
    expect(made).toBe(0);
    expect(hosts.get(files.keys[HOSTS], origin('folder.example'))).toBe(UNREACHABLE);
    expect(hosts.get(files.keys[HOSTS + 1], origin('none.example'))).toBe(null);
    expect(made).toBe(2);
    expect(hosts.loads).toBe(names.length);
    expect(hosts.takeUnreadable()).toEqual([`cannot read ${path.join(dir, 'folder.example')}: is a directory`]);
    hosts.close();
  });

  it('keys asked out of order, or twice, or never read ahead: each gets what was read for it, or undefined', () => {
    const files = new HostFilesAhead(dir, 1 << 20).read(block);
    const ahead = new FilesReadAhead(files);
    const text = (i: number) => {
      const f = ahead.take(files.keys[i]);
      return f?.kind === 'file' ? new TextDecoder().decode(f.body) : f?.kind;
    };
    expect(text(3)).toBe('User-agent: *\nDisallow: /private\n');
    expect(text(4)).toBe('User-agent: *\nDisallow: /\n'); // (the next one)
    expect(text(1)).toBe('User-agent: *\nDisallow: /private\n'); // (back)
    expect(text(1)).toBe('User-agent: *\nDisallow: /private\n'); // (again)
    expect(text(HOSTS)).toBe('unreadable');
    expect(text(HOSTS + 1)).toBe('none');
    expect(text(0)).toBe('User-agent: *\nDisallow: /\n');
    expect(ahead.take(12345)).toBeUndefined();
  });
});
