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
// Walking every state reachable from "/" (each rule at one position, RuleRuns
// below) therefore sees the verdict of every possible path: `all` iff no
// reachable end state allows,
// `none` iff none disallows. Octets that no rule, the path automaton nor
// "/robots.txt" tell apart move every component alike, so one octet of each
// such class is walked. Rules that can no longer decide (one of the same kind
// and no lower priority already matched) are dropped from the state; the walk
// stops as soon as both an allowed and a disallowed path are seen.
//
// Most rule lists need no walk: a path the rules allow proves "not all", one
// they disallow proves "not none", so both found among a few candidates (`/`,
// each rule's literal octets, and those with one more octet), each decided rule
// by rule (path-verdict.ts), prove `part`; a list no disallow can decide is
// `none`, and one an unanchored `Disallow: /` (or `*`) decides with no allow
// that could outweigh it is `all`. The walk is the proof of the rest: it runs
// only when a witness is missing. Paths are those of the profile (profile-paths.ts).
// The core decides most sets the same way (core-witnesses.ts: the witnesses over
// its tokens); this is the host's, for the sets it gives back.
import type { Profile } from '../../index.js';
import { STAR } from '../../engine/parse/pattern.js';
import { traitsOf } from '../../engine/parse/profile.js';
import { ESCAPES_RAW, isUnreserved } from '../../engine/parse/octets.js';
import { globSteps, pathVerdict, type Rule } from './path-verdict.js';
import { RuleIndex } from './rule-index.js';
import { googleStep, isProfilePath, pathMayEnd, REJECT, RFC_SEGMENT_START, rfcStep } from './profile-paths.js';

export { rulesOf, type Rule } from './path-verdict.js';

export type Category = 'all' | 'none' | 'part';

export interface CategoryAnswer {
  category: Category;
  /** False only when the walk met its bound of states (hostile files): the category is then what the states walked showed. */
  exact: boolean;
  /** A path the crawler may fetch and one it may not, when there is one (the first met: `/`, a rule's own path, or the walk's shortest): each proves its half of the answer. */
  allowedPath?: Uint8Array;
  disallowedPath?: Uint8Array;
}

/** States walked before giving up exactness: far above a real file's (a few hundred), bounded for hostile ones. */
export const MAX_STATES = 20_000;

/** Octets in the order a class's representative is chosen: printable ASCII, then the rest. */
const PREFERRED_ORDER = [...Array.from({ length: 94 }, (_, i) => 0x21 + i), ...Array.from({ length: 256 }, (_, i) => i).filter((c) => c < 0x21 || c > 0x7e)];
const ROBOTS_TXT = Array.from('/robots.txt', (c) => c.charCodeAt(0));

/** The category of the rules (one crawler's groups) under the profile; `rootAllowed`, when the caller has the
 * rules' verdict at `/` already (a set's verdict there is asked of every site), is not asked again. */
export function categoryOfRules(rules: readonly Rule[], profile: Profile, rootAllowed?: boolean): CategoryAnswer {
  // A disallow decides only when longer than 0 (an empty Disallow allows): none can, nothing is disallowed.
  let decides = false;
  let everywhere = false;
  let allows = false;
  for (const r of rules) {
    // (A rule that starts with an octet other than '/' matches no path: every path starts with '/'.)
    const first = r.tokens[r.at];
    if (r.length > 0 && first !== 0x2f && first !== STAR) continue;
    if (r.allow) allows ||= r.priority > 0;
    else if (r.priority > 0) {
      decides = true;
      // An unanchored rule of no octets or `/` alone matches every path.
      everywhere ||= !r.anchored && (r.length === 0 || (r.length === 1 && first === 0x2f));
    }
  }
  if (!decides) return { category: 'none', exact: true, allowedPath: ROOT };
  if (everywhere && !allows) return { category: 'all', exact: true, disallowedPath: ROOT };
  const rfc = traitsOf(profile).normalises;
  const found = witnesses(rules, rfc, rootAllowed);
  if (found.allowedPath !== undefined && found.disallowedPath !== undefined) return { category: 'part', exact: true, ...found };
  return new Walk(rules, rfc, found).run();
}

const ROOT = Uint8Array.of(0x2f);

/** Rules past which the witnesses' candidates are compared through a RuleIndex (below, every rule costs less than indexing
 * them), once the first few candidates have not found both (most lists are settled by `/` and their first rule). */
const INDEXED_RULES = 16;
const UNINDEXED_CANDIDATES = 4;

/** Witnesses among the candidates (see the header): the first allowed and the first disallowed path met. */
function witnesses(rules: readonly Rule[], rfc: boolean, rootAllowed: boolean | undefined): { allowedPath?: Uint8Array; disallowedPath?: Uint8Array } {
  const found: { allowedPath?: Uint8Array; disallowedPath?: Uint8Array } = {};
  let index: RuleIndex | undefined;
  let tried = 0;
  const tryPath = (path: Uint8Array): boolean => {
    if (!isProfilePath(path, rfc) || isRobotsTxt(path)) return false;
    if (index === undefined && ++tried > UNINDEXED_CANDIDATES && rules.length > INDEXED_RULES) index = new RuleIndex(rules);
    const allowed = path === ROOT && rootAllowed !== undefined ? rootAllowed : index !== undefined ? index.allowed(path) : pathVerdict(rules, path).allowed;
    if (allowed) found.allowedPath ??= path;
    else found.disallowedPath ??= path;
    return found.allowedPath !== undefined && found.disallowedPath !== undefined;
  };
  if (tryPath(ROOT)) return found;
  let other = -1;
  for (const r of rules) {
    const t = r.tokens;
    const from = r.at;
    const to = r.at + r.length;
    if (r.length === 0 || (t[from] !== 0x2f && t[from] !== STAR)) continue;
    // Its literal octets (each star matching nothing; after a leading star, from a '/'), then with one octet more.
    const slash = t[from] === STAR && (r.length < 2 || t[from + 1] !== 0x2f) ? 1 : 0;
    let n = slash;
    for (let k = from; k < to; k++) if (t[k] !== STAR) n++;
    const longer = new Uint8Array(n + 1);
    longer[0] = 0x2f;
    n = slash;
    for (let k = from; k < to; k++) if (t[k] !== STAR) longer[n++] = t[k];
    if (tryPath(longer.subarray(0, n))) return found;
    if (other < 0) other = unnamedOctet(rules);
    longer[n] = other;
    if (tryPath(longer)) return found;
  }
  return found;
}

/** unnamedOctet's table of the octets named, cleared at each use (asked of most sets: not made each time). */
const NAMED = new Uint8Array(256);

/** An unreserved octet no rule names (the most common next octet of a real path), printable first. */
function unnamedOctet(rules: readonly Rule[]): number {
  const named = NAMED.fill(0);
  for (const c of ROBOTS_TXT) named[c] = 1;
  for (const r of rules) {
    for (let k = r.at; k < r.at + r.length; k++) if (r.tokens[k] < 256) named[r.tokens[k]] = 1;
  }
  for (const c of PREFERRED_ORDER) if (named[c] === 0 && isUnreserved(c)) return c;
  return 0x7e;
}

function isRobotsTxt(path: Uint8Array): boolean {
  if (path.length !== ROBOTS_TXT.length) return false;
  for (let i = 0; i < path.length; i++) if (path[i] !== ROBOTS_TXT[i]) return false;
  return true;
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

  private readonly runs: RuleRuns;

  constructor(private readonly rules: readonly Rule[], private readonly rfc: boolean, found: { allowedPath?: Uint8Array; disallowedPath?: Uint8Array }) {
    this.classes = octetClasses(rules, rfc);
    this.runs = new RuleRuns(rules);
    this.allowedPath = found.allowedPath;
    this.disallowedPath = found.disallowedPath;
  }

  run(): CategoryAnswer {
    // Every path starts with '/'.
    const all: number[] = this.rules.map((_, i) => i * POSITIONS + this.runs.pastStars(i, 0));
    const first = this.closure({ path: this.rfc ? RFC_SEGMENT_START : 0, robots: 0, bestAllow: -1, bestDisallow: -1, active: all });
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

  /** The verdict of a path that ends in the state: true allowed, false disallowed; undefined when no path
   * may end there or it is /robots.txt (set aside). */
  private verdictAt(s: State): boolean | undefined {
    if (!pathMayEnd(s.path, this.rfc) || s.robots === ROBOTS_TXT.length) return undefined;
    let allow = s.bestAllow;
    let disallow = s.bestDisallow;
    for (const a of s.active) {
      const r = this.rules[Math.floor(a / POSITIONS)];
      if (a % POSITIONS !== r.length) continue; // (only an anchored rule waits at its end)
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

  /** The state with its rules' matches closed: an unanchored rule at its end becomes its kind's best match;
   * rules that can no longer change their kind's best are dropped. */
  private closure(s: State): State {
    const open: number[] = [];
    for (let k = 0; k < s.active.length; k++) {
      const a = s.active[k];
      const i = Math.floor(a / POSITIONS);
      const p = a % POSITIONS;
      const r = this.rules[i];
      if (r.priority <= (r.allow ? s.bestAllow : s.bestDisallow)) continue;
      if (p === r.length && !r.anchored) {
        if (r.allow) s.bestAllow = r.priority;
        else s.bestDisallow = r.priority;
        continue;
      }
      open.push(a);
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
    globSteps.count += s.active.length + 1;
    for (const a of s.active) {
      const i = Math.floor(a / POSITIONS);
      const p = this.runs.step(i, a % POSITIONS, c);
      if (p >= 0) active.push(i * POSITIONS + p);
    }
    return this.closure({ path, robots, bestAllow: s.bestAllow, bestDisallow: s.bestDisallow, active });
  }
}

/**
 * Each rule as a deterministic automaton, one position a path: its literal start octet by octet, then each run of
 * literals after a star searched for at its leftmost place (Knuth's automaton for the run: the position within the
 * run is the longest part of it the path ends with), the next run's search started once the run is found. This is
 * exact as ruleMatches is (path-verdict.ts). Where a rule stands is its token index, never on a star (past it: the
 * next run searched from its start). A set of positions per rule (a star's and each place of its run) grew with
 * the run's length in every state of the walk: states × run² (issue 41).
 */
class RuleRuns {
  /** Per rule its first entry in the tables (an entry per token and one for its end). */
  private readonly base: Int32Array;
  /** Per token index: the index its run of literals after a star starts at, or -1 in the rule's literal start. */
  private readonly runStart: Int32Array;
  /** Per token index in a run, where the run's search goes on when the octet there is not the path's: Knuth's
   * failure, which skips a border whose next octet is the same one (so at most log(run) fallbacks an octet),
   * relative to the run's start (-1: past the octet, from the run's start); at the run's end, its longest border. */
  private readonly fail: Int32Array;

  constructor(private readonly rules: readonly Rule[]) {
    this.base = new Int32Array(rules.length);
    let size = 0;
    for (let i = 0; i < rules.length; i++) {
      this.base[i] = size;
      size += rules[i].length + 1;
    }
    this.runStart = new Int32Array(size);
    this.fail = new Int32Array(size);
    for (let i = 0; i < rules.length; i++) this.tables(i);
  }

  private tables(i: number): void {
    const { tokens, at, length } = this.rules[i];
    const b = this.base[i];
    let start = -1;
    let p = 0;
    while (p <= length) {
      if (p < length && tokens[at + p] === STAR) {
        start = ++p;
        continue;
      }
      if (start < 0) {
        this.runStart[b + p++] = -1;
        continue;
      }
      // The run [start, end): Knuth's failures.
      let end = start;
      while (end < length && tokens[at + end] !== STAR) end++;
      const m = end - start;
      const t = at + start;
      const f = b + start;
      this.fail[f] = -1;
      let q = 0;
      let border = -1;
      while (q < m) {
        while (border >= 0 && tokens[t + q] !== tokens[t + border]) border = this.fail[f + border];
        q++;
        border++;
        this.fail[f + q] = q < m && tokens[t + q] === tokens[t + border] ? this.fail[f + border] : border;
      }
      for (let k = start; k <= end; k++) this.runStart[b + k] = start;
      // (Past the star that ends it, the next run's start; or past the rule's end.)
      start = end + 1;
      p = end + 1;
    }
  }

  /** Rule i's position p, past any star there (a star matches nothing too). */
  pastStars(i: number, p: number): number {
    const r = this.rules[i];
    while (p < r.length && r.tokens[r.at + p] === STAR) p++;
    return p;
  }

  /** Rule i's position after octet c from p, or -1 when it can no longer match. */
  step(i: number, p: number, c: number): number {
    const r = this.rules[i];
    const b = this.base[i];
    const start = this.runStart[b + p];
    if (start < 0) return p < r.length && r.tokens[r.at + p] === c ? this.pastStars(i, p + 1) : -1;
    let k = p - start;
    const t = r.at + start;
    // (At the end of the last run, only an anchored rule waits: the run goes on from its longest border.)
    if (p === r.length) k = this.fail[b + p];
    while (k >= 0 && r.tokens[t + k] !== c) {
      k = this.fail[b + start + k];
      globSteps.count++;
    }
    return this.pastStars(i, start + k + 1);
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
  for (const r of rules) {
    for (let k = r.at; k < r.at + r.length; k++) if (r.tokens[k] !== STAR) own.add(r.tokens[k]);
  }
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
    const kind = rfc ? ESCAPES_RAW[c] : 0;
    if (!byKind.has(kind)) byKind.set(kind, c);
  }
  return [...chosen, ...byKind.values()];
}
