// The compiler: the rules that apply to a crawler, as the ranked pattern table
// the automaton is built from. Rule ids are ranks: sorted by priority (longest
// first), then by line (first wins), so the best match of a kind is the lowest id.
import type { Group, RuleKind } from './records.js';
import { escapePattern, googlePattern, indexHtmDirectory, Pattern, Profile, rfcPattern, STAR } from './pattern.js';

export interface CompiledRule {
  kind: RuleKind;
  line: number;
  /** The pattern as matched (Google-escaped), as text. */
  text: string;
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

const utf8 = new TextDecoder();

export function compileRules(groups: readonly Group[], profile: Profile): RuleTable {
  const all: CompiledRule[] = [];
  const toPattern = profile === 'google' ? googlePattern : rfcPattern;
  for (const g of groups) {
    for (const r of g.rules) {
      const escaped = escapePattern(r.value);
      const text = utf8.decode(escaped);
      all.push({ kind: r.kind, line: r.line, text, pattern: toPattern(escaped) });
      if (profile === 'google' && r.kind === 'allow') {
        const dir = indexHtmDirectory(escaped);
        if (dir) all.push({ kind: 'allow', line: r.line, text, pattern: googlePattern(dir) });
      }
    }
  }
  // Stable: equal priorities keep file order.
  all.sort((a, b) => b.pattern.priority - a.pattern.priority || a.line - b.line);

  // The same pattern twice for one kind can never decide anything the first did not.
  const seen = new Set<string>();
  const rules = all.filter((r) => {
    const key = `${r.kind}${r.pattern.anchored ? '$' : ''}${r.pattern.priority}:${r.pattern.tokens.join(',')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });

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
