// What the crawler may do with a URL's content, purpose by purpose (search,
// train-ai, ai-use), as the page shows it: the panel of the URL picked (each
// purpose, the lines that decide it, the lines read that decide nothing), a
// row's tag, and the counts over the list. The answers are the library's
// (RobotsTxt.usage; the worker sends the list's as codes, protocol.ts): the
// rules are in docs/library.md#use-preferences.
import { type Preference, type Purpose, type Usage, type UsageSignal, PURPOSES } from '../src/index.js';
import { PREFERENCE_OF } from './protocol.js';

const FIELD: Record<UsageSignal['field'], string> = { 'content-usage': 'Content-Usage', 'content-signal': 'Content-Signal', 'control-token': 'control token' };

/** Why a URL the crawler may not fetch has no purpose (draft-ietf-aipref-attach-05, Content-Usage rules). */
export const NO_PURPOSE_WHEN_DISALLOWED = 'robots.txt implies no purpose for a URL this crawler may not fetch: "no preferences are implied for resources that are disallowed" (draft-ietf-aipref-attach-05). Every purpose is unknown.';

/** A signal as the panel names it: `line 4: Content-Signal ai-train=no` (with its rule's path). */
const signalText = (s: UsageSignal): string => `line ${s.line}: ${FIELD[s.field]} ${s.path === undefined ? '' : `${s.path} `}${s.value}`;

/** The lines that decide a purpose: those that say what it is (for disallowed, any that says it wins; allowed, every one that says it). */
function deciding(u: Usage, p: Purpose): UsageSignal[] {
  const value = u.purposes[p];
  return value === 'unknown' ? [] : u.signals.filter((s) => s.purpose === p && s.preference === value);
}

/** The robots.txt lines that decide any purpose of u, for the editor and the file's view to mark. */
export function usageLines(u: Usage): number[] {
  const lines = new Set<number>();
  for (const p of PURPOSES) for (const s of deciding(u, p)) if (s.line > 0) lines.add(s.line);
  return [...lines].sort((a, b) => a - b);
}

/** The panel: each purpose, what it is and which lines say so; then what was read and counts for nothing. */
export function purposesPanel(u: Usage): HTMLElement {
  const div = document.createElement('div');
  div.className = 'purposes';
  if (!u.allowed) div.append(Object.assign(document.createElement('p'), { className: 'muted no-purpose', textContent: NO_PURPOSE_WHEN_DISALLOWED }));
  const ul = document.createElement('ul');
  for (const p of PURPOSES) {
    const value = u.purposes[p];
    const li = document.createElement('li');
    li.dataset.purpose = p;
    li.dataset.preference = value;
    const lines = deciding(u, p);
    li.dataset.lines = lines.map((s) => s.line).join(' ');
    li.append(Object.assign(document.createElement('span'), { className: 'purpose', textContent: p }), ' ', Object.assign(document.createElement('strong'), { className: `v ${value}`, textContent: value }));
    if (lines.length > 0) li.append(`: ${lines.map(signalText).join('; ')}`);
    // Lines that said otherwise, overruled: any disallowed wins over allowed.
    const overruled = u.signals.filter((s) => s.purpose === p && s.preference !== value && s.line > 0);
    if (overruled.length > 0) li.append(` (overrules ${overruled.map(signalText).join('; ')}: any disallowed wins)`);
    ul.append(li);
  }
  div.append(ul);
  const idle = u.signals.filter((s) => s.purpose === undefined && s.line > 0);
  if (idle.length > 0) {
    const notes = document.createElement('ul');
    notes.className = 'idle';
    for (const s of idle) {
      const why = s.invalid ? 'not an RFC 9651 Dictionary (a key with a capital letter, a stray comma…): the rule says nothing' : s.legacy ? 'a label of an earlier AIPREF draft, mapped to no purpose' : 'maps to no purpose';
      notes.append(Object.assign(document.createElement('li'), { textContent: `${signalText(s)}: ${why}` }));
    }
    div.append(notes);
  }
  return div;
}

/** A row's tag: the purposes known for its URL (`search allowed, train-ai disallowed`), '' when none is. */
export function purposesTag(codes: Uint8Array, i: number): string {
  const known: string[] = [];
  for (let k = 0; k < PURPOSES.length; k++) {
    const value = PREFERENCE_OF[codes[i * PURPOSES.length + k]];
    if (value !== 'unknown') known.push(`${PURPOSES[k]} ${value}`);
  }
  return known.join(', ');
}

/** A row's attributes for URL i of codes: ` data-search="allowed" data-train-ai="disallowed" data-ai-use="unknown"`. */
export function purposesAttributes(codes: Uint8Array, i: number): string {
  let html = '';
  for (let k = 0; k < PURPOSES.length; k++) html += ` data-${PURPOSES[k]}="${PREFERENCE_OF[codes[i * PURPOSES.length + k]]}"`;
  return html;
}

/** Counts per purpose and preference over the URLs received. */
export type PurposeCounts = Record<Purpose, Record<Preference, number>>;

export const noCounts = (): PurposeCounts => ({
  search: { allowed: 0, disallowed: 0, unknown: 0 },
  'train-ai': { allowed: 0, disallowed: 0, unknown: 0 },
  'ai-use': { allowed: 0, disallowed: 0, unknown: 0 },
});

/** Adds n URLs' codes (from codes[0]) to the counts. */
export function countPurposes(counts: PurposeCounts, codes: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) for (let k = 0; k < PURPOSES.length; k++) counts[PURPOSES[k]][PREFERENCE_OF[codes[i * PURPOSES.length + k]]]++;
}

/** The list's counts in a sentence: `search: 3 allowed, 2 unknown; train-ai: …`. */
export function countsText(counts: PurposeCounts): string {
  const fmt = (n: number) => n.toLocaleString('en');
  return PURPOSES.map((p) => `${p}: ${(['allowed', 'disallowed', 'unknown'] as const).filter((v) => counts[p][v] > 0).map((v) => `${fmt(counts[p][v])} ${v}`).join(', ')}`).join('; ');
}
