// The rules' NFA as a trie over their token sequences: a node is a pattern
// prefix (octets and `*`), shared by every rule that starts with it. With
// 20,000 rules that all start with `/`, the state after `/` is then one node,
// not 20,000 positions. src/engine/match/determinise.ts determinises it lazily.
//
// Reading a path, the active nodes are the prefixes that match it so far:
// - a `*` node stays active on every octet (the star eats it), and a node
//   moves to its child on that octet, if any;
// - a node's `*` child is active with it (a star matches the empty string).
// A rule whose pattern ends at a node matched once the node is active: for
// good without `$` ("sticky"), only if the path ends there with `$` ("end").
// Rule ids are ranks (lower is better), so a node keeps the lowest of each kind.
import { ACCEPT, type RuleTable, ruleKinds } from './rule-table.js';
import { NO_RULE } from '../wasm/layout.js';
import { STAR } from '../parse/pattern.js';

/** Terminal fields of a node, in Trie.terms (4 per entry). */
export const T_STICKY_ALLOW = 0;
export const T_STICKY_DISALLOW = 1;
export const T_END_ALLOW = 2;
export const T_END_DISALLOW = 3;

/** Frontiers longer than this are not kept (the node is then never dropped as dominated). */
const MAX_FRONTIER = 64;

export interface Trie {
  /** Nodes, in depth-first order (children by token, `*` last); node 0 is the root (the empty prefix). */
  size: number;
  /** Has `*` nodes (else the star fields are shared arrays of -1 and 0, longer than size). */
  starry: boolean;
  // Star fields (of a trie without `*` nodes: shared arrays of -1 and 0).
  /** The subtree of q is the nodes [q, subtreeEnd[q]). */
  subtreeEnd: Int32Array;
  /** The nearest `*` node above q, or -1. */
  starAbove: Int32Array;
  /**
   * Nodes [q + 1, chainEnd[q]) are the one path below q, no rule ending on it:
   * an active star there covers q, whatever the distance (`/*a*a*a…`).
   */
  chainEnd: Int32Array;
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
   * The frontier of q, or none when frontierAt[q] is -1: the `*` nodes
   * frontierNodes[frontierAt[q], + frontierLength[q]) that every path below q
   * meets before any rule ends (see src/engine/match/determinise.ts, dominance). When they are all
   * active, q adds nothing they do not.
   */
  frontierAt: Int32Array;
  frontierLength: Int32Array;
  frontierNodes: Int32Array;
}

/** Octets the trie holds: its own arrays share one buffer (a trie without
 * stars shares the star fields with every other such trie), and the frontiers. */
export function trieBytes(t: Trie): number {
  return t.childStart.buffer.byteLength + t.frontierNodes.byteLength;
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

// Working arrays of the build, shared by all builds (never re-entered) and grown
// as needed: a matcher keeps only its Trie's arrays, views of one buffer.
// (Many small typed arrays cost more to allocate than to fill.)
type Work = ReturnType<typeof newWork>;
let work = newWork(256);
const byOctet = new Int32Array(257);

function newWork(n: number) {
  return {
    n,
    parent: new Int32Array(n),
    token: new Uint16Array(n),
    term: new Int32Array(n),
    edges: new Int32Array(n * 2),
    order: new Int32Array(n),
    childStart: new Int32Array(n + 1),
    childNode: new Int32Array(n),
    starChild: new Int32Array(n),
    inOctetOrder: new Int32Array(n),
    pool: new Int32Array(n),
    path: new Int32Array(n + 1),
  };
}

const EMPTY = new Int32Array(0);

/** Work slots kept between builds: a large file's working arrays (46 octets a
 * slot, two slots a token: 90 MB for the corpus's largest file) are dropped
 * after its build, not held by the process for good. */
const KEPT_WORK = 1 << 15;

/** The trie of a rule table. */
export function buildTrie(table: RuleTable): Trie {
  const { tok, posRule, count } = table;
  const disallows = ruleKinds(table);
  const cap = tok.length - count + 1; // every token but the terminals, and the root
  let slots = 16;
  while (slots < cap * 2) slots *= 2;
  if (work.n < slots / 2) work = newWork(slots / 2);
  const w = work;

  // The rules inserted in file order, edges found through an open-addressing
  // hash of (parent, token): nodes in creation order. Neighbouring rules often
  // share a prefix: while a rule follows the one before (path), no hash is needed.
  const { parent, token, term, edges, path } = w;
  const mask = slots - 1;
  edges.fill(0, 0, slots); // child id; 0 is empty (the root is no one's child)
  const terms: number[] = [];
  parent[0] = -1;
  token[0] = 0;
  term[0] = -1;
  let size = 1;
  let stars = 0;
  let q = 0;
  let depth = 0;
  let previous = 0; // the length of the rule before
  let same = true; // the rule so far is the rule before's prefix
  path[0] = 0;
  for (let p = 0; p < tok.length; p++) {
    const t = tok[p];
    if (t >= ACCEPT) {
      const r = posRule[p];
      if (term[q] < 0) {
        term[q] = terms.length >> 2;
        terms.push(NO_RULE, NO_RULE, NO_RULE, NO_RULE);
      }
      const at = term[q] * 4 + (t === ACCEPT ? T_STICKY_ALLOW : T_END_ALLOW) + disallows[r];
      if (r < terms[at]) terms[at] = r;
      q = 0; // the next rule starts at the root
      previous = depth;
      depth = 0;
      same = true;
      continue;
    }
    let c = same && depth < previous ? path[depth + 1] : 0;
    if (c === 0 || token[c] !== t) {
      same = false;
      let h = (Math.imul(q, 0x9e3779b1) ^ Math.imul(t + 1, 0x85ebca77)) & mask;
      c = edges[h];
      while (c !== 0 && (parent[c] !== q || token[c] !== t)) c = edges[(h = (h + 1) & mask)];
      if (c === 0) {
        c = edges[h] = size++;
        parent[c] = q;
        token[c] = t;
        term[c] = -1;
        if (t === STAR) stars++;
      }
    }
    path[++depth] = c;
    q = c;
  }
  const trie = stars === 0 ? plainTrie(w, size, terms) : numberedTrie(w, size, terms);
  if (work.n > KEPT_WORK) work = newWork(256); // (the next large file allocates its own again)
  return trie;
}

// What a trie without `*` nodes has for its star fields: shared, never written.
let minusOnes = new Int32Array(0);
let zeros = new Uint8Array(0);

/** What it takes to view a trie's buffer again (trieViews): its counts. */
export interface TrieShape {
  size: number;
  edgeCount: number;
  termCount: number;
  starry: boolean;
}

/** Octets of a trie's buffer (frontierNodes apart). */
function trieBufferBytes(s: TrieShape): number {
  const int32s = 2 * s.size + 1 + s.edgeCount + s.termCount + (s.starry ? 6 * s.size : 0);
  return 4 * int32s + s.edgeCount + (s.starry ? s.size : 0);
}

/**
 * The matcher's arrays, views of one buffer (frontierNodes comes later). A trie
 * without stars shares its star fields: many matchers stay in memory, and
 * every buffer is memory the garbage collector has to account for.
 */
function allocate(size: number, edgeCount: number, terms: ArrayLike<number>, starry: boolean): Trie {
  const shape = { size, edgeCount, termCount: terms.length, starry };
  const t = trieViews(new ArrayBuffer(trieBufferBytes(shape)), shape, EMPTY);
  t.terms.set(terms);
  return t;
}

/** A trie on a buffer laid out by allocate(). */
export function trieViews(buffer: ArrayBuffer, shape: TrieShape, frontierNodes: Int32Array): Trie {
  const { size, edgeCount, termCount, starry } = shape;
  let offset = 0;
  const i32 = (n: number) => new Int32Array(buffer, (offset += 4 * n) - 4 * n, n);
  const u8 = (n: number) => new Uint8Array(buffer, (offset += n) - n, n);
  const childStart = i32(size + 1);
  const childNode = i32(edgeCount);
  const term = i32(size);
  const terms = new Uint32Array(buffer, (offset += 4 * termCount) - 4 * termCount, termCount);
  if (!starry && minusOnes.length < size) {
    minusOnes = new Int32Array(Math.max(size, minusOnes.length * 2)).fill(-1);
    zeros = new Uint8Array(minusOnes.length);
  }
  return {
    size,
    starry,
    childStart,
    childNode,
    term,
    terms,
    subtreeEnd: starry ? i32(size) : minusOnes,
    starAbove: starry ? i32(size) : minusOnes,
    chainEnd: starry ? i32(size) : minusOnes,
    starChild: starry ? i32(size) : minusOnes,
    frontierAt: starry ? i32(size) : minusOnes,
    frontierLength: starry ? i32(size) : minusOnes,
    childTok: u8(edgeCount),
    isStar: starry ? u8(size) : zeros,
    frontierNodes,
  };
}

/** Without `*` nodes, nothing needs subtrees or frontiers: the nodes stay in creation order. */
function plainTrie(w: Work, size: number, terms: number[]): Trie {
  const t = allocate(size, size - 1, terms, false); // every node but the root is an octet child
  t.term.set(w.term.subarray(0, size));
  linkChildren(size, w.parent, w.token, t.childStart, t.childNode, t.childTok, w.starChild, w.inOctetOrder);
  return t;
}

/**
 * With `*` nodes: numbered depth first (children by token, `*` last), so that a
 * subtree is a range of ids. One walk writes the matcher's arrays in the new order.
 */
function numberedTrie(w: Work, size: number, terms: ArrayLike<number>): Trie {
  const { parent, token, term, order, childStart, childNode, starChild } = w;
  const edgeCount = linkChildren(size, parent, token, childStart, childNode, null, starChild, w.inOctetOrder);
  const nodes = w.path; // subtree sizes (a child is created after its parent)
  nodes.fill(1, 0, size);
  for (let v = size - 1; v > 0; v--) nodes[parent[v]] += nodes[v];

  const t = allocate(size, edgeCount, terms, true);
  const slotOf = w.inOctetOrder; // a node's place among its parent's octet children
  const stack = w.edges; // the hash is done with: its room serves as the stack
  let top = 0;
  let next = 0;
  let slots = 0;
  stack[top++] = 0;
  t.starAbove[0] = -1;
  while (top > 0) {
    const v = stack[--top];
    const x = next++;
    order[v] = x;
    if (v > 0) {
      const px = order[parent[v]];
      t.starAbove[x] = px > 0 && token[parent[v]] === STAR ? px : t.starAbove[px];
      if (token[v] === STAR) {
        t.isStar[x] = 1;
        t.starChild[px] = x;
      } else {
        t.childNode[slotOf[v]] = x;
        t.childTok[slotOf[v]] = token[v];
      }
    }
    t.term[x] = term[v];
    t.subtreeEnd[x] = x + nodes[v];
    t.starChild[x] = -1; // until its star child, if any, is reached
    const from = childStart[v];
    const to = childStart[v + 1];
    t.childStart[x] = slots;
    for (let i = from; i < to; i++) slotOf[childNode[i]] = slots + i - from;
    slots += to - from;
    if (starChild[v] >= 0) stack[top++] = starChild[v];
    for (let i = to - 1; i >= from; i--) stack[top++] = childNode[i];
  }
  t.childStart[size] = slots;
  computeFrontiers(t);
  return t;
}

/**
 * The children of every node: octet children in CSR form, sorted by octet (a
 * counting sort by parent of the nodes in octet order), and `*` children.
 * Returns the number of octet children.
 */
function linkChildren(
  size: number, parent: Int32Array, token: Uint16Array,
  childStart: Int32Array, childNode: Int32Array, childTok: Uint8Array | null, starChild: Int32Array, scratch: Int32Array,
): number {
  starChild.fill(-1, 0, size);
  childStart.fill(0, 0, size + 1);
  byOctet.fill(0);
  for (let c = 1; c < size; c++) {
    if (token[c] === STAR) {
      starChild[parent[c]] = c;
    } else {
      childStart[parent[c] + 1]++;
      byOctet[token[c] + 1]++;
    }
  }
  for (let i = 0; i < size; i++) childStart[i + 1] += childStart[i];
  for (let i = 0; i < 256; i++) byOctet[i + 1] += byOctet[i];
  const edgeCount = childStart[size];
  for (let c = 1; c < size; c++) if (token[c] !== STAR) scratch[byOctet[token[c]]++] = c;
  // childStart[p] is moved on to childStart[p + 1] as p's children are placed, then shifted back.
  for (let i = 0; i < edgeCount; i++) {
    const c = scratch[i];
    const at = childStart[parent[c]]++;
    if (childTok !== null) childTok[at] = token[c];
    childNode[at] = c;
  }
  for (let p = size; p > 0; p--) childStart[p] = childStart[p - 1];
  childStart[0] = 0;
  return edgeCount;
}

/**
 * frontier(q): the `*` nodes met first on the paths below q, when no rule ends
 * on the way (a rule ending there is reached only through q). Bottom-up (children
 * have larger ids); a chain shares its one list.
 */
function computeFrontiers(t: Trie): void {
  const { size, isStar, starChild, childStart, childNode, term, frontierAt, frontierLength, chainEnd } = t;
  let pool = work.pool;
  let used = 0;
  const reserve = (n: number) => {
    if (used + n > pool.length) {
      const bigger = new Int32Array(Math.max(pool.length * 2, used + n));
      bigger.set(pool.subarray(0, used));
      work.pool = pool = bigger;
    }
  };
  for (let q = size - 1; q >= 0; q--) {
    const from = childStart[q];
    const to = childStart[q + 1];
    const s = starChild[q];
    frontierAt[q] = -1;
    chainEnd[q] = q + 1;
    if (to - from + (s >= 0 ? 1 : 0) === 1) {
      const c = s >= 0 ? s : childNode[from];
      if (term[c] < 0) chainEnd[q] = chainEnd[c]; // (c is q + 1)
      if (isStar[c]) {
        reserve(1);
        frontierAt[q] = used;
        frontierLength[q] = 1;
        pool[used++] = c;
      } else if (term[c] < 0 && frontierAt[c] >= 0) {
        frontierAt[q] = frontierAt[c]; // a chain: the same list
        frontierLength[q] = frontierLength[c];
      }
    } else if (to > from) {
      // A star child counts itself; another child its frontier, if no rule ends at it.
      const start = used;
      let ok = true;
      for (let i = from; i <= to && ok; i++) {
        const c = i < to ? childNode[i] : s;
        if (c < 0) continue;
        const n = isStar[c] ? 1 : frontierLength[c];
        ok = (isStar[c] === 1 || (term[c] < 0 && frontierAt[c] >= 0)) && used - start + n <= MAX_FRONTIER;
        if (!ok) break;
        reserve(n);
        if (isStar[c]) pool[used] = c;
        else pool.copyWithin(used, frontierAt[c], frontierAt[c] + n);
        used += n;
      }
      if (ok) {
        frontierAt[q] = start;
        frontierLength[q] = used - start;
      } else {
        used = start;
      }
    }
  }
  t.frontierNodes = pool.slice(0, used);
}
