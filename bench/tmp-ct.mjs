// src/lexer.ts
var KEY_USER_AGENT = 1;
var KEY_ALLOW = 2;
var KEY_DISALLOW = 3;
var KEY_SITEMAP = 4;
var KEY_CRAWL_DELAY = 5;
var KEY_CONTENT_USAGE = 6;
var KEY_UNKNOWN = 7;
var MAX_LINE_OCTETS = 2083 * 8 - 1;
var LINE_TYPO = 1;
var LINE_MISSING_COLON = 2;
var LINE_TOO_LONG = 4;
var LINE_INVALID_UTF8 = 8;
var ascii = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0));
var KEY_ALIASES = [
  { text: ascii("user-agent"), kind: KEY_USER_AGENT, canonical: true },
  { text: ascii("useragent"), kind: KEY_USER_AGENT, canonical: false },
  { text: ascii("user agent"), kind: KEY_USER_AGENT, canonical: false },
  { text: ascii("allow"), kind: KEY_ALLOW, canonical: true },
  { text: ascii("disallow"), kind: KEY_DISALLOW, canonical: true },
  { text: ascii("dissallow"), kind: KEY_DISALLOW, canonical: false },
  { text: ascii("dissalow"), kind: KEY_DISALLOW, canonical: false },
  { text: ascii("disalow"), kind: KEY_DISALLOW, canonical: false },
  { text: ascii("diasllow"), kind: KEY_DISALLOW, canonical: false },
  { text: ascii("disallaw"), kind: KEY_DISALLOW, canonical: false },
  { text: ascii("sitemap"), kind: KEY_SITEMAP, canonical: true },
  { text: ascii("site-map"), kind: KEY_SITEMAP, canonical: false },
  { text: ascii("crawl-delay"), kind: KEY_CRAWL_DELAY, canonical: true },
  { text: ascii("crawl delay"), kind: KEY_CRAWL_DELAY, canonical: false },
  { text: ascii("crawldelay"), kind: KEY_CRAWL_DELAY, canonical: false },
  { text: ascii("content-usage"), kind: KEY_CONTENT_USAGE, canonical: true }
];
function isSpace(c) {
  return c === 32 || c >= 9 && c <= 13;
}
function startsWithIgnoreCase(b, start, end, prefix) {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    let c = b[start + i];
    if (c >= 65 && c <= 90) c |= 32;
    if (c !== prefix[i]) return false;
  }
  return true;
}
var ALIASES_BY_LETTER = Array.from(
  { length: 128 },
  (_, c) => KEY_ALIASES.filter((a) => a.text[0] === c)
);
function classifyKey(b, start, end) {
  const first = b[start] | 32;
  if (first < 128) {
    for (const alias of ALIASES_BY_LETTER[first]) {
      if (startsWithIgnoreCase(b, start, end, alias.text)) {
        return alias.kind | (!alias.canonical || end - start !== alias.text.length ? KEY_TYPO : 0);
      }
    }
  }
  return KEY_UNKNOWN;
}
var KEY_TYPO = 8;
function isValidUtf8(b, start, end) {
  let i = start;
  while (i < end) {
    const c = b[i];
    if (c < 128) {
      i++;
      continue;
    }
    let n2;
    let min;
    if (c >= 194 && c <= 223) n2 = 1, min = 128;
    else if (c >= 224 && c <= 239) n2 = 2, min = 2048;
    else if (c >= 240 && c <= 244) n2 = 3, min = 65536;
    else return false;
    if (i + n2 >= end) return false;
    let cp = c & 63 >> n2;
    for (let k = 1; k <= n2; k++) {
      const cc = b[i + k];
      if ((cc & 192) !== 128) return false;
      cp = cp << 6 | cc & 63;
    }
    if (cp < min || cp > 1114111 || cp >= 55296 && cp <= 57343) return false;
    i += n2 + 1;
  }
  return true;
}
var BOM = [239, 187, 191];
function lex(body, handler) {
  let pos = 0;
  while (pos < BOM.length && pos < body.length && body[pos] === BOM[pos]) pos++;
  let lineNum = 0;
  let lineStart = pos;
  let lastWasCR = false;
  const n2 = body.length;
  for (let i = pos; i < n2; i++) {
    const c = body[i];
    if (c !== 10 && c !== 13) continue;
    const crlfContinuation = i === lineStart && lastWasCR && c === 10;
    if (!crlfContinuation) parseLine(body, lineStart, i, ++lineNum, handler);
    lineStart = i + 1;
    lastWasCR = c === 13;
  }
  parseLine(body, lineStart, n2, ++lineNum, handler);
  return lineNum;
}
function parseLine(b, start, end, lineNum, handler) {
  let facts = 0;
  if (end - start > MAX_LINE_OCTETS) {
    end = start + MAX_LINE_OCTETS;
    facts |= LINE_TOO_LONG;
    handler.truncated(lineNum);
  }
  let stop = start;
  let high = false;
  while (stop < end) {
    const c = b[stop];
    if (c === 0 || c === 35) break;
    if (c >= 128) high = true;
    stop++;
  }
  end = stop;
  while (start < end && isSpace(b[start])) start++;
  while (end > start && isSpace(b[end - 1])) end--;
  if (start === end) return;
  if (high && !isValidUtf8(b, start, end)) facts |= LINE_INVALID_UTF8;
  let sep = -1;
  for (let i = start; i < end; i++) {
    if (b[i] === 58) {
      sep = i;
      break;
    }
  }
  let valueStart;
  if (sep >= 0) {
    valueStart = sep + 1;
  } else {
    for (let i = start; i < end; i++) {
      if (b[i] === 32 || b[i] === 9) {
        sep = i;
        break;
      }
    }
    if (sep < 0) return handler.invalid(lineNum, start, end, facts);
    valueStart = sep;
    while (b[valueStart] === 32 || b[valueStart] === 9) valueStart++;
    for (let i = valueStart; i < end; i++) {
      if (b[i] === 32 || b[i] === 9) return handler.invalid(lineNum, start, end, facts);
    }
    facts |= LINE_MISSING_COLON;
  }
  let keyEnd = sep;
  while (keyEnd > start && isSpace(b[keyEnd - 1])) keyEnd--;
  if (keyEnd === start) return handler.invalid(lineNum, start, end, facts);
  while (valueStart < end && isSpace(b[valueStart])) valueStart++;
  const key = classifyKey(b, start, keyEnd);
  if (key & KEY_TYPO) facts |= LINE_TYPO;
  handler.record(lineNum, key & 7, start, keyEnd, valueStart, end, facts);
}

// src/records.ts
var utf8 = new TextDecoder("utf-8");
function isTokenChar(c) {
  const l = c | 32;
  return l >= 97 && l <= 122 || c === 45 || c === 95;
}
function agentLine(line, b, start, end) {
  if (end > start && b[start] === 42 && (end - start === 1 || isSpace(b[start + 1]))) {
    return { line, global: true, wildcard: true, token: "*", lower: "*" };
  }
  let token = "";
  let lower = "";
  for (let i = start; i < end && isTokenChar(b[i]); i++) {
    token += String.fromCharCode(b[i]);
    lower += String.fromCharCode(b[i] >= 65 && b[i] <= 90 ? b[i] | 32 : b[i]);
  }
  return { line, global: false, wildcard: end > start && b[start] === 42, token, lower };
}
var DELAY = /^(?:\d+\.?\d*|\.\d+)/;
function parseDelay(value) {
  const m = DELAY.exec(value);
  if (m === null) return void 0;
  const n2 = Number(m[0]);
  return Number.isFinite(n2) ? n2 : Number.MAX_VALUE;
}
var RecordsBuilder = class {
  constructor(body) {
    this.body = body;
  }
  body;
  groups = [];
  sitemaps = [];
  delayRuns = [];
  defaultDelay = void 0;
  diagnostics = [];
  group = null;
  run = null;
  text(start, end) {
    return utf8.decode(this.body.subarray(start, end));
  }
  diag(line, code, message) {
    this.diagnostics.push({ line, code, message });
  }
  truncated(line) {
    this.diag(line, "line-too-long", `line longer than ${MAX_LINE_OCTETS} octets; the rest of it is ignored`);
  }
  invalid(line, start, end, facts) {
    if (facts & LINE_INVALID_UTF8) this.diag(line, "invalid-utf8", "line is not valid UTF-8");
    this.diag(line, "invalid-line", `not a "key: value" line, ignored (${end - start} octets)`);
  }
  record(line, kind, keyStart, keyEnd, start, end, facts) {
    if (facts !== 0) {
      if (facts & LINE_INVALID_UTF8) this.diag(line, "invalid-utf8", "line is not valid UTF-8");
      const key = facts & (LINE_MISSING_COLON | LINE_TYPO) ? JSON.stringify(this.text(keyStart, keyEnd)) : "";
      if (facts & LINE_MISSING_COLON) this.diag(line, "missing-colon", `no ':' after ${key}; read as key and value`);
      if (facts & LINE_TYPO) this.diag(line, "typo", `${key} accepted as ${KEY_NAMES[kind]}`);
    }
    switch (kind) {
      case KEY_USER_AGENT:
        return this.userAgent(line, start, end);
      case KEY_ALLOW:
      case KEY_DISALLOW:
        return this.rule(line, kind === KEY_ALLOW ? "allow" : "disallow", start, end);
      case KEY_SITEMAP:
        this.sitemaps.push(this.text(start, end));
        return;
      case KEY_CRAWL_DELAY:
        return this.crawlDelay(line, this.text(start, end));
      case KEY_CONTENT_USAGE:
        return this.contentUsage(line, this.text(start, end));
      case KEY_UNKNOWN:
        this.diag(line, "unknown-key", `unknown key ${JSON.stringify(this.text(keyStart, keyEnd).slice(0, 60))}, ignored`);
        return;
    }
  }
  userAgent(line, start, end) {
    const agent = agentLine(line, this.body, start, end);
    if (this.group === null || this.group.rules.length > 0) {
      this.group = { agents: [], rules: [], contentUsage: [] };
      this.groups.push(this.group);
    }
    this.group.agents.push(agent);
    if (this.run === null || this.run.closed) {
      this.run = { agents: [], delay: void 0, closed: false };
      this.delayRuns.push(this.run);
    }
    this.run.agents.push(agent);
  }
  rule(line, kind, start, end) {
    if (this.group === null) {
      this.diag(line, "rule-outside-group", `${kind} before any user-agent line, ignored`);
      return;
    }
    this.group.rules.push({ kind, line, start, end });
    if (this.run) this.run.closed = true;
  }
  crawlDelay(line, value) {
    const delay = parseDelay(value);
    if (delay === void 0) {
      this.diag(line, "invalid-crawl-delay", `crawl-delay "${value.slice(0, 40)}" is not a number of seconds, ignored`);
      return;
    }
    if (this.run === null) {
      this.defaultDelay ??= delay;
      return;
    }
    this.run.delay ??= delay;
    this.run.closed = true;
  }
  contentUsage(line, value) {
    if (this.group === null) return;
    const m = /^(\/\S*)\s+(.*)$/.exec(value);
    this.group.contentUsage.push(m ? { line, path: m[1], preference: m[2] } : { line, path: "", preference: value });
  }
};
var KEY_NAMES = {
  [KEY_USER_AGENT]: "user-agent",
  [KEY_ALLOW]: "allow",
  [KEY_DISALLOW]: "disallow",
  [KEY_SITEMAP]: "sitemap",
  [KEY_CRAWL_DELAY]: "crawl-delay",
  [KEY_CONTENT_USAGE]: "content-usage",
  [KEY_UNKNOWN]: "unknown"
};
function readRecords(body) {
  const builder = new RecordsBuilder(body);
  const lines = lex(body, builder);
  return {
    body,
    groups: builder.groups,
    sitemaps: builder.sitemaps,
    delayRuns: builder.delayRuns,
    defaultDelay: builder.defaultDelay,
    diagnostics: builder.diagnostics,
    lines
  };
}

// src/pattern.ts
var STAR = 256;
var HEX = "0123456789ABCDEF";
function hexValue(c) {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 32;
  if (l >= 97 && l <= 102) return l - 97 + 10;
  return -1;
}
function escapePattern(src) {
  let extra = 0;
  let fix = false;
  for (let i = 0; i < src.length; i++) {
    if (src[i] === 37 && hexValue(src[i + 1]) >= 0 && hexValue(src[i + 2]) >= 0) {
      if (src[i + 1] >= 97 || src[i + 2] >= 97) fix = true;
      i += 2;
    } else if (src[i] >= 128) {
      extra += 2;
    }
  }
  if (extra === 0 && !fix) return src;
  const out = new Uint8Array(src.length + extra);
  let j = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === 37 && hexValue(src[i + 1]) >= 0 && hexValue(src[i + 2]) >= 0) {
      out[j++] = c;
      out[j++] = HEX.charCodeAt(hexValue(src[++i]));
      out[j++] = HEX.charCodeAt(hexValue(src[++i]));
    } else if (c >= 128) {
      out[j++] = 37;
      out[j++] = HEX.charCodeAt(c >> 4);
      out[j++] = HEX.charCodeAt(c & 15);
    } else {
      out[j++] = c;
    }
  }
  return out;
}
function indexHtmDirectory(escaped) {
  const slash = escaped.lastIndexOf(47);
  if (slash < 0) return null;
  const tail = "/index.htm";
  if (escaped.length - slash < tail.length) return null;
  for (let i = 0; i < tail.length; i++) if (escaped[slash + i] !== tail.charCodeAt(i)) return null;
  const dir = new Uint8Array(slash + 2);
  dir.set(escaped.subarray(0, slash + 1));
  dir[slash + 1] = 36;
  return dir;
}

// src/compile.ts
var ACCEPT = 257;
var ANCHOR = 258;
var HEX2 = [..."0123456789ABCDEF"].map((c) => c.charCodeAt(0));
function hexValue2(c) {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 32;
  if (l >= 97 && l <= 102) return l - 97 + 10;
  return -1;
}
function isUnreserved(c) {
  const l = c | 32;
  return l >= 97 && l <= 122 || c >= 48 && c <= 57 || c === 45 || c === 46 || c === 95 || c === 126;
}
var toks = new Uint16Array(4096);
var n = 0;
var STRIDE = 6;
var scratch = new Int32Array(STRIDE * 1024);
var order = new Int32Array(1024);
var buckets = new Int32Array(256);
var used = new Uint8Array(256);
function tokenize(b, start, end, rfc) {
  if (n + 3 * (end - start) + 1 > toks.length) {
    const bigger = new Uint16Array(Math.max(toks.length * 2, n + 3 * (end - start) + 1));
    bigger.set(toks.subarray(0, n));
    toks = bigger;
  }
  const t = toks;
  const base = n;
  let k = n;
  const anchored = end > start && b[end - 1] === 36;
  const stop = anchored ? end - 1 : end;
  let priority = anchored ? 1 : 0;
  for (let i = start; i < stop; i++) {
    const c = b[i];
    if (c === 42) {
      if (k === base || t[k - 1] !== STAR) t[k++] = STAR;
      priority++;
    } else if (c === 37 && i + 2 < end && hexValue2(b[i + 1]) >= 0 && hexValue2(b[i + 2]) >= 0) {
      const h = hexValue2(b[i + 1]);
      const l = hexValue2(b[i + 2]);
      i += 2;
      const v = h << 4 | l;
      if (rfc && (isUnreserved(v) || v === 42 || v === 36)) {
        t[k++] = v;
        priority += isUnreserved(v) ? 1 : 3;
      } else {
        t[k++] = 37;
        t[k++] = HEX2[h];
        t[k++] = HEX2[l];
        priority += 3;
      }
    } else if (c >= 128 || rfc && (c <= 32 || c === 127)) {
      t[k++] = 37;
      t[k++] = HEX2[c >> 4];
      t[k++] = HEX2[c & 15];
      priority += 3;
    } else {
      t[k++] = c;
      priority++;
    }
  }
  if (k > base && t[k - 1] === STAR) t[k - 1] = ACCEPT;
  else t[k++] = anchored ? ANCHOR : ACCEPT;
  n = k;
  return priority;
}
function mentionsIndexHtm(b, start, end) {
  for (let i = b.indexOf(105, start); i >= 0 && i + 9 <= end; i = b.indexOf(105, i + 1)) {
    if (i > start && b[i - 1] === 47 && b[i + 1] === 110 && b[i + 2] === 100 && b[i + 3] === 101 && b[i + 4] === 120 && b[i + 5] === 46 && b[i + 6] === 104 && b[i + 7] === 116 && b[i + 8] === 109) {
      return true;
    }
  }
  return false;
}
function compileRules(body, groups, profile) {
  const rfc = profile === "rfc";
  let max = 0;
  for (const g of groups) max += g.rules.length;
  max = max * 2 + 1;
  if (scratch.length < max * STRIDE) scratch = new Int32Array(max * STRIDE * 2);
  const f = scratch;
  let count = 0;
  n = 0;
  const add = (disallow, line, start, end, rfcOrDir) => {
    const at = count++ * STRIDE;
    f[at + 5] = n;
    f[at] = disallow ? 1 : 0;
    f[at + 1] = line;
    f[at + 2] = rfcOrDir ? tokenize(rfcOrDir, 0, rfcOrDir.length, false) : tokenize(body, start, end, rfc);
    f[at + 3] = start;
    f[at + 4] = end;
  };
  for (const g of groups) {
    for (const r of g.rules) {
      add(r.kind === "disallow", r.line, r.start, r.end, null);
      if (!rfc && r.kind === "allow" && mentionsIndexHtm(body, r.start, r.end)) {
        const dir = indexHtmDirectory(escapePattern(body.subarray(r.start, r.end)));
        if (dir) add(false, r.line, r.start, r.end, dir);
      }
    }
  }
  f[count * STRIDE + 5] = n;
  if (order.length < count) order = new Int32Array(count * 2);
  const ranks = order;
  let maxPriority = 0;
  for (let i = 0; i < count; i++) maxPriority = Math.max(maxPriority, f[i * STRIDE + 2]);
  if (buckets.length < maxPriority + 2) buckets = new Int32Array((maxPriority + 2) * 2);
  buckets.fill(0, 0, maxPriority + 2);
  for (let i = 0; i < count; i++) buckets[maxPriority - f[i * STRIDE + 2] + 1]++;
  for (let p2 = 1; p2 <= maxPriority + 1; p2++) buckets[p2] += buckets[p2 - 1];
  for (let i = 0; i < count; i++) ranks[buckets[maxPriority - f[i * STRIDE + 2]]++] = i;
  const ints = new Int32Array(count * 6 + n);
  const t = {
    body,
    count,
    disallow: ints.subarray(0, count),
    line: ints.subarray(count, 2 * count),
    priority: ints.subarray(2 * count, 3 * count),
    valueStart: ints.subarray(3 * count, 4 * count),
    valueEnd: ints.subarray(4 * count, 5 * count),
    starts: ints.subarray(5 * count, 6 * count),
    posRule: ints.subarray(6 * count),
    tok: new Uint16Array(n),
    classMap: new Uint8Array(256),
    classRep: new Int16Array(0),
    nclasses: 0
  };
  used.fill(0);
  let p = 0;
  for (let id = 0; id < count; id++) {
    const at = ranks[id] * STRIDE;
    t.disallow[id] = f[at];
    t.line[id] = f[at + 1];
    t.priority[id] = f[at + 2];
    t.valueStart[id] = f[at + 3];
    t.valueEnd[id] = f[at + 4];
    t.starts[id] = p;
    const end = f[at + STRIDE + 5];
    for (let k = f[at + 5]; k < end; k++) {
      const tok = toks[k];
      if (tok < 256) used[tok] = 1;
      t.tok[p] = tok;
      t.posRule[p++] = id;
    }
  }
  let classes = 0;
  for (let b = 0; b < 256; b++) if (used[b]) t.classMap[b] = classes++;
  const other = classes < 256;
  t.classRep = new Int16Array(classes + (other ? 1 : 0));
  for (let b = 0; b < 256; b++) {
    if (used[b]) t.classRep[t.classMap[b]] = b;
    else t.classMap[b] = classes;
  }
  if (other) t.classRep[classes] = -1;
  t.nclasses = t.classRep.length;
  return t;
}

// src/agents.ts
function matches(line, names) {
  return !line.global && names.includes(line.lower);
}
function applicableGroups(groups, names) {
  const specific = groups.filter((g) => g.agents.some((a) => matches(a, names)));
  if (specific.length > 0) return { groups: specific, specific: true };
  return { groups: groups.filter((g) => g.agents.some((a) => a.global)), specific: false };
}

// bench/corpus.mjs
import { existsSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import path from "node:path";
var SHARED = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "../../shared");
function loadCorpus() {
  const probesFile = path.join(SHARED, "corpus", "probes-seed1.jsonl.gz");
  if (!existsSync(probesFile)) {
    throw new Error(`benchmark data not found at ${SHARED}/corpus: the bench reads ../shared beside the project`);
  }
  const byHost = /* @__PURE__ */ new Map();
  for (const line of gunzipSync(readFileSync(probesFile)).toString("utf8").split("\n")) {
    if (!line) continue;
    const { host, url } = JSON.parse(line);
    let entry = byHost.get(host);
    if (!entry) {
      const body = readFileSync(path.join(SHARED, "corpus", "robots", host));
      entry = { host, body, text: body.toString("utf8"), urls: [], origin: new URL(url).origin };
      byHost.set(host, entry);
    }
    entry.urls.push(url);
  }
  const index = readFileSync(path.join(SHARED, "corpus", "INDEX.tsv"), "utf8").trim().split("\n").slice(1);
  const rules = new Map(index.map((l) => l.split("	")).map((f) => [f[0], Number(f[3]) + Number(f[4])]));
  const hosts2 = [...byHost.values()];
  for (const h of hosts2) h.rules = rules.get(h.host) ?? 0;
  return hosts2;
}

// ../../tmp/ct.ts
var hosts = loadCorpus();
var recs = hosts.map((h) => readRecords(new Uint8Array(h.body.buffer, h.body.byteOffset, h.body.length)));
var sel = recs.map((r) => applicableGroups(r.groups, ["googlebot"]).groups);
for (let k = 0; k < 6; k++) {
  let s = performance.now();
  for (let i = 0; i < recs.length; i++) compileRules(recs[i].body, sel[i], "google");
  const a = performance.now() - s;
  s = performance.now();
  for (let i = 0; i < recs.length; i++) if (hosts[i].host !== "docs.oracle.com") compileRules(recs[i].body, sel[i], "google");
  console.log("compileRules all", a.toFixed(0), "ms; without oracle", (performance.now() - s).toFixed(0), "ms");
}
