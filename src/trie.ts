// The rules' NFA as a trie over their token sequences: a node is a pattern
// prefix (octets and `*`), shared by every rule that starts with it. With
// 20,000 rules that all start with `/`, the state after `/` is then one node,
// not 20,000 positions. src/dfa.ts determinises it lazily.
//
// Reading a path, the active nodes are the prefixes that match it so far:
// - a `*` node stays active on every octet (the star eats it), and a node
//   moves to its child on that octet, if any;
// - a node's `*` child is active with it (a star matches the empty string).
// A rule whose pattern ends at a node matched once the node is active: for
// good without `$` ("sticky"), only if the path ends there with `$` ("end").
// Rule ids are ranks (lower is better), so a node keeps the lowest of each kind.
import { ACCEPT, ANCHOR, RuleTable, RULE_FIELDS, R_DISALLOW } from './compile.js';
import { NO_RULE } from './layout.js';
import { STAR } from './pattern.js';

/** Terminal fields of a node, in Trie.terms (4 per entry). */
export const T_STICKY_ALLOW = 0;
export const T_STICKY_DISALLOW = 1;
export const T_END_ALLOW = 2;
export const T_END_DISALLOW = 3;

/** Frontiers longer than this are not kept (the node is then never dropped as dominated). */
const MAX_FRONTIER = 64;

export interface Trie {
  /** Nodes, in depth-first order; node 0 is the root (the empty prefix). */
  size: number;
  /** The parent of each node (-1 for the root). */
  parent: Int32Array;
  /** The subtree of q is the nodes [q, subtreeEnd[q]). */
  subtreeEnd: Int32Array;
  /** The nearest `*` node above q, or -1. */
  starAbove: Int32Array;
  /** 1 if the node's last token is `*`. */
  isStar: Uint8Array;
  /** The child by `*`, or -1. (`**` is `*`, so a star node has none.) */
  starChild: Int32Array;
  /** Octet children of q: childTok/childNode[childStart[q], childStart[q + 1]), by octet. */
  childStart: Int32Array;
  childTok: Uint8Array;
  childNode: Int32Array;
  /** Node -> index of its terminals in `terms`, or -1 when no rule ends there. */
  term: Int32Array;
  /** Per terminal entry, the best rule ids (T_* fields; NO_RULE when none). */
  terms: Uint32Array;
  /**
   * Node -> index of its frontier in `frontiers`, or -1: the `*` nodes that every
   * path below the node meets before any rule ends (see dfa.ts, dominance). When
   * they are all active, the node adds nothing they do not.
   */
  frontier: Int32Array;
  frontiers: Int32Array[];
}

/** The octet child of q, or -1. */
export function childOf(t: Trie, q: number, b: number): number {
  let lo = t.childStart[q];
  let hi = t.childStart[q + 1];
  const toks = t.childTok;
  if (hi - lo <= 8) {
    for (; lo < hi; lo++) if (toks[lo] === b) return t.childNode[lo];
    return -1;
  }
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const m = toks[mid];
    if (m === b) return t.childNode[mid];
    if (m < b) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/** Does q end a `$` rule (its end accepts count when the path ends on it)? */
export function hasEnd(t: Trie, q: number): boolean {
  const i = t.term[q];
  return i >= 0 && (t.terms[i * 4 + T_END_ALLOW] !== NO_RULE || t.terms[i * 4 + T_END_DISALLOW] !== NO_RULE);
}

export function buildTrie(table: RuleTable): Trie {
  const { tok, posRule, rules } = table;
  // Nodes as they are created: the edge into node c is (parent[c], token[c]).
  let cap = 64;
  let parent = new Int32Array(cap);
  let token = new Uint16Array(cap);
  let term = new Int32Array(cap).fill(-1);
  const edges = new Map<number, number>(); // parent * 512 + token -> child
  const terms: number[] = [];
  let size = 1;
  let q = 0;
  for (let p = 0; p < tok.length; p++) {
    const t = tok[p];
    if (t === ACCEPT || t === ANCHOR) {
      const r = posRule[p];
      if (term[q] < 0) {
        term[q] = terms.length >> 2;
        terms.push(NO_RULE, NO_RULE, NO_RULE, NO_RULE);
      }
      const at = term[q] * 4 + (t === ACCEPT ? T_STICKY_ALLOW : T_END_ALLOW) + rules[r * RULE_FIELDS + R_DISALLOW];
      if (r < terms[at]) terms[at] = r;
      q = 0; // the next rule starts at the root
      continue;
    }
    const key = q * 512 + t;
    let c = edges.get(key);
    if (c === undefined) {
      if (size === cap) {
        cap *= 2;
        const p2 = new Int32Array(cap);
        p2.set(parent);
        parent = p2;
        const t2 = new Uint16Array(cap);
        t2.set(token);
        token = t2;
        const m2 = new Int32Array(cap).fill(-1);
        m2.set(term);
        term = m2;
      }
      c = size++;
      parent[c] = q;
      token[c] = t;
      edges.set(key, c);
    }
    q = c;
  }

  // Number the nodes in depth-first order, so that a subtree is a range of ids.
  const first = linkChildren(size, parent, token);
  const order = new Int32Array(size);
  const stack = [0];
  let next = 0;
  while (stack.length > 0) {
    const v = stack.pop()!;
    order[v] = next++;
    if (first.starChild[v] >= 0) stack.push(first.starChild[v]);
    for (let i = first.childStart[v + 1] - 1; i >= first.childStart[v]; i--) stack.push(first.childNode[i]);
  }
  const parent2 = new Int32Array(size);
  const token2 = new Uint16Array(size);
  const term2 = new Int32Array(size);
  for (let v = 0; v < size; v++) {
    const w = order[v];
    parent2[w] = v === 0 ? -1 : order[parent[v]];
    token2[w] = token[v];
    term2[w] = term[v];
  }
  const subtreeEnd = new Int32Array(size);
  for (let v = size - 1; v >= 0; v--) {
    subtreeEnd[v] = Math.max(subtreeEnd[v], v + 1);
    if (v > 0) subtreeEnd[parent2[v]] = Math.max(subtreeEnd[parent2[v]], subtreeEnd[v]);
  }

  const starAbove = new Int32Array(size);
  starAbove[0] = -1;
  for (let v = 1; v < size; v++) {
    const u = parent2[v];
    starAbove[v] = token2[u] === STAR && u > 0 ? u : starAbove[u];
  }

  const trie: Trie = {
    size, parent: parent2, ...linkChildren(size, parent2, token2), subtreeEnd, starAbove,
    term: term2, terms: Uint32Array.from(terms), frontier: new Int32Array(size), frontiers: [],
  };
  computeFrontiers(trie);
  return trie;
}

/** The children of every node: octet children in CSR form, sorted by octet
 * (a counting sort by parent of the nodes in octet order), and `*` children. */
function linkChildren(size: number, parent: Int32Array, token: Uint16Array) {
  const isStar = new Uint8Array(size);
  const starChild = new Int32Array(size).fill(-1);
  const childStart = new Int32Array(size + 1);
  const byOctet = new Int32Array(257);
  for (let c = 1; c < size; c++) {
    if (token[c] === STAR) {
      isStar[c] = 1;
      starChild[parent[c]] = c;
    } else {
      childStart[parent[c] + 1]++;
      byOctet[token[c] + 1]++;
    }
  }
  for (let i = 0; i < size; i++) childStart[i + 1] += childStart[i];
  for (let i = 0; i < 256; i++) byOctet[i + 1] += byOctet[i];
  const edgeCount = childStart[size];
  const inOctetOrder = new Int32Array(edgeCount);
  for (let c = 1; c < size; c++) if (token[c] !== STAR) inOctetOrder[byOctet[token[c]]++] = c;
  const childTok = new Uint8Array(edgeCount);
  const childNode = new Int32Array(edgeCount);
  const fill = childStart.slice(0, size);
  for (const c of inOctetOrder) {
    const at = fill[parent[c]]++;
    childTok[at] = token[c];
    childNode[at] = c;
  }
  return { isStar, starChild, childStart, childTok, childNode };
}

/**
 * frontier(q): the `*` nodes met first on the paths below q, when no rule ends
 * on the way (a rule ending there is reached only through q). Bottom-up (children
 * have larger ids); a chain shares its one list.
 */
function computeFrontiers(t: Trie): void {
  const { size, isStar, starChild, childStart, childNode, term, frontier, frontiers } = t;
  // below(c): what c contributes to its parent's frontier: itself if a star,
  // else its own frontier if no rule ends at it; -1 when it has none.
  const single = new Map<number, number>(); // star -> index of the list [star]
  const below = (c: number): number => {
    if (isStar[c]) {
      let i = single.get(c);
      if (i === undefined) {
        single.set(c, (i = frontiers.length));
        frontiers.push(Int32Array.of(c));
      }
      return i;
    }
    return term[c] < 0 ? frontier[c] : -1;
  };
  for (let q = size - 1; q >= 0; q--) {
    const from = childStart[q];
    const to = childStart[q + 1];
    const s = starChild[q];
    const count = to - from + (s >= 0 ? 1 : 0);
    if (count === 0) {
      frontier[q] = -1; // a leaf: a rule ends here
    } else if (count === 1) {
      frontier[q] = below(s >= 0 ? s : childNode[from]);
    } else {
      let parts: number[] | null = [];
      let total = 0;
      for (let i = from; i <= to && parts !== null; i++) {
        const c = i < to ? childNode[i] : s;
        if (c < 0) continue;
        const f = below(c);
        if (f < 0 || (total += frontiers[f].length) > MAX_FRONTIER) parts = null;
        else parts.push(f);
      }
      if (parts === null) {
        frontier[q] = -1;
      } else {
        const list = new Int32Array(total);
        let k = 0;
        for (const f of parts) {
          list.set(frontiers[f], k);
          k += frontiers[f].length;
        }
        frontier[q] = frontiers.length;
        frontiers.push(list);
      }
    }
  }
}
