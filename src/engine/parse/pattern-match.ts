// Whether a pattern (pattern.ts: literal octets, STARs, a final `$`) matches a
// path, in steps linear in the two: Google's Matches() keeps a set of positions
// per token, which a long run of literals after a `*` makes pattern × path
// (a 32 KB rule against a 32 KB URL: seconds per comparison). Its answer is
// the same (test/engine/pattern-match.test.ts holds it to that set of positions).
// For the reference matcher (reference.ts: explain's every matching rule) and the
// audit's witnesses (src/bulk/audit/path-verdict.ts).
import { STAR } from './pattern.js';

/** The steps (an octet of the path or of the pattern looked at) of the last globMatches: the audit counts its work by them. */
export const globMatchSteps = { last: 0 };

/**
 * Whether the pattern tokens[at, at + length) (literal octets and STARs) matches the path: a prefix of it (the
 * whole of it when anchored). Its literal start must begin the path; then each run of literals after a star is found at its leftmost place after the last one's (a later
 * place could only leave less of the path to the runs after it), and the last run, when anchored, must end the
 * path. Each run is found by a search that never looks back (segmentAt), so a comparison takes steps linear in the
 * pattern's and the path's octets: backtracking to the last star, or Google's set of positions (reference.ts before),
 * took up to their product.
 */
export function globMatches(tokens: Uint16Array, at: number, length: number, anchored: boolean, path: Uint8Array): boolean {
  const end = at + length;
  const n = path.length;
  let p = at;
  let s = 0;
  while (p < end && tokens[p] !== STAR) {
    if (s === n || tokens[p] !== path[s]) break;
    p++;
    s++;
  }
  let steps = s + 1;
  let matched: boolean;
  if (p === end) matched = !anchored || s === n;
  else if (tokens[p] !== STAR) matched = false;
  else {
    for (;;) {
      // A run of literals after the star at p.
      const from = ++p;
      while (p < end && tokens[p] !== STAR) p++;
      const run = p - from;
      if (p === end && anchored) {
        // The last run ends the path.
        matched = n - s >= run && equalAt(tokens, from, run, path, n - run);
        steps += run;
        break;
      }
      const place = segmentAt(tokens, from, run, path, s);
      steps += search.steps;
      if (place < 0 || p === end) {
        matched = place >= 0;
        break;
      }
      s = place + run;
    }
  }
  globMatchSteps.last = steps;
  return matched;
}

function equalAt(tokens: Uint16Array, from: number, length: number, path: Uint8Array, at: number): boolean {
  for (let k = 0; k < length; k++) if (tokens[from + k] !== path[at + k]) return false;
  return true;
}

/** The search's table (each prefix's longest proper border), reused, grown to the longest run met; and the steps
 * of its last search. */
const search = { borders: new Int32Array(256), steps: 0 };

/**
 * Where tokens[from, from + length) first occurs in path at or after s, or -1: Knuth–Morris–Pratt, which never
 * compares a path's octet again after a mismatch but shifts the run by its borders, so at most 2 × (run + path)
 * steps (a run of one octet `aaa…ab` in `aaa…a` took run × path by trying each place).
 */
function segmentAt(tokens: Uint16Array, from: number, length: number, path: Uint8Array, s: number): number {
  const n = path.length;
  if (length === 0) {
    search.steps = 1;
    return s;
  }
  if (n - s < length) {
    search.steps = 1;
    return -1;
  }
  if (search.borders.length < length) search.borders = new Int32Array(Math.max(length, 2 * search.borders.length));
  const borders = search.borders;
  let steps = length;
  borders[0] = 0;
  let k = 0;
  for (let q = 1; q < length; q++) {
    while (k > 0 && tokens[from + q] !== tokens[from + k]) {
      k = borders[k - 1];
      steps++;
    }
    if (tokens[from + q] === tokens[from + k]) k++;
    borders[q] = k;
  }
  k = 0;
  for (let i = s; i < n; i++) {
    steps++;
    while (k > 0 && path[i] !== tokens[from + k]) {
      k = borders[k - 1];
      steps++;
    }
    if (path[i] === tokens[from + k]) k++;
    if (k === length) {
      search.steps = steps;
      return i - length + 1;
    }
  }
  search.steps = steps;
  return -1;
}
