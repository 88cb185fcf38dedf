// A cold matcher's reviews (assembly/cold.ts asks for one when its walks have
// done the work allowed since the last): the cost model's verdict
// (mode-policy.ts coldReview) carried out on the matcher's cold list: its
// index written, the matcher turned hot, the next allowance set.
//
// In: the cold list, the rules' count and token octets, the policy. Out: the
// list's RM_WORK (the allowance), the core's cue to index the list, the header's H_COLD
// (0: hot from the next URL). Invariant: the verdicts are the same whatever
// the review decides (the property tests hold cold, indexed and hot to the reference).
import type { Core } from '../wasm/core.js';
import type { ColdList } from '../compile/rule-table.js';
import { COLD_INDEX_NOW, H_COLD, RM_WORK } from '../wasm/layout.js';
import { starHeavyCounts } from '../compile/literal-heads.js';
import { type ColdCost, coldReview, type ModePolicy } from './mode-policy.js';

export class ColdReviewer {
  private readonly cost: ColdCost;
  /** The work allowed since the last review. */
  private allowed = 0;
  /** Its rules with two `*` or more before literal octets (counted once, when first asked). */
  readonly heavyRules: () => number;
  constructor(
    private readonly core: Core,
    private readonly header: number,
    private readonly list: ColdList,
    private readonly policy: ModePolicy,
    rules: number,
    byCost: boolean,
  ) {
    let heavy: { plain: number; gram: number } | undefined;
    const counts = () => (heavy ??= starHeavyCounts(core, list.block, rules));
    this.cost = new ColdState(rules, list.tokens, () => counts().plain, () => counts().gram, byCost);
    this.heavyRules = () => counts().plain + counts().gram;
    this.allow(coldReview(policy, this.cost).next);
  }

  /** The core's review: `urls` walked since the last one, with the work
   * allowed. Returns COLD_INDEX_NOW for the core to index the list, else 0. */
  review(urls: number): number {
    const c = this.cost;
    c.work += this.allowed;
    c.recentWork += this.allowed;
    c.recentUrls += urls;
    const verdict = coldReview(this.policy, c);
    if (verdict.index) {
      c.indexed = true;
      c.recentWork = 0;
      c.recentUrls = 0;
    }
    if (verdict.hot) this.core.u32[(this.header + H_COLD) >>> 2] = 0; // (the next URL turns it hot: LazyDfa.turnHot)
    this.allow(verdict.next);
    return verdict.index ? COLD_INDEX_NOW : 0;
  }

  private allow(work: number): void {
    this.allowed = work;
    this.core.u32[(this.list.block + RM_WORK) >>> 2] = work;
  }
}

/** A matcher's ColdCost. A class, not an object literal: it lives as long as the
 * matcher is cold, and V8's allocation-site pretenuring, decided and undone at
 * collections, threw away the optimised code of every function making it by a
 * literal (see rule-table.ts's CompiledRuleTable). */
class ColdState implements ColdCost {
  indexed = false;
  work = 0;
  recentWork = 0;
  recentUrls = 0;
  constructor(
    public rules: number,
    public tokenOctets: number,
    public starHeavyRules: () => number,
    public gramHeavyRules: () => number,
    public byCost: boolean,
  ) {}
}
