// A plain TypeScript transcription of Google's RobotsTxtParser line handling
// (robots.cc: Parse, GetKeyAndValueFrom, Key::Parse), the oracle the WASM
// lexer (assembly/parse/lexer.ts) is held to by test/engine/parse/lexer.test.ts.

const ALIASES: [string, number, boolean][] = [
  ['user-agent', 1, true], ['useragent', 1, false], ['user agent', 1, false],
  ['allow', 2, true],
  ['disallow', 3, true], ['dissallow', 3, false], ['dissalow', 3, false], ['disalow', 3, false], ['diasllow', 3, false], ['disallaw', 3, false],
  ['sitemap', 4, true], ['site-map', 4, false],
  ['crawl-delay', 5, true], ['crawl delay', 5, false], ['crawldelay', 5, false],
  ['content-usage', 6, true], ['content-signal', 8, true], ['license', 9, true], ['llm-policy', 10, true],
];

/** One event per line, as the lexer's handler sees them. */
export type LexEvent =
  | ['record', number, number, boolean, number, number, number, number, boolean]
  | ['invalid', number, number, number]
  | ['truncated', number];

const space = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);

export function referenceLex(body: Uint8Array): { events: LexEvent[]; lines: number } {
  const events: LexEvent[] = [];
  const MAX = 2083 * 8 - 1;
  let i = 0;
  const bom = [0xef, 0xbb, 0xbf];
  while (i < 3 && i < body.length && body[i] === bom[i]) i++;
  let lineNum = 0;
  let start = i;
  let lastCR = false;
  const emitLine = (s: number, e: number) => {
    lineNum++;
    if (e - s > MAX) {
      e = s + MAX;
      events.push(['truncated', lineNum]);
    }
    for (let k = s; k < e; k++) if (body[k] === 0 || body[k] === 0x23) { e = k; break; }
    while (s < e && space(body[s])) s++;
    while (e > s && space(body[e - 1])) e--;
    if (s === e) return;
    let sep = body.subarray(s, e).indexOf(0x3a);
    let missingColon = false;
    let vs: number;
    if (sep >= 0) {
      sep += s;
      vs = sep + 1;
    } else {
      let w = -1;
      for (let k = s; k < e; k++) if (body[k] === 0x20 || body[k] === 0x09) { w = k; break; }
      if (w < 0) return void events.push(['invalid', lineNum, s, e]);
      let v = w;
      while (body[v] === 0x20 || body[v] === 0x09) v++;
      for (let k = v; k < e; k++) if (body[k] === 0x20 || body[k] === 0x09) return void events.push(['invalid', lineNum, s, e]);
      sep = w;
      vs = w;
      missingColon = true;
    }
    let ke = sep;
    while (ke > s && space(body[ke - 1])) ke--;
    if (ke === s) return void events.push(['invalid', lineNum, s, e]);
    while (vs < e && space(body[vs])) vs++;
    const key = String.fromCharCode(...body.subarray(s, ke)).replace(/[A-Z]/g, (c) => c.toLowerCase());
    let kind = 7;
    let typo = false;
    for (const [text, k, canonical] of ALIASES) {
      if (key.startsWith(text)) {
        kind = k;
        typo = !canonical || key.length !== text.length;
        break;
      }
    }
    events.push(['record', lineNum, kind, typo, s, ke, vs, e, missingColon]);
  };
  for (let k = i; k < body.length; k++) {
    const c = body[k];
    if (c !== 0x0a && c !== 0x0d) continue;
    if (!(k === start && lastCR && c === 0x0a)) emitLine(start, k);
    start = k + 1;
    lastCR = c === 0x0d;
  }
  emitLine(start, body.length);
  return { events, lines: lineNum };
}
