// A compiled matcher: one crawler's rules of one robots.txt, as a lazy DFA in
// the WASM core. Verdicts never allocate per URL on the JS side.
import { core, Core } from '../wasm/core.js';
import { type RuleBlock, type RuleTable, ruleKind, ruleLine, ruleText } from '../compile/rule-table.js';
import { freeMatcher, LazyDfa } from './dfa.js';
import { backstopFrees, unwatch, watch } from './backstop.js';
import { modePolicy, type ModePolicy } from './mode-policy.js';
import { H_OUT_ALLOW, H_OUT_DISALLOW, NO_RULE } from '../wasm/layout.js';
import { traitsOf, type Profile } from '../parse/profile.js';
import type { RuleKind } from '../parse/records.js';

export interface Verdict {
  allowed: boolean;
  /** Google's matching line: the deciding rule's line, 0 when no rule matched. */
  line: number;
  /** The deciding rule, when one matched. */
  rule?: { kind: RuleKind; pattern: string; line: number };
}

export interface MatcherOptions {
  /** Cap on this matcher's automaton memory in bytes (default 8 MiB). Past it the
   * automaton is rebuilt as it goes: slower, still linear in the URL. Whatever the
   * cap, room for four states stays (under 1 KiB to about 16 KiB, by the rules). */
  maxDfaBytes?: number;
  /** Octets of URL paths the matcher walks cold before its automaton takes over.
   * Cold, a check tries the rules from a list, best first (indexed by their
   * literal heads once the walks have cost as much), and builds nothing, so a
   * matcher used for a few URLs costs little time and memory; hot, a check is
   * one table step per octet. By default the cost model decides when to turn
   * hot (mode-policy.ts coldReview); Infinity stays cold; 0 starts hot: for a
   * matcher that will check very many URLs. */
  coldOctets?: number;
  /** @internal The rules' texts in the core too, for bulk classification's JSON lines. */
  ruleTexts?: boolean;
  /** @internal Its owner disposes it, always (bulk classification's host cache, which frees what it evicts and, at
   * the run's end, the rest): the backstop never watches it, so it is never registered for finalisation. */
  owned?: boolean;
  /** @internal Changes to the mode policy (mode-policy.ts: when to walk cold, hot
   * or by rules, the caps): tests reach with it the modes that only big files reach. */
  modePolicy?: Partial<ModePolicy>;
}

/** A matcher's JS objects, which the counts of heldBytes leave out (a cold one
 * holds no DFA objects, no rule table and no reviewer until its first review,
 * and its rules are in the core). Measured (--expose-gc): 20,000 cold matchers
 * of a 3-rule file hold 403 octets of heap each (Matcher 64, LazyDfa 184, the
 * finalizer's cell 72, the core's map entry), all the corpus's matchers 485
 * per host, 550 after 40 checks each, as the collector leaves them; the core's
 * blocks hold within 1% of what heldBytes counts for them. */
const OBJECT_BYTES = 448;

/** Throws a RangeError for options a Matcher cannot take (before anything is compiled for it). */
export function checkMatcherOptions(options: MatcherOptions): void {
  const max = options.maxDfaBytes;
  if (max !== undefined && !(typeof max === 'number' && max > 0)) {
    throw new RangeError(`maxDfaBytes must be a positive number, got ${String(max)}`);
  }
  const cold = options.coldOctets;
  if (cold !== undefined && !(typeof cold === 'number' && cold >= 0 && (Number.isInteger(cold) || cold === Infinity))) {
    throw new RangeError(`coldOctets must be a whole number of octets, 0 or more (or Infinity), got ${String(cold)}`);
  }
}

/** Does a matcher with these (checked) options start cold? */
export function startsCold(options: MatcherOptions): boolean {
  return (options.coldOctets ?? modePolicy(options.modePolicy).coldOctets) > 0;
}

/** Thrown when a Matcher is used after dispose(). */
export class DisposedError extends Error {
  constructor() {
    super('this Matcher was disposed: compile the robots.txt again to check more URLs');
    this.name = 'DisposedError';
  }
}
// Its name kept in the minified bundles (scripts/build.mjs): util.inspect and console.log show it.
Object.defineProperty(DisposedError, 'name', { value: 'DisposedError' });

// Frees the WASM memory of matchers that were dropped without dispose() (backstop.ts):
// a backstop only, since its callbacks wait for the event loop to turn.
backstopFrees((header) => freeMatcher(core(), header));

export class Matcher {
  readonly profile: Profile;
  private dfa: LazyDfa | null;
  private readonly header: number;
  /** Its rules' count (their lines and values: the block at its header). */
  private readonly ruleCount: number;
  private readonly core: Core;
  /** On the backstop (backstop.ts) until disposed: every matcher but an owned one. */
  private readonly watched: boolean;

  /** @internal Use RobotsTxt.compile(), which checks the options (checkMatcherOptions) before it compiles the table. */
  constructor(table: RuleTable, profile: Profile, options: MatcherOptions) {
    this.profile = profile;
    this.ruleCount = table.count;
    this.core = core();
    const texts = options.ruleTexts ? Array.from({ length: table.count }, (_, id) => textOf(table, id)) : undefined;
    this.dfa = new LazyDfa(this.core, table, traitsOf(profile).matcherFlags, modePolicy(options.modePolicy), {
      maxBytes: options.maxDfaBytes,
      coldOctets: options.coldOctets,
      texts,
    });
    this.header = this.dfa.header;
    this.watched = options.owned !== true;
    if (this.watched) watch(this, this.header);
  }

  private live(): number {
    if (this.dfa === null) throw new DisposedError();
    return this.header;
  }

  /** dispose() was called: every verdict now throws a DisposedError. */
  get disposed(): boolean {
    return this.dfa === null;
  }

  /** @internal The matcher's address in the core, for bulk classification. */
  get address(): number {
    return this.live();
  }

  isAllowed(url: string): boolean {
    const m = this.live();
    if (typeof url !== 'string') throw new TypeError(`url must be a string, got ${typeof url}`);
    return this.core.check(m, this.core.writeUrl(url)) === 1;
  }

  explain(url: string): Verdict {
    const allowed = this.isAllowed(url);
    const u32 = this.core.u32;
    const a = u32[(this.header + H_OUT_ALLOW) >>> 2];
    const d = u32[(this.header + H_OUT_DISALLOW) >>> 2];
    const t: RuleBlock = { block: this.header, count: this.ruleCount };
    // Google's matching line: the higher priority; on a tie, the allow. Rule
    // ids are ranks, so that is the lower id (NO_RULE is above every id).
    const id = d < a ? d : a;
    if (id === NO_RULE) return { allowed, line: 0 };
    const line = ruleLine(t, id);
    return { allowed, line, rule: { kind: ruleKind(t, id), pattern: ruleText(t, id), line } };
  }

  /** One verdict per URL: 1 allowed, 0 disallowed. */
  checkMany(urls: readonly string[]): Uint8Array {
    const m = this.live();
    if (!Array.isArray(urls)) throw new TypeError('urls must be an array of strings');
    const out = new Uint8Array(urls.length);
    this.core.checkMany(m, urls, out);
    return out;
  }

  /** Automaton statistics: states built, bytes held, times cleared for the cap,
   * and how the matcher walks now: 'cold' (its first octets: rule by rule from
   * a list, nothing built), 'hot' (the automaton), 'rules' (the automaton
   * thrashed, as on thousands of `*`-heavy rules: rule by rule, best first). */
  get stats(): { rules: number; states: number; bytes: number; resets: number; mode: 'cold' | 'hot' | 'rules' | 'disposed' } {
    const dfa = this.dfa;
    return { rules: this.ruleCount, states: dfa?.stateCount ?? 0, bytes: dfa?.bytes ?? 0, resets: dfa?.resets ?? 0, mode: dfa?.mode ?? 'disposed' };
  }

  /** @internal Octets the matcher holds, its rule table, trie and JS objects included (for caches' budgets). */
  get heldBytes(): number {
    return this.dfa === null ? 0 : this.dfa.heldBytes + OBJECT_BYTES;
  }

  /** @internal Octets of robots.txt it holds beyond heldBytes: none (its rules' values are a copy, in heldBytes). */
  get sourceBytes(): number {
    return 0;
  }

  /** Frees the matcher's WASM memory; the matcher cannot be used afterwards. */
  dispose(): void {
    if (this.dfa === null) return;
    if (this.watched) unwatch(this);
    this.dfa.dispose();
    this.dfa = null;
  }
}
// Its name kept in the minified bundles (scripts/build.mjs): util.inspect and console.log show it.
Object.defineProperty(Matcher, 'name', { value: 'Matcher' });

const utf8 = new TextEncoder();

/** "Disallow: /a", as the core writes it in JSON lines (bulk classification). */
function textOf(t: RuleBlock, id: number): Uint8Array {
  return utf8.encode(`${ruleKind(t, id) === 'allow' ? 'Allow' : 'Disallow'}: ${ruleText(t, id)}`);
}
