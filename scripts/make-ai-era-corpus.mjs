// Writes an AI-era variant of the shared corpus of real robots.txt files
// (../shared/corpus/robots, 4,241 sites, fetched before any site named GPTBot,
// ClaudeBot or Google-Extended): the groups and lines sites write in 2026 grafted
// onto the real files, at shares taken from published studies (SHARES below),
// chosen by a seeded hash of each host so that the same seed gives the same bytes.
//
//   node scripts/make-ai-era-corpus.mjs [OUT] [--seed N] [--corpus DIR]
//   npm run corpus:ai-era                       (OUT = .cache/ai-era, seed 2026)
//
// OUT/robots/<host>     every site's file: grafted, or as it was
// OUT/INDEX.tsv         per host: what was grafted, where, which crawlers it names
// OUT/robotstxt.warc.gz the same files as 200 captures (gzip per record, as
//                       scripts/make-corpus-warc.mjs writes them)
// OUT/urls.txt          https://<host>/ for every site: one probe per site
//
// The output is derived from data that is not ours: it is never committed.
//
// A graft keeps the site's own groups and their verdicts for the crawlers they
// name: it never adds a group for a product token the site already names; it
// goes at the top (after a byte-order mark; as Cloudflare prepends its managed
// file) only when no rule precedes the file's first user-agent line (such rules
// would join the grafted group), and at the end only when the file's last group
// has a rule (else its user-agent lines would join the grafted group); a
// `User-agent: *` group with `Allow: /` (Cloudflare's signal group) goes only
// onto files whose `*` groups have no one-octet disallow (`/`, `*`): on a tie
// of lengths allow wins, so it would open such a site to every crawler. Lines
// end as the file's first line ends (CRLF, CR or LF).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { WARCRecord, WARCSerializer } from 'warcio';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

// Shares of sites, as fractions. Sources (as stored in December 2026):
//  [T1] Thunderbit, "How Top Websites Are Drawing the Line for AI Crawlers"
//       (thunderbit.com/blog/ai-crawlers-website-allow, May 2026; Tranco top
//       10,000, 7,248 sites with a readable robots.txt or a 404), executive
//       summary: 17.8% wrote their own AI rules, 4.5% run Cloudflare's managed
//       template; CCBot blocked by 16.3%, GPTBot 15.8%, Bytespider 14.9%;
//       108 sites explicitly allow GPTBot (108 / 7,248 = 1.49%).
//  [T2] Thunderbit, "robots.txt problems" (thunderbit.com/blog/robots-txt-problems,
//       the same crawl), findings list: 271 of 6,638 readable files carry
//       Cloudflare-style Content-Signal lines (4.08%).
//  [C]  Crawlmind, "Who blocks GPTBot, ClaudeBot, PerplexityBot: top-10K"
//       (crawlmind.ai/research/ai-crawler-policy-survey-2026, May 2026), table
//       "Who blocks what": explicit Disallow of ClaudeBot 6.9%, Google-Extended 5.8%.
//  [CF] Cloudflare's managed robots.txt and its text: developers.cloudflare.com/
//       bots/additional-configurations/managed-robots-txt/ ("Cloudflare will
//       prepend our managed robots.txt before your existing robots.txt"); its
//       free-plan and pre-September-2025 form has no Content-Signal line, so the
//       Cloudflare sites without the signal are [T1] 4.5% less [T2] 4.08%.
// Not found in the stored pages, and what was used instead:
//  - Longpre et al. 2024, "Consent in Crisis" (arXiv 2407.14933): its headline
//    figures are token-weighted (~5% of C4's tokens, 28%+ of its most critical
//    sources fully restricted), not shares of sites, and its per-agent figure
//    was not in the stored pages: not used.
//  - Common Crawl's robotstxt-experiments counts and Cloudflare Radar's share of
//    domains with Content Signals: not found; [T1]/[T2] used instead.
//  - Applebot-Extended's share: not found ([C]'s row is cut); taken as
//    Google-Extended's [C].
//  - OAI-SearchBot disallowed: not found for a top-10k list; 2.8% assumed (a
//    sixth of GPTBot's), so most sites naming GPTBot do not name OAI-SearchBot.
//  - How many sites paste the whole ai.robots.txt list: not found; 0.8% assumed.
//  - Partial blocks (GPTBot disallowed on some paths only): not found; 1% assumed.
//  - AIPREF Content-Usage lines (draft-ietf-aipref-attach-05): too new for a
//    study; 0.25% assumed ("a few files").
export const SHARES = {
  cloudflareSignal: 271 / 6638, // [T2]
  cloudflareNotice: 0.045 - 271 / 6638, // [T1] - [T2]
  ownAiRules: 0.178, // [T1]
  aiRobotsTxt: 0.008, // assumed
  partialGptbot: 0.01, // assumed
  allowGptbot: 108 / 7248, // [T1]
  contentUsage: 0.0025, // assumed
  // Each crawler's share of sites whose robots.txt gives it a group of its own
  // that disallows the whole site (Cloudflare's and ai.robots.txt's included):
  // how the studies' "blocked by" is read here ([C] says "explicit Disallow";
  // [T1] does not say whether a `*` group's Disallow: / counts).
  blocked: {
    GPTBot: 0.158, // [T1]
    CCBot: 0.163, // [T1]
    Bytespider: 0.149, // [T1]
    ClaudeBot: 0.069, // [C]
    'Google-Extended': 0.058, // [C]
    'Applebot-Extended': 0.058, // taken as Google-Extended's
    'OAI-SearchBot': 0.028, // assumed
  },
};
export const DEFAULT_SEED = 2026;

// Cloudflare's managed robots.txt [CF], with the Content Signals Policy text it
// prepends since September 2025.
const CLOUDFLARE_SIGNAL_HEAD = [
  '# As a condition of accessing this website, you agree to abide by the following',
  '# content signals:',
  '',
  '# (a)  If a content-signal = yes, you may collect content for the corresponding',
  '#      use.',
  '# (b)  If a content-signal = no, you may not collect content for the',
  '#      corresponding use.',
  '# (c)  If the website operator does not include a content signal for a',
  '#      corresponding use, the website operator neither grants nor restricts',
  '#      permission via content signal with respect to the corresponding use.',
  '',
  '# The content signals and their meanings are:',
  '',
  '# search:   building a search index and providing search results (e.g., returning',
  "#           hyperlinks and short excerpts from your website's contents). Search does not",
  '#           include providing AI-generated search summaries.',
  '# ai-input: inputting content into one or more AI models (e.g., retrieval',
  '#           augmented generation, grounding, or other real-time taking of content for',
  '#           generative AI search answers).',
  '# ai-train: training or fine-tuning AI models.',
  '',
  '# ANY RESTRICTIONS EXPRESSED VIA CONTENT SIGNALS ARE EXPRESS RESERVATIONS OF',
  '# RIGHTS UNDER ARTICLE 4 OF THE EUROPEAN UNION DIRECTIVE 2019/790 ON COPYRIGHT',
  '# AND RELATED RIGHTS IN THE DIGITAL SINGLE MARKET.',
  '',
  '# BEGIN Cloudflare Managed content',
  '',
  'User-Agent: *',
  'Content-Signal: search=yes,ai-train=no',
  'Allow: /',
  '',
];
// Its earlier form (and the free plan's): a notice, then the crawler blocks.
const CLOUDFLARE_NOTICE_HEAD = [
  '# NOTICE: The collection of content and other data on this',
  '# site through automated means, including any device, tool,',
  '# or process designed to data mine or scrape content, is',
  '# prohibited except (1) for the purpose of search engine indexing or',
  '# artificial intelligence retrieval augmented generation or (2) with express',
  "# written permission from this site's operator.",
  '',
  '# To request permission to license our intellectual',
  '# property and/or other materials, please contact this',
  "# site's operator directly.",
  '',
  '# BEGIN Cloudflare Managed content',
  '',
];
const CLOUDFLARE_CRAWLERS = ['Amazonbot', 'Applebot-Extended', 'Bytespider', 'CCBot', 'ClaudeBot', 'Google-Extended', 'GPTBot', 'meta-externalagent'];
const CLOUDFLARE_TAIL = ['# END Cloudflare Managed Content', ''];

// What a site's own AI rules say; comments sites write above them.
const OWN_COMMENTS = ['# AI crawlers', '# Block AI training crawlers', '# Generative AI', '# We do not consent to AI training'];
const CONTENT_USAGE = [['train-ai=n'], ['search=y, train-ai=n'], ['train-ai=n', '/blog/ train-ai=y']];

/** Octets of a file, read as latin1 so every octet is one character and survives. */
function scan(bytes) {
  const text = bytes.toString('latin1');
  const head = text.slice(0, 2048).toLowerCase();
  const notRobots = /^\s*</.test(text) || head.includes('<html') || head.includes('<!doctype') || text.includes('\0');
  const eolMatch = /\r\n|\r|\n/.exec(text);
  const eol = eolMatch ? eolMatch[0] : '\n';
  const bom = text.startsWith('\xef\xbb\xbf') ? 3 : 0;
  const names = new Set();
  let firstAgent = -1;
  let ruleBeforeAgent = false;
  let lastRecord = ''; // 'agent' | 'rule': what ends the file's last group
  let group = null; // { star, rules: number, lastRuleEnd }
  let groupHasRule = false;
  const starGroups = [];
  const lineRe = /([^\r\n]*)(\r\n|\r|\n|$)/g;
  let m;
  while ((m = lineRe.exec(text)) !== null) {
    const start = m.index;
    const end = start + m[0].length;
    let line = m[1];
    if (start === 0 && bom) line = line.slice(bom);
    const hash = line.indexOf('#');
    if (hash >= 0) line = line.slice(0, hash);
    line = line.trim();
    let key = '';
    let value = '';
    const colon = line.indexOf(':');
    if (colon >= 0) {
      key = line.slice(0, colon).trim().toLowerCase();
      value = line.slice(colon + 1).trim();
    } else {
      const words = line.split(/\s+/).filter(Boolean);
      if (words.length === 2) [key, value] = [words[0].toLowerCase(), words[1]];
    }
    if (key !== '') {
      if (key.startsWith('user-agent') || key.startsWith('useragent') || key.startsWith('user agent')) {
        if (firstAgent < 0) firstAgent = start;
        if (group === null || groupHasRule) {
          group = { star: false, disallowOneOctet: false, lastRuleEnd: -1 };
          groupHasRule = false;
          starGroups.push(group);
        }
        if (value === '*' || /^\*\s/.test(value)) group.star = true;
        else {
          const token = /^[A-Za-z_-]*/.exec(value)[0].toLowerCase();
          if (token !== '') names.add(token);
        }
        lastRecord = 'agent';
      } else if (/^(allow|disallow|dissallow|dissalow|disalow|diasllow|disallaw)/.test(key)) {
        if (firstAgent < 0) ruleBeforeAgent = true;
        else {
          groupHasRule = true;
          group.lastRuleEnd = end;
          if (!key.startsWith('allow') && (value === '/' || value === '*')) group.disallowOneOctet = true;
          lastRecord = 'rule';
        }
      } else if (/^(crawl-delay|content-usage|content-signal)/.test(key)) {
        if (firstAgent < 0) ruleBeforeAgent = true;
      }
    }
    if (m[2] === '') break;
  }
  const stars = starGroups.filter((g) => g.star);
  const cuGroup = stars.find((g) => g.lastRuleEnd >= 0);
  return {
    notRobots,
    eol,
    bom,
    names,
    topOk: !notRobots && !ruleBeforeAgent && bytes.length < 400_000,
    // Past 400,000 octets a graft could push the file's own lines (top) or itself (end) past the 512,000 parsed.
    appendOk: !notRobots && lastRecord !== 'agent' && bytes.length < 400_000,
    starSafe: !stars.some((g) => g.disallowOneOctet),
    contentUsageAt: cuGroup ? cuGroup.lastRuleEnd : -1,
    endsWithEol: /[\r\n]$/.test(text),
  };
}

function digest(seed, host) {
  return createHash('sha256').update(`${seed}:${host}`).digest();
}

/** A generator of numbers in [0, 1) from a host's digest (xorshift32). */
function rngOf(d) {
  let x = d.readUInt32LE(0) || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x / 2 ** 32;
  };
}

const tokenOf = (name) => /^[A-Za-z_-]*/.exec(name)[0].toLowerCase();

/** ai.robots.txt's names; its robots.txt is built from them as its code/robots.py (json_to_txt) does: a user-agent line each, then `Disallow: /`. */
function aiRobotsNames(corpusDir) {
  const file = path.join(corpusDir, '..', '..', 'data', 'ai-robots-txt', 'robots.json');
  return Object.keys(JSON.parse(readFileSync(file, 'utf8')));
}

function blockLines(names, style, comment) {
  const out = comment ? [comment] : [];
  if (style === 'one-group') {
    for (const n of names) out.push(`User-agent: ${n}`);
    out.push('Disallow: /', '');
  } else {
    for (const n of names) out.push(`User-agent: ${n}`, 'Disallow: /', '');
  }
  return out;
}

function parseArgs(argv) {
  const opts = { out: path.join(ROOT, '.cache', 'ai-era'), seed: DEFAULT_SEED, corpus: path.join(ROOT, '..', 'shared', 'corpus', 'robots') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--seed') {
      opts.seed = Number(argv[++i]);
      if (!Number.isSafeInteger(opts.seed)) fail(`--seed takes an integer, got ${JSON.stringify(argv[i])}`);
    } else if (a === '--corpus') opts.corpus = path.resolve(argv[++i] ?? fail('--corpus takes a folder'));
    else if (a.startsWith('-')) fail(`unknown option ${a} (usage: make-ai-era-corpus.mjs [OUT] [--seed N] [--corpus DIR])`);
    else opts.out = path.resolve(a);
  }
  return opts;
}

function fail(message) {
  process.stderr.write(`make-ai-era-corpus: ${message}\n`);
  process.exit(2);
}

/** Which hosts get which graft: quotas of the whole corpus, filled in seeded order by hosts the graft fits. */
function plan(hosts, scans, seed) {
  const n = hosts.length;
  const order = hosts.filter((h) => !scans.get(h).notRobots)
    .map((h) => ({ h, d: digest(seed, h) }))
    .sort((a, b) => Buffer.compare(a.d, b.d))
    .map((x) => x.h);
  const count = (share) => Math.round(share * n);
  const assigned = new Map();
  const fill = (kind, quota, fits) => {
    const taken = [];
    for (const h of order) {
      if (taken.length >= quota) break;
      if (!assigned.has(h) && fits(scans.get(h))) { assigned.set(h, kind); taken.push(h); }
    }
    return taken;
  };
  const placeable = (s) => s.topOk || s.appendOk;
  fill('cloudflare-signal', count(SHARES.cloudflareSignal), (s) => s.topOk && s.starSafe);
  fill('cloudflare-notice', count(SHARES.cloudflareNotice), (s) => s.topOk);
  fill('ai-robots-txt', count(SHARES.aiRobotsTxt), placeable);
  fill('partial-gptbot', count(SHARES.partialGptbot), (s) => placeable(s) && !s.names.has('gptbot'));
  fill('allow-gptbot', count(SHARES.allowGptbot), (s) => placeable(s) && !s.names.has('gptbot'));
  fill('content-usage', count(SHARES.contentUsage), (s) => s.contentUsageAt >= 0);
  const ownQuota = count(SHARES.ownAiRules - SHARES.aiRobotsTxt - SHARES.partialGptbot - SHARES.allowGptbot - SHARES.contentUsage);
  const named = fill('named-blocks', ownQuota, placeable);
  // Within the sites that name crawlers of their own, each crawler's quota is its
  // cited share less what Cloudflare's and ai.robots.txt's sites already give it
  // (and, for CCBot, the sites that named it before): GPTBot and the crawlers
  // blocked less often from the head of the seeded order (blanket decisions:
  // who blocks ClaudeBot blocks GPTBot), CCBot and Bytespider from its tail, so
  // every such site names one crawler at least.
  const before = (token) => hosts.filter((h) => scans.get(h).names.has(token)).length;
  const fromCloudflare = (name) => (CLOUDFLARE_CRAWLERS.includes(name) ? count(SHARES.cloudflareSignal) + count(SHARES.cloudflareNotice) : 0);
  const quotas = {};
  for (const [name, share] of Object.entries(SHARES.blocked)) {
    quotas[name] = Math.max(0, count(share) - fromCloudflare(name) - count(SHARES.aiRobotsTxt) - before(tokenOf(name)));
  }
  const tail = new Set(['CCBot', 'Bytespider']);
  const crawlersOf = new Map(named.map((h) => [h, []]));
  for (const [name, quota] of Object.entries(quotas)) {
    const eligible = named.filter((h) => !scans.get(h).names.has(tokenOf(name)));
    const picked = tail.has(name) ? eligible.slice(Math.max(0, eligible.length - quota)) : eligible.slice(0, quota);
    for (const h of picked) crawlersOf.get(h).push(name);
  }
  return { assigned, crawlersOf };
}

/** The grafted file, and what INDEX.tsv says of it. */
function graft(host, bytes, s, kind, crawlers, seed, aiNames) {
  const rng = rngOf(digest(`${seed}/graft`, host));
  const pick = (list) => list[Math.floor(rng() * list.length)];
  const own = (names) => names.filter((n) => !s.names.has(tokenOf(n)));
  let lines;
  let at = 'top';
  let named = [];
  let signal = '';
  let usage = 0;
  switch (kind) {
    case 'cloudflare-signal':
    case 'cloudflare-notice': {
      named = own(CLOUDFLARE_CRAWLERS);
      lines = [...(kind === 'cloudflare-signal' ? CLOUDFLARE_SIGNAL_HEAD : CLOUDFLARE_NOTICE_HEAD), ...blockLines(named, 'groups'), ...CLOUDFLARE_TAIL];
      if (kind === 'cloudflare-signal') signal = 'search=yes,ai-train=no';
      break;
    }
    case 'ai-robots-txt':
      named = own(aiNames);
      lines = ['# https://github.com/ai-robots-txt/ai.robots.txt', ...blockLines(named, 'one-group')];
      at = s.appendOk ? 'end' : 'top';
      break;
    case 'named-blocks':
      named = crawlers;
      lines = blockLines(named, rng() < 0.5 ? 'one-group' : 'groups', pick(OWN_COMMENTS));
      break;
    case 'partial-gptbot':
      named = ['GPTBot'];
      lines = ['User-agent: GPTBot', ...pick([['Disallow: /private/'], ['Disallow: /search'], ['Disallow: /private/', 'Disallow: /account/']]), ''];
      break;
    case 'allow-gptbot':
      named = own(rng() < 0.5 ? ['GPTBot'] : ['GPTBot', 'OAI-SearchBot', 'ChatGPT-User']);
      lines = blockLines(named, 'one-group', '# OpenAI').map((l) => (l === 'Disallow: /' ? 'Allow: /' : l));
      break;
    case 'content-usage': {
      const values = pick(CONTENT_USAGE);
      usage = values.length;
      const insert = Buffer.from(values.map((v) => `Content-Usage: ${v}${s.eol}`).join(''), 'latin1');
      const cut = s.contentUsageAt;
      // After the last rule of the first `*` group: its line ends there, or the file does.
      const glue = s.endsWithEol || cut < bytes.length ? '' : s.eol;
      return {
        body: Buffer.concat([bytes.subarray(0, cut), Buffer.from(glue, 'latin1'), insert, bytes.subarray(cut)]),
        row: { at: 'star-group', named: [], signal, usage },
      };
    }
    default:
      throw new Error(`no graft ${kind}`);
  }
  if (kind === 'named-blocks' || kind === 'partial-gptbot' || kind === 'allow-gptbot') {
    at = s.topOk && (!s.appendOk || rng() < 0.5) ? 'top' : 'end';
  }
  if (at === 'top') {
    const text = Buffer.from(lines.join(s.eol) + s.eol, 'latin1');
    return { body: Buffer.concat([bytes.subarray(0, s.bom), text, bytes.subarray(s.bom)]), row: { at, named, signal, usage } };
  }
  const lead = bytes.length === 0 ? '' : (s.endsWithEol ? '' : s.eol) + s.eol;
  const text = Buffer.from(lead + lines.slice(0, lines.at(-1) === '' ? -1 : undefined).join(s.eol) + s.eol, 'latin1');
  return { body: Buffer.concat([bytes, text]), row: { at, named, signal, usage } };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!existsSync(opts.corpus)) fail(`${opts.corpus} is absent: this script grafts onto the shared corpus of real robots.txt files (../shared/corpus/robots)`);
  const aiNames = aiRobotsNames(opts.corpus);
  const hosts = readdirSync(opts.corpus).sort();
  const files = new Map(hosts.map((h) => [h, readFileSync(path.join(opts.corpus, h))]));
  const scans = new Map(hosts.map((h) => [h, scan(files.get(h))]));
  const { assigned, crawlersOf } = plan(hosts, scans, opts.seed);

  const robotsDir = path.join(opts.out, 'robots');
  rmSync(robotsDir, { recursive: true, force: true });
  mkdirSync(robotsDir, { recursive: true });
  const rows = ['host\tgraft\tat\tnamed\tcontent_signal\tcontent_usage_lines\toctets_before\toctets_after'];
  const warc = [];
  const kinds = {};
  for (const host of hosts) {
    const bytes = files.get(host);
    const s = scans.get(host);
    const kind = assigned.get(host) ?? (s.notRobots ? 'none:not-robots-txt' : 'none');
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    let body = bytes;
    let row = { at: '', named: [], signal: '', usage: 0 };
    if (assigned.has(host)) ({ body, row } = graft(host, bytes, s, kind, crawlersOf.get(host) ?? [], opts.seed, aiNames));
    writeFileSync(path.join(robotsDir, host), body);
    rows.push([host, kind, row.at, row.named.join(','), row.signal, row.usage, bytes.length, body.length].join('\t'));
    const id = digest(`${opts.seed}/warc`, host).toString('hex');
    const record = await WARCRecord.create(
      {
        url: `https://${host}/robots.txt`,
        date: '2026-11-01T00:00:00Z',
        type: 'response',
        statusline: 'HTTP/1.1 200 OK',
        httpHeaders: { 'Content-Type': 'text/plain' },
        // A record id from the seed and host, not a random one: the same run gives the same octets.
        warcHeaders: { 'WARC-Record-ID': `<urn:uuid:${id.slice(0, 8)}-${id.slice(8, 12)}-4${id.slice(13, 16)}-8${id.slice(17, 20)}-${id.slice(20, 32)}>` },
      },
      (async function* () { yield body; })(),
    );
    // The record as warcio writes it, gzipped here in one call: warcio's own gzip (a CompressionStream a record,
    // its chunks through web streams and zlib's thread pool) was half the script's CPU; the octets are the same.
    warc.push(gzipSync(await WARCSerializer.serialize(record, { gzip: false })));
  }
  writeFileSync(path.join(opts.out, 'INDEX.tsv'), rows.join('\n') + '\n');
  writeFileSync(path.join(opts.out, 'robotstxt.warc.gz'), Buffer.concat(warc));
  writeFileSync(path.join(opts.out, 'urls.txt'), hosts.map((h) => `https://${h}/\n`).join(''));
  const summary = Object.entries(kinds).sort().map(([k, v]) => `${k} ${v}`).join(', ');
  process.stdout.write(`make-ai-era-corpus: ${hosts.length} sites (seed ${opts.seed}) in ${path.relative(process.cwd(), opts.out) || '.'}: ${summary}\n`);
}

// Run as a script; imported (by its test), it only gives SHARES and DEFAULT_SEED.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
