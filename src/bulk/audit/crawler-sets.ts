// Which groups apply to each of a site's crawlers, chosen by the core in one call
// a site (assembly/bulk/crawler-sets.ts, which asks group-choice.ts's
// groupsApplying for each crawler in turn: the one decision, made there): the
// file's user-agent lines written to the core once, the crawlers' names encoded
// once a run, not once a crawler a site. Crawlers that the same groups apply to
// are given one set by the core, which compares the lists: the host makes one
// array of groups a set, not one a crawler.
import type { Group } from '../../engine/parse/records.js';
import { core, type Core } from '../../engine/wasm/core.js';
import { encodedNames } from '../../engine/parse/rule-selection.js';
import { AGENT_CHOICE_NAMED, AGENT_END, AGENT_FIELDS, AGENT_LINE, AGENT_OWNER, AGENT_START } from '../../engine/wasm/layout.js';

/** How a crawler's set reaches it: groups naming it, the `*` groups alone, none (lastChoiceReach's words). */
export type Reach = 'own' | 'star' | 'none';

export interface CrawlerSets {
  /** Each set's groups, in file order, numbered as the crawlers (in their order) first meet them. */
  sets: Group[][];
  /** Per crawler, its set's number. */
  setOf: number[];
  reach: Reach[];
}

/** Site choices made (a test counts them against the crawlers': one a site). */
export const crawlerSetCalls = { count: 0 };

/** The block the lines, the names and the answer are written to: grown to the largest site's, never freed. */
let block = 0;
let blockOctets = 0;

function blockOf(c: Core, octets: number): number {
  if (octets > blockOctets) {
    if (block !== 0) c.free(block);
    blockOctets = Math.max(octets, 2 * blockOctets, 4096);
    block = c.alloc(blockOctets);
  }
  return block;
}

const NONE: CrawlerSets = { sets: [[]], setOf: [], reach: [] };

export class CrawlerChoice {
  /** The crawlers' names as the core reads them, one crawler's after another's. */
  private readonly names: Uint8Array;
  /** The most crawlers one name is among: a line names at most so many, which bounds the sets' owners. */
  private readonly shared: number;

  /** tokens: each crawler's product tokens (agentTokens'), in the crawlers' order. */
  constructor(private readonly tokens: readonly (readonly string[])[]) {
    const parts = tokens.map((t) => encodedNames(t));
    this.names = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      this.names.set(p, at);
      at += p.length;
    }
    const among = new Map<string, number>();
    for (const t of tokens) for (const name of new Set(t)) among.set(name, (among.get(name) ?? 0) + 1);
    this.shared = Math.max(1, ...among.values());
  }

  /** Each crawler's set of the groups (their user-agent lines as the records read them: one AgentValues for all). */
  choose(groups: readonly Group[]): CrawlerSets {
    crawlerSetCalls.count++;
    const crawlers = this.tokens.length;
    let lines = 0;
    for (const g of groups) lines += g.agents.length;
    if (lines === 0) return { sets: NONE.sets, setOf: new Array<number>(crawlers).fill(0), reach: new Array<Reach>(crawlers).fill('none') };
    const values = groups.find((g) => g.agents.length > 0)!.agents[0].values;
    // The block: the values, the lines (AGENT_FIELDS i32s each), the names, the answer (an i32 a crawler, then the
    // sets: at most one of the `*` groups, the named ones' owners at most a line each per crawler it names, and the
    // next crawler's owners before they are compared).
    const entriesAt = (values.length + 3) & ~3;
    const namesAt = entriesAt + lines * AGENT_FIELDS * 4;
    const outAt = (namesAt + this.names.length + 3) & ~3;
    const outOctets = 4 * (2 * crawlers + 2 * groups.length + 4 + lines * this.shared);
    const c = core();
    const at = blockOf(c, outAt + outOctets);
    const u8 = c.u8;
    const i32 = c.i32;
    u8.set(values.octets.subarray(0, values.length), at);
    let e = (at + entriesAt) >>> 2;
    for (let owner = 0; owner < groups.length; owner++) {
      for (const a of groups[owner].agents) {
        i32[e + AGENT_START] = a.valueStart;
        i32[e + AGENT_END] = a.valueEnd;
        i32[e + AGENT_LINE] = a.line;
        i32[e + AGENT_OWNER] = owner;
        e += AGENT_FIELDS;
      }
    }
    u8.set(this.names, at + namesAt);
    const n = c.exports.crawlerSets(at, at + entriesAt, lines, at + namesAt, crawlers, at + outAt);
    const out = (at + outAt) >>> 2;
    const setOf: number[] = [];
    const reach: Reach[] = [];
    for (let k = 0; k < crawlers; k++) setOf.push(i32[out + k] & ~AGENT_CHOICE_NAMED);
    const sets: Group[][] = [];
    let s = out + crawlers;
    for (let i = 0; i < n; i++) {
      const count = i32[s];
      const chosen: Group[] = [];
      for (let k = 1; k <= count; k++) chosen.push(groups[i32[s + k]]);
      sets.push(chosen);
      s += count + 1;
    }
    for (let k = 0; k < crawlers; k++) reach.push(sets[setOf[k]].length === 0 ? 'none' : (i32[out + k] & AGENT_CHOICE_NAMED) !== 0 ? 'own' : 'star');
    return { sets, setOf, reach };
  }
}
