// The path patterns of a crawler's Content-Usage rules, matched by the engine's
// compiled matcher (the lazy DFA in the core, under the profile's normalisation),
// so that usage() costs per octet of URL what isAllowed() does, whatever the file
// (thousands of `*`-heavy patterns included). Each distinct pattern (as the
// profile normalises it) is one Disallow of a matcher compiled from the patterns
// alone: the best disallow it reports is the longest matching pattern, the first
// in file order among patterns of that length. (Disallows: Google's index.htm
// companion is an Allow's.) The matcher is compiled on first use and held in the
// pool of RobotsTxt's own matchers, which may dispose it: it is compiled again
// when asked.
import { compileRules } from '../compile/compile.js';
import { ruleLine, type RuleBlock } from '../compile/rule-table.js';
import { Matcher, startsCold } from '../match/matcher.js';
import { ownMatchers } from '../match/own-matchers.js';
import type { Pattern } from '../parse/pattern.js';
import type { Profile } from '../parse/profile.js';
import type { RuleLine } from '../parse/records.js';
import { selectGroupRules } from '../parse/rule-selection.js';
import { core } from '../wasm/core.js';
import { H_OUT_DISALLOW, NO_RULE } from '../wasm/layout.js';

/** A Content-Usage rule with a path pattern, as written and as the profile reads it. */
export interface PathRule {
  pathOctets: Uint8Array;
  pattern: Pattern;
}

/** The same pattern, as the compiler would make it: its tokens, anchoring and priority. */
function patternKey(p: Pattern): string {
  return `${p.priority}${p.anchored ? '$' : ''}:${tokensText(p.tokens)}`;
}

/** The tokens as a string, a chunk at a time (fromCharCode's arguments are bounded). (apply(), not a
 * spread: a spread walks the tokens through an iterator, most of a first usage()'s key work.) */
function tokensText(tokens: Uint16Array): string {
  let s = '';
  for (let i = 0; i < tokens.length; i += 0x4000) s += String.fromCharCode.apply(null, tokens.subarray(i, Math.min(tokens.length, i + 0x4000)) as unknown as number[]);
  return s;
}

// (One object, its block set per read: a URL's rules are found with nothing allocated.)
const table: RuleBlock = { block: 0, count: 0 };

export class UsagePaths<R extends PathRule> {
  /** The rules of each distinct pattern, in file order; the patterns in the order of their first rule. */
  private readonly groups: R[][] = [];
  private matcher: Matcher | undefined;

  constructor(
    rules: readonly R[],
    private readonly profile: Profile,
  ) {
    const byKey = new Map<string, R[]>();
    for (const r of rules) {
      const key = patternKey(r.pattern);
      const same = byKey.get(key);
      if (same !== undefined) same.push(r);
      else {
        const group = [r];
        byKey.set(key, group);
        this.groups.push(group);
      }
    }
  }

  /** The rules of the longest pattern that matches url (the first of that length), or null when none does.
   * `written`: url's octets when it is the URL last written to the core (Core.writeUrl), walked as
   * written unless the matcher is compiled now (a compile may free a long URL's area). */
  deciding(url: string, written = -1): R[] | null {
    const i = this.decidingIndex(url, written);
    return i < 0 ? null : this.groups[i];
  }

  /** deciding()'s rules by their place among the patterns (-1: none matches): an answer's input as a number. */
  decidingIndex(url: string, written = -1): number {
    const live = written >= 0 && this.matcher !== undefined && !this.matcher.disposed;
    const m = this.compiled();
    if (live) core().check(m.address, written); // (leaves the best matches in the matcher's header)
    else m.isAllowed(url); // (checks url, likewise)
    const id = core().u32[(m.address + H_OUT_DISALLOW) >>> 2];
    if (id === NO_RULE) return -1;
    table.block = m.address;
    table.count = this.groups.length;
    return ruleLine(table, id) - 1;
  }

  /** The matcher is compiled (deciding() compiles none). */
  get live(): boolean {
    return this.matcher !== undefined && !this.matcher.disposed;
  }

  /** @internal The matcher's statistics while it is compiled (undefined before, and once disposed). */
  get stats(): Matcher['stats'] | undefined {
    return this.matcher === undefined || this.matcher.disposed ? undefined : this.matcher.stats;
  }

  /** Frees the matcher now (the next deciding() compiles it again). */
  dispose(): void {
    const m = this.matcher;
    if (m === undefined) return;
    this.matcher = undefined;
    ownMatchers.delete(m);
    m.dispose();
  }

  private compiled(): Matcher {
    let m = this.matcher;
    if (m !== undefined && !m.disposed) {
      ownMatchers.get(m);
      return m;
    }
    m = this.matcher = this.compile();
    ownMatchers.set(m, m);
    return m;
  }

  /** The distinct patterns, one after another, as a body the compiler reads its rules from:
   * each a Disallow whose line is its place among them (from 1). */
  private compile(): Matcher {
    let octets = 0;
    for (const g of this.groups) octets += g[0].pathOctets.length;
    const body = new Uint8Array(octets);
    const rules: RuleLine[] = [];
    let at = 0;
    for (let i = 0; i < this.groups.length; i++) {
      const p = this.groups[i][0].pathOctets;
      body.set(p, at);
      rules.push({ kind: 'disallow', line: i + 1, start: at, end: at + p.length });
      at += p.length;
    }
    const count = selectGroupRules([{ agents: [], rules, usage: [] }]);
    try {
      return new Matcher(compileRules(body, count, this.profile, startsCold({})), this.profile, {});
    } finally {
      core().forgetBody(body); // (not kept by the core past the compile)
    }
  }
}
