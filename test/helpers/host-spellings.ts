// URLs whose hosts are spelled otherwise than WHATWG URL names their origin:
// each finds its origin's robots.txt in every mode of `robots classify`.

/** Spellings of hosts that WHATWG URL reads as 127.0.0.1, [::1] and e.com (issue 27: each was allowed, its host looked up as written). */
export const SPELLINGS: [string, string][] = [
  ['http://0x7f.1/a', '127.0.0.1'],
  ['http://2130706433/a', '127.0.0.1'],
  ['http://127.1/a', '127.0.0.1'],
  ['http://0177.0.0.01/a', '127.0.0.1'],
  ['http://127.0.0.1./a', '127.0.0.1'],
  ['http://[0:0::1]/a', '[::1]'],
  ['http://[0000:0000:0000:0000:0000:0000:0000:0001]:80/a', '[::1]'],
  ['http://%65.com/a', 'e.com'],
  ['http://E%2Ecom/a', 'e.com'],
  ['http://e.com\\a', 'e.com'],
  ['http:\\\\e.com\\a', 'e.com'],
  ['http:///e.com/a', 'e.com'],
  ['http:e.com/a', 'e.com'],
  ['http://user:pass@e.com:080/a', 'e.com'],
  ['http://e.com./a', 'e.com'],
  ['http://ｅ.com/a', 'e.com'], // a full-width 'e' (IDNA maps it)
  ['ht\ttp://e.com/a', 'e.com'], // WHATWG drops tabs
];

/** A URL as the command echoes it: its C0 controls (a tab in the scheme above) as %XX (issue 27, item 8). */
export const echoed = (url: string): string => url.replace(/[\x00-\x1f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
