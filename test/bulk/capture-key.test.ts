// A capture's key (captureKey, warc-capture-read.ts): new URL()'s href, no
// fragment, no trailing dot on the host. robots index reads one a record, and
// nearly every one is a plain `http(s)://host/robots.txt` that new URL() gives
// back as it is: that form is taken without parsing, and every URL gets the key
// the parser gives.
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureKey } from '../../src/bulk/sources/warc/warc-capture-read.js';

/** The key as the parser gives it (captureKey's long way). */
function parsedKey(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (url.includes('#')) u.hash = '';
    if (u.hostname.length > 1 && u.hostname.endsWith('.')) u.hostname = u.hostname.slice(0, -1);
    return u.href;
  } catch {
    return undefined;
  }
}

const CORPUS_HOSTS = readdirSync(path.join(import.meta.dirname, '../../../shared/corpus/robots'));

describe('captureKey', () => {
  it('takes a plain robots.txt URL as it is, without new URL() (robots index reads one a record)', () => {
    const Parser = globalThis.URL;
    let parsed = 0;
    globalThis.URL = class extends Parser {
      constructor(url: string | URL, base?: string | URL) {
        super(url, base);
        parsed++;
      }
    };
    try {
      for (const url of ['https://example.com/robots.txt', 'http://a-b.c0.example/robots.txt', 'https://x/robots.txt']) expect(captureKey(url)).toBe(url);
      expect(parsed).toBe(0);
      // Not plain: parsed.
      expect(captureKey('https://EXAMPLE.com/robots.txt')).toBe('https://example.com/robots.txt');
      expect(parsed).toBe(1);
    } finally {
      globalThis.URL = Parser;
    }
  });

  it("gives the parser's key for every URL: hosts of letters, digits, '-', dots and xn--, numbers, schemes, paths", () => {
    const label = fc.oneof(fc.stringMatching(/^[a-z0-9-]{0,6}$/), fc.constantFrom('xn--', 'xn--a', 'xn--abc-', 'xn--mnchen-3ya', '0x1f', '0', '08', '255', '1e3', 'A', 'é'));
    const host = fc.array(label, { minLength: 1, maxLength: 5 }).map((ls) => ls.join('.'));
    const scheme = fc.constantFrom('http://', 'https://', 'HTTPS://', 'ftp://', 'http:/', '');
    const tail = fc.constantFrom('/robots.txt', '/robots.txt?', '/robots.txt#x', '/Robots.txt', '/robots.txt/', ':80/robots.txt', ':443/robots.txt', '/./robots.txt', '/%72obots.txt', '', '/');
    fc.assert(
      fc.property(scheme, host, tail, (s, h, t) => {
        const url = s + h + t;
        expect(captureKey(url), url).toBe(parsedKey(url));
      }),
      { numRuns: 20_000 },
    );
    for (const url of ['https://1.2.3.4/robots.txt', 'https://a.0x10/robots.txt', 'https://a.b./robots.txt', 'https://a..b/robots.txt', 'https://.a/robots.txt', 'https://xn--/robots.txt', 'https://a.xn--ls8h/robots.txt', 'https://-a-.b-/robots.txt']) {
      expect(captureKey(url), url).toBe(parsedKey(url));
    }
  });

  it("gives the parser's key for the corpus's hosts, over http and https", () => {
    expect(CORPUS_HOSTS.length).toBeGreaterThan(4000);
    for (const h of CORPUS_HOSTS) {
      for (const url of [`https://${h}/robots.txt`, `http://${h}/robots.txt`, `https://1.${h}/robots.txt`]) expect(captureKey(url), url).toBe(parsedKey(url));
    }
  });
});
