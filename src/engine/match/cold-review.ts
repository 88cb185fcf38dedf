// A cold matcher's reviews (assembly/match/cold.ts asks for one when its walks have
// done the work allowed since the last): the cost model's verdict
// (mode-policy.ts coldReview) carried out on the matcher's cold list: its
// index written, the matcher turned hot, the next allowance set.
//
// In: the cold list, the rules' count and token octets, the policy. Out: the
// list's RM_WORK (the allowance), the core's cue to index the list, the header's H_COLD
// (0: hot from the next URL). Invariant: the verdicts are the same whatever
// the review decides (the property tests hold cold, indexed and hot to the reference).
//
// A reviewer is made at a matcher's first review, not with the matcher: most
// matchers of a crawler's cache never walk as far (on the corpus, 18 of the
// 4,241 did over their probe URLs, 40 a host), and one held ~470 octets of
// heap with the closures it had. A reviewer made afresh starts from the same state as the
// matcher's list (nothing walked), so its first allowance is the one
// firstAllowance (below) wrote then.
import type { Core } from '../wasm/core.js';
import { COLD_INDEX_NOW, H_COLD, RM_WORK } from '../wasm/layout.js';
import { starHeavyCounts } from '../compile/literal-heads.js';
import { type ColdCost, coldReview, type ModePolicy } from './mode-policy.js';

/** A cold matcher's ColdCost and its reviews. A class, not an object literal: it lives as long as the
 * matcher is cold, and V8's allocation-site pretenuring, decided and undone at
 * collections, threw away the optimised code of every function making it by a
 * literal (see rule-table.ts's CompiledRuleTable). */
export class ColdReviewer implements ColdCost {
  indexed = false;
  work = 0;
  recentWork = 0;
  recentUrls = 0;
  /** The work allowed since the last review. */
  private allowed: number;
  /** Its rules with two `*` or more before literal octets, plain and with a gram (counted once, when first asked). */
  private heavy: { plain: number; gram: number } | undefined = undefined;

  constructor(
    private readonly core: Core,
    private readonly header: number,
    /** The cold list's block. */
    private readonly list: number,
    private readonly policy: ModePolicy,
    readonly rules: number,
    readonly tokenOctets: number,
    readonly byCost: boolean,
  ) {
    this.allowed = coldReview(policy, this).next;
  }

  private counts(): { plain: number; gram: number } {
    return (this.heavy ??= starHeavyCounts(this.core, this.list, this.rules));
  }

  starHeavyRules(): number {
    return this.counts().plain;
  }

  gramHeavyRules(): number {
    return this.counts().gram;
  }

  /** Its rules with two `*` or more before literal octets, with a gram or not. */
  heavyRules(): number {
    return this.counts().plain + this.counts().gram;
  }

  /** The core's review: `urls` walked since the last one, with the work
   * allowed. Returns COLD_INDEX_NOW for the core to index the list, else 0. */
  review(urls: number): number {
    this.work += this.allowed;
    this.recentWork += this.allowed;
    this.recentUrls += urls;
    const verdict = coldReview(this.policy, this);
    if (verdict.index) {
      this.indexed = true;
      this.recentWork = 0;
      this.recentUrls = 0;
    }
    if (verdict.hot) this.core.u32[(this.header + H_COLD) >>> 2] = 0; // (the next URL turns it hot: LazyDfa.turnHot)
    this.allow(verdict.next);
    return verdict.index ? COLD_INDEX_NOW : 0;
  }

  private allow(work: number): void {
    this.allowed = work;
    this.core.u32[(this.list + RM_WORK) >>> 2] = work;
  }
}

/** The ColdCost of a list nothing has walked yet (firstAllowance's, reused: a ColdReviewer made for
 * each matcher only to write its first allowance was a share of a small file's compile). */
class FreshList implements ColdCost {
  readonly indexed = false;
  readonly work = 0;
  readonly recentWork = 0;
  readonly recentUrls = 0;
  rules = 0;
  tokenOctets = 0;
  byCost = false;
  core: Core | null = null;
  list = 0;
  private heavy: { plain: number; gram: number } | undefined = undefined;

  set(core: Core, list: number, rules: number, tokenOctets: number, byCost: boolean): this {
    this.core = core;
    this.list = list;
    this.rules = rules;
    this.tokenOctets = tokenOctets;
    this.byCost = byCost;
    this.heavy = undefined;
    return this;
  }

  private counts(): { plain: number; gram: number } {
    return (this.heavy ??= starHeavyCounts(this.core!, this.list, this.rules));
  }

  starHeavyRules(): number {
    return this.counts().plain;
  }

  gramHeavyRules(): number {
    return this.counts().gram;
  }
}

const fresh = new FreshList();

/** Writes a fresh cold list's first allowance: what a ColdReviewer made now would allow first
 * (its begin()), without one (most matchers are never reviewed: their reviewer is made then). */
export function firstAllowance(core: Core, list: number, policy: ModePolicy, rules: number, tokenOctets: number, byCost: boolean): void {
  const next = coldReview(policy, fresh.set(core, list, rules, tokenOctets, byCost)).next;
  fresh.core = null;
  core.u32[(list + RM_WORK) >>> 2] = next;
}
