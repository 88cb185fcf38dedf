// The compiler: the rules that apply to a crawler, as the ranked pattern table
// the automaton is built from. Rule ids are ranks: sorted by priority (longest
// first), then by line (first wins), so the best match of a kind is the lowest id.
import type { Group, RuleKind } from './records.js';
import { escapePattern, googlePattern, indexHtmDirectory, Pattern, Profile, rfcPattern, STAR } from './pattern.js';

export interface CompiledRule {
  kind: RuleKind;
  line: number;
  /** The value as matched: Google-escaped octets (decoded to text only for explanations). */
  escaped: Uint8Array;
  pattern: Pattern;
}

export interface RuleTable {
  /** By rank: rules[id]. */
  rules: CompiledRule[];
  /** Byte -> class. Octets no pattern names share one class. */
  classMap: Uint8Array;
  /** Class -> a byte of it, or -1 for the class of unnamed octets. */
  classRep: Int16Array;
  nclasses: number;
}

export function compileRules(body: Uint8Array, groups: readonly Group[], profile: Profile): RuleTable {
  const rules: CompiledRule[] = [];
  const toPattern = profile === 'google' ? googlePattern : rfcPattern;
  for (const g of groups) {
    for (const r of g.rules) {
      const escaped = escapePattern(body.subarray(r.start, r.end));
      rules.push({ kind: r.kind, line: r.line, escaped, pattern: toPattern(escaped) });
      if (profile === 'google' && r.kind === 'allow') {
        const dir = indexHtmDirectory(escaped);
        if (dir) rules.push({ kind: 'allow', line: r.line, escaped, pattern: googlePattern(dir) });
      }
    }
  }
  // Rank: the longest pattern first; on equal length, the first line (sort is stable).
  rules.sort((a, b) => b.pattern.priority - a.pattern.priority || a.line - b.line);

  const used = new Uint8Array(256);
  for (const r of rules) for (const t of r.pattern.tokens) if (t !== STAR) used[t] = 1;
  const classMap = new Uint8Array(256);
  const reps: number[] = [];
  for (let b = 0; b < 256; b++) {
    if (used[b]) {
      classMap[b] = reps.length;
      reps.push(b);
    }
  }
  if (reps.length < 256) {
    const other = reps.length;
    for (let b = 0; b < 256; b++) if (!used[b]) classMap[b] = other;
    reps.push(-1);
  }
  return { rules, classMap, classRep: Int16Array.from(reps), nclasses: reps.length };
}
