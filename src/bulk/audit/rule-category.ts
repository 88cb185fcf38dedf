// A crawler's category on a site, decided on its rules, exactly: `none` (no
// path disallowed), `all` (every path disallowed, `/robots.txt` aside) or
// `part`. Sample URLs cannot tell these apart (`Disallow: /*a$` leaves `/`
// allowed and disallows paths no sample may hold), so the question is asked of
// the rules as an automaton.
//
// Why it is exact. A path's verdict is a function of the rules that match it
// (the longest allow against the longest disallow: reference.ts). Each rule is
// a glob over octets (literals and `*`, a final `$`), so the tuple (where each
// rule's match stands, the longest allow and disallow already matched by an
// unanchored rule, whether the path so far spells "/robots.txt", and the state
// of the automaton that says which octet strings are paths under the profile)
// is a finite state, and the verdict at the end of a path is a function of it.
// Walking every state reachable from "/" (subset construction) therefore sees
// the verdict of every possible path: `all` iff no reachable end state allows,
// `none` iff none disallows. Octets that no rule, the path automaton nor
// "/robots.txt" tell apart move every component alike, so one octet of each
// such class is walked. Rules that can no longer decide (one of the same kind
// and no lower priority already matched) are dropped from the state; the walk
// stops as soon as both an allowed and a disallowed path are seen.
//
// Paths under the profiles (what reference.ts comparedPath can return):
// google: '/' then any octets but NUL (the path ends there) and '#' (the
// fragment); rfc: normalised (RFC 3986: %XX upper-case and only for an octet
// that is not unreserved, raw only what needs no escape) with no "." or ".."
// segment before the query (dot segments are removed).
import { escapePattern, googlePattern, indexHtmDirectory, rfcPattern, STAR, type Pattern } from '../../engine/parse/pattern.js';
import { traitsOf, type Profile } from '../../engine/parse/profile.js';
import { escapesRaw, hexValue, isUnreserved } from '../../engine/parse/octets.js';
import type { Group } from '../../engine/parse/records.js';

export type Category = 'all' | 'none' | 'part';

export interface CategoryAnswer {
  category: Category;
  /** False only when the walk met its bound of states (hostile files): the category is then what the states walked showed. */
  exact: boolean;
  /** A path the crawler may fetch and one it may not, when there is one (the shortest the walk met): each proves its half of the answer. */
  allowedPath?: Uint8Array;
  disallowedPath?: Uint8Array;
}

/** One Allow/Disallow rule as the profile compares it. */
interface Rule {
  tokens: Uint16Array;
  anchored: boolean;
  priority: number;
  allow: boolean;
}

/** States walked before giving up exactness: far above a real file's (a few hundred), bounded for hostile ones. */
export const MAX_STATES = 20_000;

/** Octets in the order a class's representative is chosen: printable ASCII, then the rest. */
const PREFERRED_ORDER = [...Array.from({ length: 94 }, (_, i) => 0x21 + i), ...Array.from({ length: 256 }, (_, i) => i).filter((c) => c < 0x21 || c > 0x7e)];
const ROBOTS_TXT = Array.from('/robots.txt', (c) => c.charCodeAt(0));
const REJECT = -1;

/** The rules of the groups, as the engine compares them (Google's index.htm rule as an allow of its own). */
export function rulesOf(body: Uint8Array, groups: readonly Group[], profile: Profile): Rule[] {
  const traits = traitsOf(profile);
  const rules: Rule[] = [];
  const add = (p: Pattern, allow: boolean) => rules.push({ tokens: p.tokens, anchored: p.anchored, priority: p.priority, allow });
  for (const g of groups) {
    for (const r of g.rules) {
      const escaped = escapePattern(body.subarray(r.start, r.end));
      const allow = r.kind === 'allow';
      add(traits.normalises ? rfcPattern(escaped) : googlePattern(escaped), allow);
      if (allow && traits.indexHtmAllowsDirectory) {
        const dir = indexHtmDirectory(escaped);
        if (dir !== null) add(googlePattern(dir), true);
      }
    }
  }
  return rules;
}

/** The category of the rules (one crawler's groups) under the profile. */
export function categoryOfRules(rules: readonly Rule[], profile: Profile): CategoryAnswer {
  // A disallow decides only when longer than 0 (an empty Disallow allows): none can, nothing is disallowed.
  if (!rules.some((r) => !r.allow && r.priority > 0)) return { category: 'none', exact: true };
  return new Walk(rules, traitsOf(profile).normalises).run();
}

/** The walk over the product automaton (see the header). */
class Walk {
  private readonly classes: number[];
  private readonly seen = new Map<string, true>();
  private readonly queue: State[] = [];
  /** Per state of the queue: the state it was reached from and by which octet (to spell a witness path). */
  private readonly from: number[] = [];
  private readonly by: number[] = [];
  private allowedPath: Uint8Array | undefined;
  private disallowedPath: Uint8Array | undefined;

  constructor(private readonly rules: readonly Rule[], private readonly rfc: boolean) {
    this.classes = octetClasses(rules, rfc);
  }

  run(): CategoryAnswer {
    // Every path starts with '/'.
    const all: number[] = this.rules.map((_, i) => i * POSITIONS);
    const first = this.closure({ path: this.rfc ? RFC_SEGMENT_START : 0, robots: 0, bestAllow: -1, bestDisallow: -1, active: all });
    // Most files allow one of their rules' own paths and disallow another: tried first, a walk is then not needed.
    for (const path of this.candidates()) {
      if (this.allowedPath !== undefined && this.disallowedPath !== undefined) break;
      let state: State | null = first;
      for (let k = 0; k < path.length && state !== null; k++) state = this.step(state, path[k]);
      const verdict = state === null ? undefined : this.verdictAt(state);
      if (verdict === true) this.allowedPath ??= path;
      else if (verdict === false) this.disallowedPath ??= path;
    }
    const start = this.step(first, 0x2f);
    if (start !== null) this.visit(start, -1, 0x2f);
    let exact = true;
    for (let i = 0; i < this.queue.length; i++) {
      if (this.allowedPath !== undefined && this.disallowedPath !== undefined) break;
      if (this.seen.size >= MAX_STATES) {
        exact = false;
        break;
      }
      const s = this.queue[i];
      if (this.settled(s) && pathMayEnd(s.path, this.rfc) && s.robots !== ROBOTS_TXT.length) continue;
      for (const c of this.classes) {
        const next = this.step(s, c);
        if (next !== null) this.visit(next, i, c);
      }
    }
    const allowed = this.allowedPath !== undefined;
    const disallowed = this.disallowedPath !== undefined;
    const category: Category = allowed && disallowed ? 'part' : disallowed ? 'all' : 'none';
    const answer: CategoryAnswer = { category, exact: exact || category === 'part' };
    if (allowed) answer.allowedPath = this.allowedPath;
    if (disallowed) answer.disallowedPath = this.disallowedPath;
    return answer;
  }

  /** Paths worth trying first: `/`, and each rule's literal octets (its stars matching nothing), alone and with one more octet. */
  private *candidates(): Generator<Uint8Array> {
    yield Uint8Array.of(0x2f);
    // An octet no rule names (the most common next octet of a real path).
    const named = new Set<number>(ROBOTS_TXT);
    for (const r of this.rules) for (const t of r.tokens) named.add(t);
    const other = PREFERRED_ORDER.find((c) => isUnreserved(c) && !named.has(c)) ?? 0x7e;
    for (const r of this.rules) {
      const literal = r.tokens.filter((t) => t !== STAR);
      if (literal[0] !== 0x2f) continue;
      yield Uint8Array.from(literal);
      yield Uint8Array.from([...literal, other]);
    }
  }

  /** The verdict of a path that ends in the state: true allowed, false disallowed; undefined when no path
   * may end there or it is /robots.txt (set aside). */
  private verdictAt(s: State): boolean | undefined {
    if (!pathMayEnd(s.path, this.rfc) || s.robots === ROBOTS_TXT.length) return undefined;
    let allow = s.bestAllow;
    let disallow = s.bestDisallow;
    for (const a of s.active) {
      const r = this.rules[Math.floor(a / POSITIONS)];
      if (a % POSITIONS !== r.tokens.length) continue; // (only an anchored rule waits at its end)
      if (r.allow) allow = Math.max(allow, r.priority);
      else disallow = Math.max(disallow, r.priority);
    }
    return !(disallow > Math.max(allow, 0));
  }

  private pathTo(at: number): Uint8Array {
    const octets: number[] = [];
    for (let i = at; i >= 0; i = this.from[i]) octets.push(this.by[i]);
    return Uint8Array.from(octets.reverse());
  }

  private visit(s: State, from: number, by: number): void {
    const key = `${s.path},${s.robots},${s.bestAllow},${s.bestDisallow}:${s.active.join(',')}`;
    if (this.seen.has(key)) return;
    this.seen.set(key, true);
    const at = this.queue.length;
    this.queue.push(s);
    this.from.push(from);
    this.by.push(by);
    // The verdict if the path ended here.
    const verdict = this.verdictAt(s);
    if (verdict === true) this.allowedPath ??= this.pathTo(at);
    else if (verdict === false) this.disallowedPath ??= this.pathTo(at);
  }

  /**
   * Whether every path through the state has one verdict, found here: no rule of
   * one kind can still match, and the best matches already decide for the other
   * (its best can only grow). Such a state, when a path may end in it, is a witness
   * for all its extensions: it is not walked further.
   */
  private settled(s: State): boolean {
    let allows = false;
    let disallows = false;
    for (const a of s.active) {
      if (this.rules[Math.floor(a / POSITIONS)].allow) allows = true;
      else disallows = true;
    }
    const disallowed = s.bestDisallow > Math.max(s.bestAllow, 0);
    return (!allows && disallowed) || (!disallows && !disallowed);
  }

  /** The state with its positions closed over `*` (a star matches nothing too): an unanchored rule at its
   * end becomes its kind's best match; rules that can no longer change their kind's best are dropped. */
  private closure(s: State): State {
    const open: number[] = [];
    for (let k = 0; k < s.active.length; k++) {
      const a = s.active[k];
      const i = Math.floor(a / POSITIONS);
      const p = a % POSITIONS;
      const r = this.rules[i];
      if (r.priority <= (r.allow ? s.bestAllow : s.bestDisallow)) continue;
      if (p === r.tokens.length && !r.anchored) {
        if (r.allow) s.bestAllow = r.priority;
        else s.bestDisallow = r.priority;
        continue;
      }
      open.push(a);
      // (simplify() leaves no STAR runs, and no STAR last.)
      if (p < r.tokens.length && r.tokens[p] === STAR) s.active.push(a + 1);
    }
    // A best raised late may drop positions kept before it.
    const kept = open.filter((a) => {
      const r = this.rules[Math.floor(a / POSITIONS)];
      return r.priority > (r.allow ? s.bestAllow : s.bestDisallow);
    });
    kept.sort((x, y) => x - y);
    s.active = kept.filter((a, k) => k === 0 || kept[k - 1] !== a);
    return s;
  }

  /** The state after octet c, or null when no path goes on with c. */
  private step(s: State, c: number): State | null {
    const path = this.rfc ? rfcStep(s.path, c) : googleStep(c);
    if (path === REJECT) return null;
    const robots = s.robots >= 0 && s.robots < ROBOTS_TXT.length && ROBOTS_TXT[s.robots] === c ? s.robots + 1 : -1;
    const active: number[] = [];
    for (const a of s.active) {
      const r = this.rules[Math.floor(a / POSITIONS)];
      const p = a % POSITIONS;
      if (p >= r.tokens.length) continue;
      const t = r.tokens[p];
      if (t === STAR) active.push(a);
      else if (t === c) active.push(a + 1);
    }
    return this.closure({ path, robots, bestAllow: s.bestAllow, bestDisallow: s.bestDisallow, active });
  }
}

/** A rule's position is encoded as rule * POSITIONS + position (a pattern is far shorter than this). */
const POSITIONS = 2 ** 26;

interface State {
  /** The path automaton's state (google: always 0). */
  path: number;
  /** Octets of "/robots.txt" the path spells so far; -1 once it differs. */
  robots: number;
  /** Priorities of the longest unanchored allow and disallow matched so far (-1: none). */
  bestAllow: number;
  bestDisallow: number;
  /** Where the rules that can still decide stand (rule * POSITIONS + position), sorted. */
  active: number[];
}

/** One octet of each class that the rules, the path automaton and "/robots.txt" tell apart. */
function octetClasses(rules: readonly Rule[], rfc: boolean): number[] {
  const own = new Set<number>(ROBOTS_TXT);
  for (const r of rules) for (const t of r.tokens) if (t !== STAR) own.add(t);
  // The octets the path automaton reads apart.
  for (const c of '/?.%#') own.add(c.charCodeAt(0));
  own.add(0);
  if (rfc) for (const c of '0123456789ABCDEF') own.add(c.charCodeAt(0));
  const chosen: number[] = [];
  const byKind = new Map<number, number>();
  // Printable ASCII first: a class's octet is also what witness paths are spelt with.
  for (const c of PREFERRED_ORDER) {
    if (own.has(c)) {
      chosen.push(c);
      continue;
    }
    // Any other octet: the path automaton sees it by kind (rfc: raw or escaped; google: one kind).
    const kind = rfc ? (escapesRaw(c) ? 1 : 0) : 0;
    if (!byKind.has(kind)) byKind.set(kind, c);
  }
  return [...chosen, ...byKind.values()];
}

/** google: any octet but NUL (where the compared path ends) and '#' (the fragment). */
function googleStep(c: number): number {
  return c === 0 || c === 0x23 ? REJECT : 0;
}

// The rfc path automaton: in the path (a segment's start, ".", "..", any
// other), in the query, or within an escape (after '%', after its first hex
// digit h: 16 states each, in the path or the query).
const RFC_SEGMENT_START = 0;
const RFC_DOT = 1;
const RFC_DOT_DOT = 2;
const RFC_SEGMENT = 3;
const RFC_QUERY = 4;
const RFC_PERCENT_PATH = 5;
const RFC_PERCENT_QUERY = 6;
const RFC_HEX_PATH = 7; // + h
const RFC_HEX_QUERY = 23; // + h

function pathMayEnd(state: number, rfc: boolean): boolean {
  return !rfc || state === RFC_SEGMENT_START || state === RFC_SEGMENT || state === RFC_QUERY;
}

/** Upper-case hex digit value, or -1 (a normalised escape is upper-case). */
function upperHex(c: number): number {
  return c >= 0x61 ? -1 : hexValue(c);
}

function rfcStep(state: number, c: number): number {
  if (state === RFC_PERCENT_PATH || state === RFC_PERCENT_QUERY) {
    const h = upperHex(c);
    return h < 0 ? REJECT : (state === RFC_PERCENT_PATH ? RFC_HEX_PATH : RFC_HEX_QUERY) + h;
  }
  if (state >= RFC_HEX_PATH) {
    const inPath = state < RFC_HEX_QUERY;
    const h = upperHex(c);
    // An escape of an unreserved octet is that octet, raw.
    if (h < 0 || isUnreserved(((state - (inPath ? RFC_HEX_PATH : RFC_HEX_QUERY)) << 4) | h)) return REJECT;
    return inPath ? RFC_SEGMENT : RFC_QUERY;
  }
  // A '%' stands only as an escape's; '#' ends the URL's path; other octets that need escaping are escaped.
  const raw = c !== 0x25 && c !== 0x23 && !escapesRaw(c);
  if (state === RFC_QUERY) {
    if (c === 0x25) return RFC_PERCENT_QUERY;
    return raw ? RFC_QUERY : REJECT;
  }
  const dots = state === RFC_DOT || state === RFC_DOT_DOT;
  if (c === 0x2f) return dots ? REJECT : RFC_SEGMENT_START; // "/./", "/../" are removed
  if (c === 0x3f) return dots ? REJECT : RFC_QUERY;
  if (c === 0x2e) return state === RFC_SEGMENT_START ? RFC_DOT : state === RFC_DOT ? RFC_DOT_DOT : RFC_SEGMENT;
  if (c === 0x25) return RFC_PERCENT_PATH;
  return raw ? RFC_SEGMENT : REJECT;
}
