// robotsUrl(): which robots.txt speaks for a URL. The table of Google's
// interpretation (../shared/spec/google-robots-interpretation.txt, "Examples of
// valid robots.txt URLs and their scope") is the test: each row's robots.txt
// URL, the URLs it is valid for, and those it is not.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { robotsUrl } from '../../src/index.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';

interface ScopeRow {
  robots: string;
  /** What robotsUrl() gives for the URLs the row is valid for; undefined: not a valid location. */
  canonical: string | undefined;
  validFor: string[];
  notValidFor: string[];
}

// Transcribed from the seed; the last test checks every URL here is in it.
const SCOPE: ScopeRow[] = [
  {
    robots: 'https://example.com/robots.txt',
    canonical: 'https://example.com/robots.txt',
    validFor: ['https://example.com/', 'https://example.com/folder/sub/page.html?q=1#f'],
    notValidFor: ['https://blog.example.com/', 'http://example.com/', 'https://example.com:8181/'],
  },
  {
    robots: 'https://www.example.com/robots.txt',
    canonical: 'https://www.example.com/robots.txt',
    validFor: ['https://www.example.com/'],
    notValidFor: ['https://example.com/', 'https://shop.www.example.com/'],
  },
  {
    // "Not a valid location": no page's robots.txt is there.
    robots: 'https://example.com/folder/robots.txt',
    canonical: undefined,
    validFor: [],
    notValidFor: ['https://example.com/folder/', 'https://example.com/folder/page'],
  },
  {
    robots: 'https://www.exämple.com/robots.txt',
    canonical: 'https://www.xn--exmple-cua.com/robots.txt',
    // The seed's punycode example, https://xn--exmple-cua.com/, drops the www of its
    // own row; the www form is the row's host (the seed URL is checked below).
    validFor: ['https://www.exämple.com/', 'https://www.xn--exmple-cua.com/', 'HTTPS://WWW.EXÄMPLE.COM/x'],
    notValidFor: ['https://www.example.com/'],
  },
  {
    robots: 'ftp://example.com/robots.txt',
    canonical: 'ftp://example.com/robots.txt',
    validFor: ['ftp://example.com/', 'ftp://example.com:21/pub/file'],
    notValidFor: ['https://example.com/'],
  },
  {
    robots: 'https://212.96.82.21/robots.txt',
    canonical: 'https://212.96.82.21/robots.txt',
    validFor: ['https://212.96.82.21/', 'https://212.96.82.21/a/b'],
    notValidFor: ['https://example.com/'],
  },
  {
    robots: 'https://example.com:443/robots.txt',
    canonical: 'https://example.com/robots.txt',
    validFor: ['https://example.com:443/', 'https://example.com/'],
    notValidFor: ['https://example.com:444/'],
  },
  {
    robots: 'https://example.com:8181/robots.txt',
    canonical: 'https://example.com:8181/robots.txt',
    validFor: ['https://example.com:8181/'],
    notValidFor: ['https://example.com/'],
  },
];

describe('the origin-scope table of Google’s interpretation', () => {
  for (const row of SCOPE) {
    it(row.robots, () => {
      if (row.canonical === undefined) {
        // No URL, the file's own included, has its robots.txt there.
        for (const url of [row.robots, ...row.notValidFor]) expect(robotsUrl(url), url).not.toBe(row.robots);
        return;
      }
      expect(robotsUrl(row.robots)).toBe(row.canonical);
      for (const url of row.validFor) expect(robotsUrl(url), url).toBe(row.canonical);
      for (const url of row.notValidFor) expect(robotsUrl(url), url).not.toBe(row.canonical);
    });
  }

  it('the IDN row: a host and its punycode share one robots.txt', () => {
    expect(robotsUrl('https://xn--exmple-cua.com/')).toBe(robotsUrl('https://exämple.com/'));
    expect(robotsUrl('https://exämple.com/')).toBe('https://xn--exmple-cua.com/robots.txt');
  });

  it.skipIf(!HAVE_SHARED)('every URL of the table above is in the seed', () => {
    const seed = readFileSync(path.join(SHARED, 'spec', 'google-robots-interpretation.txt'), 'utf8');
    const inSeed = [...new Set(seed.match(/[a-z]+:\/\/[^\s,)]+/g))];
    const transcribed = new Set(SCOPE.flatMap((r) => [r.robots, ...r.validFor, ...r.notValidFor]));
    // The seed's URLs, all used here except the punycode one, which has its own test.
    for (const url of inSeed) {
      if (url === 'https://xn--exmple-cua.com/') continue;
      expect(transcribed.has(url), url).toBe(true);
    }
    expect(inSeed).toContain('https://xn--exmple-cua.com/');
    expect(inSeed.length).toBe(19);
  });
});

describe('robotsUrl', () => {
  it('keeps scheme, host and port; drops user info, path, query and fragment', () => {
    expect(robotsUrl('http://user:pw@Host.Example.COM:8080/a/b?c=d#e')).toBe('http://host.example.com:8080/robots.txt');
    expect(robotsUrl('HTTP://EXAMPLE.com:80/')).toBe('http://example.com/robots.txt');
    expect(robotsUrl('https://example.com:80/')).toBe('https://example.com:80/robots.txt');
    expect(robotsUrl('http://example.com:443/')).toBe('http://example.com:443/robots.txt');
    expect(robotsUrl('http://[::1]:8080/x')).toBe('http://[::1]:8080/robots.txt');
    expect(robotsUrl('http://[::1]:80/x')).toBe('http://[::1]/robots.txt');
    // WHATWG host parsing: IPv4 in any notation is the dotted form.
    expect(robotsUrl('http://0x7f.1/')).toBe('http://127.0.0.1/robots.txt');
  });

  it('a trailing dot is dropped: "example.com." is the DNS name "example.com" (as classify --robots-dir, --robots-warc and --shard take it)', () => {
    expect(robotsUrl('http://example.com./a')).toBe('http://example.com/robots.txt');
    expect(robotsUrl('https://EXAMPLE.com.:443/')).toBe('https://example.com/robots.txt');
    expect(robotsUrl('http://127.0.0.1./')).toBe('http://127.0.0.1/robots.txt');
    expect(robotsUrl('gemini://example.com./x')).toBe('gemini://example.com/robots.txt');
    // (Only one: "example.com.." is no DNS name.)
    expect(robotsUrl('http://example.com../')).toBe('http://example.com./robots.txt');
  });

  it('other schemes with a host get the same host rules, their port kept', () => {
    expect(robotsUrl('gemini://ExÄmple.COM:1965/x')).toBe('gemini://xn--exmple-cua.com:1965/robots.txt');
    expect(robotsUrl('gemini://Ex%C3%84mple.com/x')).toBe('gemini://xn--exmple-cua.com/robots.txt');
  });

  it('a string that is not an absolute URL with a host is a TypeError that says so', () => {
    for (const bad of ['', 'example.com/page', '/relative/path', 'http://', 'http://a b/', 'file:///etc/passwd', 'mailto:a@example.com', 'data:text/plain,x', '\u0000', 'http://[::1/']) {
      expect(() => robotsUrl(bad), bad).toThrow(TypeError);
    }
    expect(() => robotsUrl('not a url')).toThrow(/not an absolute URL/);
    expect(() => robotsUrl('mailto:a@example.com')).toThrow(/no host/);
    for (const bad of [undefined, null, 42, {}, new URL('https://example.com/')]) {
      expect(() => robotsUrl(bad as unknown as string)).toThrow(TypeError);
    }
  });
});
