// The matchers of a --robots-dir: each origin's robots.txt parsed and compiled
// once, kept in a cache bounded by bytes (a segmented LRU of two HostLrus, hosts
// seen once and hosts used again: least recently used out first, never the one
// just used), so millions of URLs over hundreds of thousands of hosts run in
// bounded memory. An origin (scheme, host, port) has its own robots.txt
// (robots-dir.ts finds it in the directory; warc-robots.ts among WARC captures).
import { parse, type Matcher, type Profile } from '../../index.js';
import { compileOctets, robotsInternals } from '../../engine/robots-txt.js';
import { core } from '../../engine/wasm/core.js';
import { UNREACHABLE, type CrawlerMatchers, type LabelledMatcher, type OutputFormat, type PurposeCode } from './classification.js';
import type { Origin } from '../hosts/origin.js';
import { crawlerPurposes } from './purpose-codes.js';
import { crawlerLines } from './crawler-lines.js';
import { withControlTokens } from './control-codes.js';
import { controlKey, controlTokensOf, type ControlTokenUse } from '../../engine/usage/control-tokens.js';
import { SEL_FIELDS, SEL_LINE, selectRules, selectedRules } from '../../engine/parse/rule-selection.js';
import { asciiLower } from '../../text/ascii.js';
import { BulkError } from '../base/errors.js';
import { RobotsDir } from '../sources/robots-dir.js';
import type { FilesReadAhead } from './host-files-ahead.js';
import { HostLru } from './host-lru.js';
import type { WarcIndexData } from '../sources/warc/warc-index.js';
import { WarcRobots, type HostRobots } from '../sources/warc/warc-robots.js';

/** What an entry costs beyond its robots.txt and automaton (objects, map slots). */
const ENTRY_OVERHEAD = 512;

/** A cache of compiled hosts grows the core's memory to tens or hundreds of MiB, which the core's allocator does an
 * eighth at a time, and V8 counts each step's whole memory as new external memory, collecting garbage at each (on
 * the corpus ×25, over half of a run's scavenges and most of its full collections). So once the memory has grown
 * past ROOM_FROM (a short run is spared), each time it grows it is doubled, up to the cache's bound: made room for,
 * not touched (no page is resident until used). */
const ROOM_FROM = 16 << 20;

/** The share of the cache's bytes that holds hosts loaded on their first sight (see HostMatchers.firstSight). */
const FIRST_SIGHT_SHARE = 0.1;
/** Places of the set of hosts seen (SeenHosts): 4 Mi bits, 512 KiB. */
const SEEN_BITS = 1 << 22;

/** The hosts loaded before, as bits at their keys' low bits (a host may pass for another: it is then held as one seen
 * before). Cleared once half its bits are set: what was seen long ago counts as new again (TinyLFU's reset). */
class SeenHosts {
  private readonly bits = new Uint8Array(SEEN_BITS >>> 3);
  private count = 0;

  /** Whether the key was seen before; it is from now on. */
  check(key: number): boolean {
    const i = (key >>> 0) & (SEEN_BITS - 1); // (a key's low 32 bits are its two hashes, mixed: host-lru.ts's home)
    const bit = 1 << (i & 7);
    if ((this.bits[i >>> 3] & bit) !== 0) return true;
    if (++this.count > SEEN_BITS / 2) {
      this.bits.fill(0);
      this.count = 1;
    }
    this.bits[i >>> 3] |= bit;
    return false;
  }
}

/** The core's memory in octets. */
function coreOctets(): number {
  return core().exports.memory.buffer.byteLength;
}

/** A host's cache entry. A class with every field from the start, not object
 * literals: an entry lives until evicted, and V8's allocation-site pretenuring,
 * decided and undone at collections, threw away the optimised code of every
 * function making entries by a literal (see rule-table.ts's CompiledRuleTable). */
class Entry {
  /** What JSON lines say of the robots.txt, when the matcher alone does not tell (see LabelledMatcher). */
  labelled: LabelledMatcher | undefined = undefined;
  /** With crawlers: each crawler's matcher (`matcher` is the first's), and the other distinct ones (owned). */
  crawlers: CrawlerMatchers | undefined = undefined;
  others: Matcher[] | undefined = undefined;
  constructor(
    /** null: no robots.txt (all allowed); UNREACHABLE: a file that cannot be read (all disallowed). */
    public matcher: Matcher | null | typeof UNREACHABLE,
    /** Octets the matcher's rules point into (its robots.txt), or the host name's. */
    public source: number,
  ) {}
}

export interface HostMatchersOptions {
  /** DIR/<scheme>/<host>[:port] or DIR/<host> per origin ... */
  dir?: string;
  /** ... or the WARC captures' robots.txt (warc-index.ts). */
  warc?: WarcIndexData;
  /** A host with no robots.txt: every URL allowed (the default) or disallowed. */
  missing?: 'allow' | 'disallow';
  agents: string[];
  profile: Profile;
  maxOctets: number;
  /** Bound on the bytes held (robots.txt bodies and automata), approximately. */
  cacheBytes: number;
  /** A host file that cannot be read stops the run (else its URLs are disallowed, as unreachable). */
  strict?: boolean;
  /** Several crawlers, each with its own verdict (classify --crawlers); `agents` is then unused. */
  crawlers?: string[];
  /** JSON lines name the deciding rule: the matchers keep the rules' texts. */
  format?: OutputFormat;
  /** With crawlers: their use purposes too (purpose-codes.ts). */
  usage?: boolean;
}

export class HostMatchers {
  /** By origin key, the hosts used again: from a later run than their first, or loaded again. An entry's automata grow
   * as its URLs are checked: the LRU weighs it again once another host's are. */
  private readonly entries: HostLru<Entry>;
  /** By origin key, the hosts loaded on their first sight, in a tenth of the bytes (a segmented LRU's probation
   * segment): one used again from a later run moves to `entries`; one dropped is loaded again into `entries` when it
   * comes back. A crawl whose URLs come grouped by host so holds its hosts in a tenth of the cache, reused host after
   * host, where it filled the whole cache with hosts that never came back: the core's memory grown and each page of
   * it faulted in once (the probes x30: 256 MiB, 97k page faults; docs/benchmarks.md, "The host cache's first sight"). */
  private readonly firstSight: HostLru<Entry>;
  private readonly seen = new SeenHosts();
  /** The key of the last run's host (NaN: none): its next run is the same run going on, not a use again. */
  private lastKey = NaN;
  /** Hosts parsed and compiled (more than the distinct hosts when the cache evicted). */
  loads = 0;
  /** The core's memory when last seen grown (makeRoom). */
  private coreOctets = 0;
  /** Why each host file that could not be read failed, since last taken (takeUnreadable). */
  private unreadable: string[] = [];
  /** The block's host files another thread read ahead (host-files-ahead.ts), or null. */
  private ahead: FilesReadAhead | null = null;

  private readonly warc: WarcRobots | null;
  private readonly dir: RobotsDir | null;
  /** The agent as compileOctets takes it: one product token as a string, whose checked tokens it keeps from host to
   * host (a list it checks and encodes for the core afresh at each host). */
  private readonly agent: string | readonly string[];

  constructor(private readonly options: HostMatchersOptions) {
    this.warc = options.warc !== undefined ? new WarcRobots(options.warc) : null;
    this.dir = options.dir !== undefined ? new RobotsDir(options.dir, options.maxOctets) : null;
    this.agent = options.agents.length === 1 ? options.agents[0] : options.agents;
    const firstSight = Math.floor(options.cacheBytes * FIRST_SIGHT_SHARE);
    this.entries = new HostLru({ maxBytes: options.cacheBytes - firstSight, weigh: sizeOf, release: disposeEntry });
    this.firstSight = new HostLru({ maxBytes: firstSight, weigh: sizeOf, release: disposeEntry });
  }

  /** The origin's matcher (see MatcherSource): null when there is no robots.txt
   * for it (or when it allows all), UNREACHABLE when it disallows all. */
  get(key: number, origin: () => Origin): Matcher | null | typeof UNREACHABLE | LabelledMatcher {
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = key === this.lastKey ? this.firstSight.get(key) : this.usedAgain(key);
      if (entry === undefined) {
        entry = this.load(origin, key);
        if (coreOctets() !== this.coreOctets) this.makeRoom();
        (this.seen.check(key) ? this.entries : this.firstSight).set(key, entry);
      }
    }
    this.lastKey = key;
    return entry.labelled ?? entry.matcher;
  }

  /** A host of the first sight's, used again: moved to the entries. */
  private usedAgain(key: number): Entry | undefined {
    const entry = this.firstSight.withdraw(key);
    if (entry !== undefined) this.entries.set(key, entry);
    return entry;
  }

  /** The core's memory grew (see ROOM_FROM): made as large again, in one step (a block allocated and freed at once,
   * for the cache to fill), up to the cache's bound. */
  private makeRoom(): void {
    const c = core();
    const octets = coreOctets();
    const room = Math.min(octets, this.options.cacheBytes - octets);
    if (octets >= ROOM_FROM && room >= 1 << 20) c.free(c.alloc(room));
    this.coreOctets = coreOctets();
  }

  /** Whether each URL gets a verdict per crawler (getAll). */
  get crawling(): boolean {
    return this.options.crawlers !== undefined;
  }

  /** The origin's matchers, one per crawler (see CrawlerSource). */
  getAll(key: number, origin: () => Origin): CrawlerMatchers {
    this.get(key, origin);
    return (this.entries.peek(key) ?? this.firstSight.peek(key))!.crawlers!; // (the entry just used is never evicted)
  }

  /** The host files of the next block, read ahead by another thread (null: none); a host not among them is looked up here. */
  readAhead(files: FilesReadAhead | null): void {
    this.ahead = files;
  }

  private load(origin: () => Origin, key: number): Entry {
    // (The origin is urlOrigin()'s: "e.com." is "e.com", "0x7f.1" is "127.0.0.1", see origin-runs.ts.)
    const entry = this.warc !== null ? this.loadCapture(origin()) : this.loadFile(origin, key);
    const k = this.options.crawlers?.length;
    if (k !== undefined) {
      // (A robots.txt that decides alone decides for every crawler.)
      entry.crawlers ??= { matchers: new Array(k).fill(entry.matcher) };
      entry.crawlers.label = entry.labelled?.label;
      entry.crawlers.kind = entry.labelled?.kind;
    }
    return entry;
  }

  /** A host's robots.txt from the WARC captures: its rules, or the HTTP outcome's verdict for all. */
  private loadCapture(origin: Origin): Entry {
    this.loads++;
    const r: HostRobots = this.warc!.resolve(origin);
    const label = `","robots":"${r.kind}"${r.http !== undefined && r.http !== 0 ? `,"http":${r.http}` : ''}`;
    let entry: Entry;
    if (r.kind === 'ok') {
      entry = this.compile(r.body);
    } else {
      const matcher = r.kind === 'unreachable' || (r.kind === 'missing' && this.options.missing === 'disallow') ? UNREACHABLE : null;
      entry = new Entry(matcher, origin.host.length + label.length);
    }
    entry.labelled = { matcher: entry.matcher, label, kind: r.kind };
    return entry;
  }

  /** A host's entry for its robots.txt: its matcher, or with crawlers one per distinct set of groups that apply. */
  private compile(body: Uint8Array): Entry {
    const { profile, maxOctets, crawlers } = this.options;
    const ruleTexts = this.options.format === 'jsonl';
    if (crawlers === undefined) {
      // (No RobotsTxt: the file's octets are the read buffer's, compiled and let go.)
      const matcher = compileOctets(body, { profile, maxOctets }, this.agent, { ruleTexts, owned: true });
      return new Entry(matcher, matcher.sourceBytes);
    }
    const usage = this.options.usage === true;
    const all = compileCrawlersByLines(body, { profile, maxOctets }, crawlers, ruleTexts, usage, true) ?? compileCrawlers(parse(body, { profile, maxOctets }), crawlers, ruleTexts, usage, true);
    const distinct = [...new Set([...all.matchers, ...(all.extra ?? [])])] as Matcher[];
    const entry = new Entry(all.matchers[0], distinct[0].sourceBytes);
    entry.crawlers = all;
    entry.others = distinct.slice(1);
    return entry;
  }

  /** The origin is asked for only when its file was not read ahead (a read-ahead origin's host could name a file:
   * the reader read only those), or to weigh an entry without a file: most hosts make no strings here. */
  private loadFile(origin: () => Origin, key: number): Entry {
    let found = this.ahead?.take(key);
    if (found === undefined) {
      const o = origin();
      if (!RobotsDir.canName(o.host)) return this.none(o.host.length); // (no host, or not one a file can be named after: no load)
      found = this.dir!.read(o);
    }
    this.loads++;
    if (found.kind === 'none') return this.none(origin().host.length);
    if (found.kind === 'unreadable') {
      // RFC 9309 2.3.1.3: a robots.txt that cannot be read is unreachable: disallow all.
      // One bad file must not cost a long run, unless asked (--strict-robots-dir).
      const why = `cannot read ${found.file}: ${found.why}`;
      if (this.options.strict) throw new BulkError(why);
      this.unreadable.push(why);
      return new Entry(UNREACHABLE, origin().host.length);
    }
    return this.compile(found.body);
  }

  /** The entry of a host without a robots.txt (weighed by its name's length). */
  private none(hostLength: number): Entry {
    if (this.options.missing !== 'disallow') return new Entry(null, hostLength);
    const none = new Entry(UNREACHABLE, hostLength);
    none.labelled = { matcher: UNREACHABLE, label: '","robots":"missing"', kind: 'missing' };
    return none;
  }

  /** The failures to read host files since the last call (each host once while it stays cached). */
  takeUnreadable(): string[] {
    const list = this.unreadable;
    if (list.length > 0) this.unreadable = [];
    return list;
  }

  /** Entries evicted past cacheBytes, of hosts used again (those seen once and let go are not counted: a crawl grouped
   * by host lets every one go, and loads none again). */
  get evictions(): number {
    return this.entries.evictions;
  }

  get size(): number {
    return this.entries.size + this.firstSight.size;
  }

  get bytes(): number {
    return this.entries.bytes + this.firstSight.bytes;
  }

  /** Frees every cached matcher (they are owned: no finaliser would). The cache is empty after, and still usable. */
  close(): void {
    this.entries.clear();
    this.firstSight.clear();
    this.lastKey = NaN;
  }
}

/** Bytes an entry holds: its matcher (automaton, trie, rule table), what the rules point into, and overhead. */
function sizeOf(entry: Entry): number {
  const m = entry.matcher;
  let others = 0;
  for (const o of entry.others ?? []) others += o.heldBytes;
  return ENTRY_OVERHEAD + entry.source + (entry.labelled?.label.length ?? 0) + (m === null || m === UNREACHABLE ? 0 : m.heldBytes) + others;
}

/** An evicted entry's matchers are freed (the caller holds none past its run of URLs). */
function disposeEntry(entry: Entry): void {
  if (entry.matcher !== null && entry.matcher !== UNREACHABLE) entry.matcher.dispose();
  for (const m of entry.others ?? []) m.dispose();
}

/** Each crawler's matcher for a robots.txt, and with usage its purposes: crawlers that the same groups apply to share one of each (RobotsTxt.rulesKey),
 * and the same control tokens speak for (control-codes.ts; a token's matcher, when its groups are no crawler's, is in `extra`).
 * owned: the caller disposes every one of them, always (MatcherOptions.owned). */
export function compileCrawlers(robots: ReturnType<typeof parse>, crawlers: readonly string[], ruleTexts: boolean, usage = false, owned = false): CrawlerMatchers & { matchers: Matcher[] } {
  const byRules = new Map<string, { matcher: Matcher; purposes: PurposeCode }>();
  const matchers: Matcher[] = [];
  const purposes: PurposeCode[] = [];
  // (Most crawlers are named by no group: the `*` groups' key, found once, not once per crawler:
  // 166 rulesKey calls a host took a quarter of a run of the corpus.)
  const inside = robotsInternals(robots);
  const named = inside.namedAgents();
  const lower = lowerNames(crawlers);
  let unnamed: string | undefined;
  const keyOf = (name: string, lowerName: string) => (named.has(lowerName) ? inside.rulesKey(name) : (unnamed ??= inside.rulesKey(name)));
  const sharedOf = (key: string, name: string) => {
    let shared = byRules.get(key);
    if (shared === undefined) {
      shared = { matcher: robots.compile(name, { ruleTexts, owned }), purposes: usage ? crawlerPurposes(robots, name) : 0 };
      byRules.set(key, shared);
    }
    return shared;
  };
  const controls = usage ? controlsOf(crawlers) : null;
  const withControls = new Map<string, PurposeCode>();
  const crawlerMatchers = new Set<Matcher>();
  for (let j = 0; j < crawlers.length; j++) {
    const crawler = crawlers[j];
    const key = keyOf(crawler, lower[j]);
    const shared = sharedOf(key, crawler);
    matchers.push(shared.matcher);
    crawlerMatchers.add(shared.matcher);
    if (!usage) continue;
    const uses = controls?.uses[j] ?? [];
    if (uses.length === 0) {
      purposes.push(shared.purposes);
      continue;
    }
    const full = key + controls!.keys[j];
    let code = withControls.get(full);
    if (code === undefined) {
      const controls = uses.map((use) => {
        const tokenLower = use.lower ?? asciiLower(use.token);
        const tokenKey = keyOf(use.token, tokenLower);
        return { use, named: named.has(tokenLower), matcher: tokenKey === key ? null : sharedOf(tokenKey, use.token).matcher };
      });
      withControls.set(full, (code = withControlTokens(shared.purposes, controls)));
    }
    purposes.push(code);
  }
  if (!usage) return { matchers };
  const extra = [...byRules.values()].map((s) => s.matcher).filter((m) => !crawlerMatchers.has(m));
  return extra.length === 0 ? { matchers, usage: purposes } : { matchers, usage: purposes, extra };
}

/**
 * compileCrawlers' answer from the lexer's lines alone (crawler-lines.ts), with no records, where they suffice: the
 * crawlers no user-agent line names share the `*` groups' matcher, and the others one per set of rules selected for
 * them (the same rules: the same verdicts and lines). undefined where purposes are asked for and the file has
 * Content-Usage or Content-Signal lines (which need its groups: compileCrawlers); else every purpose is unknown but
 * what control tokens state (control-codes.ts: a token keyed by its rules as a crawler is).
 */
export function compileCrawlersByLines(body: Uint8Array, options: { profile: Profile; maxOctets: number }, crawlers: readonly string[], ruleTexts: boolean, usage: boolean, owned = false): (CrawlerMatchers & { matchers: Matcher[] }) | undefined {
  const read = body.length > options.maxOctets ? body.subarray(0, options.maxOctets) : body; // (what the parser reads)
  const control = usage ? controlsOf(crawlers) : null;
  const lines = crawlerLines(read, control === null ? lowerNameSet(crawlers) : control.names);
  if (usage && lines.usage) return undefined;
  const named = lines.named;
  const lower = lowerNames(crawlers);
  const matchers: Matcher[] = new Array(crawlers.length);
  let unnamed: Matcher | undefined;
  const byRules = named === null ? undefined : new Map<string, Matcher>();
  // With byRules: each crawler's key (its selected rules' lines).
  const keys: string[] = [];
  let unnamedKey = '';
  for (let j = 0; j < crawlers.length; j++) {
    const isNamed = named !== null && named.has(lower[j]);
    if (!isNamed && unnamed !== undefined) {
      matchers[j] = unnamed;
      keys[j] = unnamedKey;
      continue;
    }
    let m: Matcher | undefined;
    if (byRules === undefined) {
      m = compileOctets(body, options, crawlers[j], { ruleTexts, owned });
    } else {
      // (A group may name one and be `*` too: the unnamed ones' rules are keyed as well.)
      const key = (keys[j] = selectedLines(read, lower[j], options.profile));
      if (!isNamed) unnamedKey = key;
      m = byRules.get(key);
      if (m === undefined) byRules.set(key, (m = compileOctets(body, options, crawlers[j], { ruleTexts, owned })));
    }
    if (!isNamed) unnamed = m;
    matchers[j] = m;
  }
  if (!usage) return { matchers };
  const codes = new Array<PurposeCode>(crawlers.length).fill(0);
  // No group names a crawler or a token: all get the `*` groups, and the tokens state nothing where the crawlers may fetch.
  if (control === null || named === null || !control.spoken.some((n) => named.has(n))) return { matchers, usage: codes };
  // Else each token is keyed as the crawlers are (no use line here: their own codes are 0).
  const extra: Matcher[] = [];
  const byControls = new Map<string, PurposeCode>();
  for (let j = 0; j < crawlers.length; j++) {
    const uses = control.uses[j];
    if (uses.length === 0) continue;
    const full = keys[j] + control.keys[j];
    let code = byControls.get(full);
    if (code === undefined) {
      const verdicts = uses.map((use) => {
        const tokenLower = use.lower ?? asciiLower(use.token);
        const key = selectedLines(read, tokenLower, options.profile);
        if (key === keys[j]) return { use, named: named!.has(tokenLower), matcher: null };
        if (lastSelection !== VARIES) return { use, named: named!.has(tokenLower), matcher: null, always: lastSelection === ALLOWS_ALL };
        let m = byRules!.get(key);
        if (m === undefined) {
          byRules!.set(key, (m = compileOctets(body, options, use.token, { ruleTexts, owned })));
          extra.push(m);
        }
        return { use, named: named!.has(tokenLower), matcher: m };
      });
      byControls.set(full, (code = withControlTokens(0, verdicts)));
    }
    codes[j] = code;
  }
  return extra.length === 0 ? { matchers, usage: codes } : { matchers, usage: codes, extra };
}

/** What the last selectedLines() found its rules decide: the same for every URL (no rule: all allowed), or not.
 * (`Disallow: /` alone is not all disallowed: /robots.txt is always allowed, decide.ts.) */
const VARIES = 0;
const ALLOWS_ALL = 1;
let lastSelection = VARIES;

/** The lines of the rules selected for the crawler of that (lower-case) name (in the profile's groups), as a key;
 * and in lastSelection whether they decide alike for every URL. */
function selectedLines(body: Uint8Array, name: string, profile: Profile): string {
  try {
    const n = selectRules(body, [name], profile);
    const rules = selectedRules();
    let key = '';
    for (let i = 0; i < n; i++) key += `${rules[i * SEL_FIELDS + SEL_LINE]},`;
    lastSelection = n === 0 ? ALLOWS_ALL : VARIES;
    return key;
  } finally {
    core().forgetBody(body);
  }
}

/** The control tokens of a list of crawlers (control-tokens.ts), found once per list. */
interface ListControls {
  /** Per crawler: the tokens that speak for it (none: empty), and controlKey()'s key. */
  uses: readonly (readonly ControlTokenUse[])[];
  keys: readonly string[];
  /** The crawlers' and the tokens' names (lower case) ... */
  names: ReadonlySet<string>;
  /** ... and of those the ones whose naming matters to the purposes: the tokens, and the crawlers they speak for. */
  spoken: readonly string[];
}
const listControls = new WeakMap<readonly string[], ListControls | null>();

/** The list's control tokens, or null when none speaks for any of its crawlers. */
function controlsOf(crawlers: readonly string[]): ListControls | null {
  let found = listControls.get(crawlers);
  if (found === undefined) {
    const uses = crawlers.map((c) => controlTokensOf(c, undefined));
    const spoken = new Set<string>();
    uses.forEach((list, j) => {
      if (list.length === 0) return;
      spoken.add(asciiLower(crawlers[j]));
      for (const u of list) spoken.add(u.lower ?? asciiLower(u.token));
    });
    found = spoken.size === 0
      ? null
      : { uses, keys: crawlers.map((c) => controlKey(c)), names: new Set([...lowerNameSet(crawlers), ...spoken]), spoken: [...spoken] };
    listControls.set(crawlers, found);
  }
  return found;
}

const loweredSets = new WeakMap<readonly string[], ReadonlySet<string>>();
/** lowerNames as a set (once per list). */
function lowerNameSet(crawlers: readonly string[]): ReadonlySet<string> {
  let set = loweredSets.get(crawlers);
  if (set === undefined) loweredSets.set(crawlers, (set = new Set(lowerNames(crawlers))));
  return set;
}

const lowered = new WeakMap<readonly string[], string[]>();
/** The crawlers' names in ASCII lower case, as user-agent lines are compared (once per list). */
function lowerNames(crawlers: readonly string[]): string[] {
  let names = lowered.get(crawlers);
  if (names === undefined) lowered.set(crawlers, (names = crawlers.map(asciiLower)));
  return names;
}
