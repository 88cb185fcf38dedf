// The WASM lexer (assembly/parse/lexer.ts, driven by src/engine/parse/lexer.ts) against a plain
// transcription of Google's line handling, on bodies built from the octets
// and words that matter to it.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { lex, LINE_MISSING_COLON, LINE_TYPO } from '../../../src/engine/parse/lexer.js';
import { LexEvent, referenceLex } from './reference-lexer.js';

function wasmLex(body: Uint8Array): { events: LexEvent[]; lines: number } {
  const events: LexEvent[] = [];
  const lines = lex(body, {
    record: (line, kind, ks, ke, vs, ve, facts) =>
      events.push(['record', line, kind, (facts & LINE_TYPO) !== 0, ks, ke, vs, ve, (facts & LINE_MISSING_COLON) !== 0]),
    invalid: (line, s, e) => events.push(['invalid', line, s, e]),
    truncated: (line) => events.push(['truncated', line]),
  });
  return { events, lines };
}

const word = fc.constantFrom(
  'User-agent', 'user agent', 'USERAGENT', 'Allow', 'disallow', 'Dissalow', 'diasllow', 'sitemap', 'Site-Map', 'crawl-delay',
  'Crawl Delay', 'content-usage', 'Content-Signal', 'content-signalx', 'License', 'LLM-Policy', 'llm-', 'unknown', 'user-agentx', ':', ' ', '\t', '\v', '\r', '\n', '\r\n', '#', '\0', '*', '/a', 'x',
  '\ufeff', 'é',
);
const body = fc.array(word, { maxLength: 40 }).map((w) => new TextEncoder().encode(w.join('')));

describe('WASM lexer against the reference transcription', () => {
  it('random bodies of robots.txt vocabulary', () => {
    fc.assert(fc.property(body, (b) => { expect(wasmLex(b)).toEqual(referenceLex(b)); }), { numRuns: 3000 });
  });

  it('random octets, BOM prefixes and lines past the cap', () => {
    const long = (n: number) => new TextEncoder().encode('Disallow: /' + 'a'.repeat(n) + '\r\nAllow: /b');
    for (const b of [
      new Uint8Array([0xef]), new Uint8Array([0xef, 0xbb]), new Uint8Array([0xef, 0xbb, 0xbf, 0x41, 0x3a, 0x42]),
      new Uint8Array([0xef, 0x41, 0x3a, 0x42]), long(16_650), long(16_652), long(16_653), long(40_000), new Uint8Array(0),
    ]) {
      expect(wasmLex(b)).toEqual(referenceLex(b));
    }
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (b) => { expect(wasmLex(b)).toEqual(referenceLex(b)); }), { numRuns: 2000 });
  });

  it('bodies larger than one batch of records', () => {
    const b = new TextEncoder().encode('User-agent: *\n' + 'Disallow: /x\n\n#c\nfoo bar\n'.repeat(5000));
    expect(wasmLex(b)).toEqual(referenceLex(b));
  });

  it("a last line with no line end, and a '#' or NUL in it, where a batch of records ends", () => {
    // (A batch holds 4096 records: the last line's comment is found by the scan that reaches the end, and lexed at the next call.)
    for (let lines = 4090; lines <= 4098; lines++) {
      for (const last of ['Disallow: /x # y', 'Disallow: /x\0y', '# only', 'Allow: /z']) {
        const b = new TextEncoder().encode('Disallow: /a\n'.repeat(lines) + last);
        expect(wasmLex(b)).toEqual(referenceLex(b));
      }
    }
  });

  it("a '#' or NUL before and past the line-length cap", () => {
    for (const at of [100, 16_640, 16_652, 16_700]) {
      for (const mark of ['#', '\0']) {
        const b = new TextEncoder().encode('Disallow: /' + 'a'.repeat(at) + mark + 'b'.repeat(50) + '\nAllow: /c' + mark + 'd');
        expect(wasmLex(b)).toEqual(referenceLex(b));
      }
    }
  });

  it('keys one octet off an alias: each octet with one of its bits flipped (the case bit among them), and a space or tab instead of the colon', () => {
    // (The core compares a key with its aliases as 16 octets with the case bit set: this holds that to the octet-by-octet compare.)
    const aliases = ['user-agent', 'useragent', 'user agent', 'allow', 'disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw',
      'sitemap', 'site-map', 'crawl-delay', 'crawl delay', 'crawldelay', 'content-usage', 'content-signal', 'license', 'llm-policy'];
    const lines: number[][] = [];
    for (const alias of aliases) {
      const octets = [...new TextEncoder().encode(alias)];
      for (let at = 0; at < octets.length; at++) {
        for (let bit = 0; bit < 8; bit++) {
          const key = [...octets];
          key[at] ^= 1 << bit;
          lines.push(key, [...key, 0x78], [...octets.slice(0, at)]);
        }
      }
      lines.push(octets.map((c) => (c >= 0x61 && c <= 0x7a ? c - 0x20 : c)), [...octets, ...octets]);
    }
    const body: number[] = [];
    for (const key of lines) for (const sep of [[0x3a], [0x20], [0x09], [0x20, 0x3a]]) body.push(...key, ...sep, 0x2f, 0x61, 0x0a);
    const b = new Uint8Array(body);
    const got = wasmLex(b);
    expect(got).toEqual(referenceLex(b));
    expect(got.events.filter((e) => e[0] === 'record' && e[2] === 3).length).toBeGreaterThan(400); // (read as disallow: the case bit flipped, or a typo)
  });
});
