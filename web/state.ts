// The page's inputs, kept in the URL fragment so a result can be shared as a
// link: JSON, deflated (CompressionStream), base64url. A fragment is never sent
// to a server, so nothing of the file or the URLs leaves the browser.
//
// A link is someone else's input: 544 KB of fragment can inflate to 400 MiB. So
// a link is read as a stream (fflate's Inflate, a little input at a time) and
// stops at the page's limits, which the page then names (see `cuts`).
import { Inflate } from 'fflate';
import { DEFAULT_MAX_OCTETS, type Profile } from '../src/index.js';
import { profileOr } from '../src/engine/parse/profile.js';

export interface State {
  robots: string;
  urls: string;
  agent: string;
  profile: Profile;
  compare: boolean;
  robotsNext: string;
}

/** A link's state, and what of it the page did not keep (sentences for the page to show; empty when all was read). */
export interface Decoded {
  state: State;
  cuts: string[];
}

const PREFIX = '#s=';

/** What the page reads from a link. */
export const LINK_LIMITS = {
  /** A robots.txt (and its new version): the octets a parser reads, no more (parse()'s default maxOctets). */
  bodyOctets: DEFAULT_MAX_OCTETS,
  /** The URL list: as many URLs as the page classifies in one run (README: 100,000), in at most 4 MiB. */
  urls: 100_000,
  urlOctets: 4 * 1024 * 1024,
  /** The agent: the crawler's product token(s). */
  agentOctets: 10_000,
  /** The fragment (Chromium takes URLs up to 2 MB). */
  fragmentChars: 2 * 1024 * 1024,
  /** The inflated JSON: the fields at their limits (5,218,304 octets), and about 1 MiB for the JSON's own escapes and names. */
  inflatedOctets: 6 * 1024 * 1024,
} as const;

export const EXAMPLE: State = {
  robots: `# An example: edit it, paste yours, or drop a file here.
User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$
Dissalow: /tmp/
Crawl-delay: 5
Content-Signal: search=yes, ai-train=no

User-agent: Googlebot-Image
Disallow: /

Sitemap: https://example.com/sitemap.xml
`,
  urls: `https://example.com/
https://example.com/private/accounts
https://example.com/private/press/2026.html
/docs/manual.pdf
/docs/manual.pdf?download=1
/tmp/cache
`,
  agent: 'Googlebot',
  profile: 'google',
  compare: false,
  robotsNext: '',
};

export async function encodeState(state: State): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(state));
  const deflated = new Uint8Array(await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
  let binary = '';
  for (let i = 0; i < deflated.length; i += 0x8000) binary += String.fromCharCode(...deflated.subarray(i, i + 0x8000));
  return PREFIX + btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const fmt = (n: number): string => n.toLocaleString('en');
const MiB = (n: number): string => `${n / (1024 * 1024)} MiB`;

/** The state a fragment holds, with what was cut; null when it holds none (or one this page cannot read). */
export function decodeState(hash: string): Decoded | null {
  if (!hash.startsWith(PREFIX)) return null;
  const cuts: string[] = [];
  let b64 = hash.slice(PREFIX.length);
  if (b64.length > LINK_LIMITS.fragmentChars) {
    b64 = b64.slice(0, LINK_LIMITS.fragmentChars);
    cuts.push(`The link is longer than ${MiB(LINK_LIMITS.fragmentChars)}: the page read its first ${MiB(LINK_LIMITS.fragmentChars)}.`);
  }
  b64 = b64.replace(/-/g, '+').replace(/_/g, '/');
  // A link cut short (by a mail client, say) can end inside a base64 quantum: read up to the last whole one.
  if (b64.length % 4 === 1) b64 = b64.slice(0, -1);
  let deflated: Uint8Array;
  try {
    deflated = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
  const inflated = inflateBounded(deflated, LINK_LIMITS.inflatedOctets);
  if (inflated === null) return null;
  const fields = readFlatObject(inflated.text, { robots: LINK_LIMITS.bodyOctets, robotsNext: LINK_LIMITS.bodyOctets, urls: LINK_LIMITS.urlOctets, agent: LINK_LIMITS.agentOctets });
  if (fields === null) return null;
  if (!fields.complete && !inflated.cut) cuts.push('The link is cut short (its state ends mid-way): the page shows what it holds up to there.');
  const text = (k: string): string => (typeof fields.values[k] === 'string' ? (fields.values[k] as string) : '');
  const body = (k: 'robots' | 'robotsNext', what: string): string => {
    const [s, over] = capOctets(text(k), LINK_LIMITS.bodyOctets);
    if (over || fields.over.has(k)) cuts.push(`The link's ${what} is longer than ${fmt(LINK_LIMITS.bodyOctets)} octets, all a parser reads: the page kept the first ${fmt(LINK_LIMITS.bodyOctets)}.`);
    return s;
  };
  const robots = body('robots', 'robots.txt');
  const robotsNext = body('robotsNext', 'new version of robots.txt');
  const urls = capUrls(text('urls'));
  if (urls.cut || fields.over.has('urls')) cuts.push(`The link's URL list is longer than the page takes from a link (${fmt(LINK_LIMITS.urls)} URLs, ${MiB(LINK_LIMITS.urlOctets)}): the page kept the first ${fmt(urls.count)} URLs.`);
  const [agent, agentOver] = capOctets(typeof fields.values.agent === 'string' ? fields.values.agent : EXAMPLE.agent, LINK_LIMITS.agentOctets);
  if (agentOver || fields.over.has('agent')) cuts.push(`The link's crawler names are longer than ${fmt(LINK_LIMITS.agentOctets)} octets: the page kept the first ${fmt(LINK_LIMITS.agentOctets)}.`);
  if (inflated.cut) cuts.push(`The link's state inflates past ${MiB(LINK_LIMITS.inflatedOctets)}, more than the page reads from a link: the rest is ignored.`);
  return {
    state: { robots, urls: urls.text, agent, profile: profileOr(fields.values.profile, 'google'), compare: fields.values.compare === true, robotsNext },
    cuts,
  };
}

/** A URL list cut at the page's limits (a whole line at a time): its text, the URLs kept, and whether it was cut. */
export function capUrls(list: string): { text: string; count: number; cut: boolean } {
  const [text, over] = capOctets(list, LINK_LIMITS.urlOctets);
  let count = 0;
  const line = /[^\r\n]*(\r\n|\r|\n|$)/y;
  for (let at = 0; at < text.length; ) {
    line.lastIndex = at;
    const m = line.exec(text)!;
    if (m[0].trim() !== '') {
      if (count === LINK_LIMITS.urls) return { text: text.slice(0, at), count, cut: true };
      count++;
    }
    at += m[0].length;
    if (m[0].length === 0) break;
  }
  // Cut by octets: the last line may be part of a URL; drop it unless the list ended there.
  if (over) {
    const last = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
    const kept = text.slice(0, last + 1);
    return { text: kept, count: kept.split(/\r\n|\r|\n/).filter((u) => u.trim() !== '').length, cut: true };
  }
  return { text, count, cut: false };
}

/** The longest prefix of s in at most max UTF-8 octets (whole characters), and whether s was longer. */
function capOctets(s: string, max: number): [string, boolean] {
  // A UTF-16 unit is at least one octet: a string of max units or fewer may still be too long, never the reverse.
  if (s.length > max) s = s.slice(0, max + 1);
  const { read } = new TextEncoder().encodeInto(s, new Uint8Array(max));
  return read < s.length ? [s.slice(0, read), true] : [s, false];
}

/** Raw DEFLATE inflated a little input at a time, stopping once max octets are out: the text, and whether it was cut. */
function inflateBounded(deflated: Uint8Array, max: number): { text: string; cut: boolean } | null {
  // 256 octets of input inflate to at most about 264 KiB (DEFLATE's ratio is at most 1032:1), so the page holds little more than max.
  const STEP = 256;
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let out = 0;
  let cut = false;
  const inflate = new Inflate((chunk) => {
    if (cut) return;
    const room = max - out;
    if (chunk.length > room) {
      chunk = chunk.subarray(0, room);
      cut = true;
    }
    out += chunk.length;
    parts.push(decoder.decode(chunk, { stream: true }));
  });
  try {
    for (let at = 0; at < deflated.length && !cut; at += STEP) inflate.push(deflated.subarray(at, at + STEP));
    if (!cut) inflate.push(new Uint8Array(0), true);
  } catch {
    // A stream cut short or damaged: what inflated before is kept (a link cut short still shows its start).
    if (out === 0) return null;
  }
  return { text: parts.join(''), cut };
}

type Value = string | boolean | number | null;

/**
 * A flat JSON object's string, boolean, number and null values, read up to where
 * the text ends (a link cut by a limit ends mid-value: the values read so far are
 * kept, and a string cut short keeps its start). A string of a field in `caps`
 * is kept to its cap (in UTF-16 units, at least as many as octets: capOctets
 * cuts it exactly) and the field is listed in `over`; `complete` when the
 * object's closing brace was read. Null for a text that is not such an object.
 */
function readFlatObject(text: string, caps: Record<string, number>): { values: Record<string, Value>; over: Set<string>; complete: boolean } | null {
  const values: Record<string, Value> = {};
  const over = new Set<string>();
  let complete = false;
  let at = 0;
  const ws = () => {
    while (at < text.length && ' \t\r\n'.includes(text[at])) at++;
  };
  /** The string at `at` (past its opening quote), kept to `cap` units; [value, complete, longer than cap]. */
  const str = (cap: number): [string, boolean, boolean] => {
    const parts: string[] = [];
    let units = 0;
    let longer = false;
    const add = (s: string) => {
      if (units >= cap + 1) {
        longer = true;
        return;
      }
      const piece = s.length > cap + 1 - units ? s.slice(0, cap + 1 - units) : s;
      parts.push(piece);
      units += piece.length;
      if (piece.length < s.length) longer = true;
    };
    while (at < text.length) {
      let end = at;
      while (end < text.length && text[end] !== '"' && text[end] !== '\\') end++;
      if (end > at) add(text.slice(at, end));
      at = end;
      if (at >= text.length) break;
      if (text[at] === '"') {
        at++;
        return [parts.join(''), true, longer || units > cap];
      }
      // An escape.
      const e = text[at + 1];
      if (e === undefined) break;
      if (e === 'u') {
        const hex = text.slice(at + 2, at + 6);
        if (hex.length < 4) break;
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new SyntaxError('bad \\u escape');
        add(String.fromCharCode(parseInt(hex, 16)));
        at += 6;
      } else {
        const c = ({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e];
        if (c === undefined) throw new SyntaxError('bad escape');
        add(c);
        at += 2;
      }
    }
    return [parts.join(''), false, longer || units > cap];
  };
  try {
    ws();
    if (text[at] !== '{') return null;
    at++;
    for (;;) {
      ws();
      if (at >= text.length) break;
      if (text[at] === '}') {
        complete = true;
        break;
      }
      if (text[at] !== '"') return null;
      at++;
      const [key, keyDone] = str(1000);
      if (!keyDone) break;
      ws();
      if (at >= text.length) break;
      if (text[at] !== ':') return null;
      at++;
      ws();
      if (at >= text.length) break;
      if (text[at] === '"') {
        at++;
        const [v, , longer] = str(Object.hasOwn(caps, key) ? caps[key] : 1000);
        values[key] = v;
        if (longer) over.add(key);
      } else {
        const m = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(at, at + 40));
        if (!m) return null;
        values[key] = JSON.parse(m[1]) as Value;
        at += m[1].length;
      }
      ws();
      if (at >= text.length) break;
      if (text[at] === '}') {
        complete = true;
        break;
      }
      if (text[at] !== ',') return null;
      at++;
    }
  } catch {
    return null;
  }
  return { values, over, complete };
}
