// lint()'s findings on use preferences (Content-Usage, draft-ietf-aipref-attach-05
// with draft-ietf-aipref-vocab-08; Content-Signal, Cloudflare's Content Signals
// Policy): what a crawler reads as saying nothing, or as something else than
// the webmaster wrote, and a preference that its own group's rules make moot.
import { applicableGroups } from '../parse/agents.js';
import type { Group, Records, UsageLine } from '../parse/records.js';
import { parseDictionary } from './structured-field.js';
import { asciiLower } from '../../text/ascii.js';
import { shownText } from '../../text/shown-text.js';
import { AIPREF_PURPOSES, LEGACY_LABELS, SIGNAL_PURPOSES, signalItemEntry, signalItems, usageMemberEntry, type Purpose } from './vocabulary.js';

export type UsageLintCode =
  | 'invalid-content-usage'
  | 'invalid-usage-value'
  | 'unknown-usage-key'
  | 'legacy-usage-label'
  | 'usage-outside-group'
  | 'usage-contradicts-rules';

/** Of these, the codes of lines a crawler ignores whole (lint's errors). */
export const USAGE_ERRORS: readonly UsageLintCode[] = ['invalid-content-usage', 'usage-outside-group'];

export interface UsageFinding {
  line: number;
  code: UsageLintCode;
  message: string;
}

const FIELD = { 'content-usage': 'Content-Usage', 'content-signal': 'Content-Signal' } as const;
/** A key or value in a message, quoted, cut as every shown text is (a hostile key is 16 KiB). */
const q = (s: string) => JSON.stringify(shownText(s));
/** A purpose in the other field's word (train-ai is Content-Signal's ai-train). */
const SIGNAL_WORD: Record<Purpose, string> = { search: 'search', 'train-ai': 'ai-train', 'ai-use': 'ai-input' };
/** The Content-Usage label of each Content-Signal key that names a purpose otherwise (ai-train is train-ai, ai-input is ai-use). */
const AIPREF_WORD: ReadonlyMap<string, string> = new Map([...SIGNAL_PURPOSES].filter(([key, p]) => key !== p).map(([key, p]) => [key, p]));

/** The findings on the file's use-preference lines, in no particular order. */
export function usageFindings(records: Records): UsageFinding[] {
  const found: UsageFinding[] = [];
  for (const u of records.outsideUsage) {
    found.push({ line: u.line, code: 'usage-outside-group', message: `${FIELD[u.field]} before any user-agent line counts for nothing: a use preference belongs to a group (put it after "User-agent: *" for every crawler)` });
  }
  for (const g of records.groups) {
    for (const u of g.usage) {
      if (u.field === 'content-usage') contentUsage(u, found);
      else contentSignal(u, found);
    }
  }
  contradictions(records, found);
  return found;
}

/** A Content-Usage rule's preference: an RFC 9651 Dictionary of vocab-08's labels, each `y` or `n`. */
function contentUsage(u: UsageLine, found: UsageFinding[]): void {
  const members = parseDictionary(u.value);
  if (members === null) {
    found.push({ line: u.line, code: 'invalid-content-usage', message: notADictionary(u) });
    return;
  }
  for (const m of members) {
    if (usageMemberEntry(m).purpose !== undefined) continue; // (a purpose's y or n: nothing to say)
    if (AIPREF_PURPOSES.has(m.key)) {
      const meant = m.value.kind === 'token' ? { yes: 'y', no: 'n' }[m.value.token.toLowerCase()] ?? '' : '';
      const fix = meant === '' ? '' : ` (write "${m.key}=${meant}")`;
      found.push({ line: u.line, code: 'invalid-usage-value', message: `${q(m.text)}: Content-Usage takes y or n${fix}; any other value leaves ${m.key} unknown` });
    } else if (LEGACY_LABELS.has(m.key)) {
      found.push({ line: u.line, code: 'legacy-usage-label', message: `${q(m.key)} is a label of an earlier AIPREF draft that draft-ietf-aipref-vocab-08 does not define: crawlers ignore it (its labels are search, train-ai and ai-use, e.g. "train-ai=n")` });
    } else {
      // A Content-Signal key: AIPREF's label for the same purpose.
      const label = AIPREF_WORD.get(m.key);
      const hint = label !== undefined
        ? `: ${m.key} is Content-Signal's key; AIPREF calls it ${label} ("${label}=n")`
        : ': it is a label of no AIPREF draft (draft-ietf-aipref-vocab-08\'s labels are search, train-ai and ai-use, e.g. "train-ai=n")';
      found.push({ line: u.line, code: 'unknown-usage-key', message: `Content-Usage key ${q(m.key)} means nothing to crawlers${hint}` });
    }
  }
}

/** Why a Content-Usage value is not a Dictionary, as near as can be told, and the fix where it is plain. */
function notADictionary(u: UsageLine): string {
  const v = u.value;
  const says = 'the whole line says nothing';
  if (parseDictionary(asciiLower(v)) !== null) {
    return `${q(v)}: Content-Usage keys are lower case (a capital letter fails the whole preference, RFC 9651): ${says} (write ${q(asciiLower(v))})`;
  }
  const space = v.search(/[ \t]/);
  if (u.path === '' && space > 0 && /[/*]/.test(v.slice(0, space)) && parseDictionary(v.slice(space).trimStart()) !== null) {
    return `${q(v)}: a path pattern starts with "/": ${says} (write ${q(`/${v.replace(/^\/?/, '')}`)})`;
  }
  if (/,[ \t]*$/.test(v)) return `${q(v)}: a trailing comma fails the whole preference (RFC 9651): ${says}`;
  return `${q(v)} is not a structured-field Dictionary (RFC 9651: "key=value" items separated by commas, e.g. "train-ai=n, search=y"): ${says}`;
}

/** A Content-Signal value: `key=value` signals, the policy's keys with yes or no. */
function contentSignal(u: UsageLine, found: UsageFinding[]): void {
  for (const item of signalItems(u.value)) {
    if (signalItemEntry(item).purpose !== undefined) continue; // (a signal's yes or no: nothing to say)
    const { text, key, value } = item;
    if (SIGNAL_PURPOSES.has(key)) {
      const meant = { y: 'yes', n: 'no' }[value] ?? '';
      const fix = meant === '' ? '' : ` (write "${key}=${meant}")`;
      found.push({ line: u.line, code: 'invalid-usage-value', message: `${q(text)}: Content-Signal takes yes or no${fix}; any other value leaves ${key} unknown` });
    } else if (LEGACY_LABELS.has(key)) {
      found.push({ line: u.line, code: 'legacy-usage-label', message: `${q(key)} is a label of an earlier AIPREF draft, not a Content-Signal: crawlers ignore it (the signals are search, ai-input and ai-train, e.g. "ai-train=no")` });
    } else {
      const purpose = AIPREF_PURPOSES.get(key);
      const word = purpose === undefined ? undefined : SIGNAL_WORD[purpose];
      const hint = word !== undefined && word !== key ? `: Content-Signal calls it ${word} ("${word}=no")` : ' (the signals are search, ai-input and ai-train)';
      found.push({ line: u.line, code: 'unknown-usage-key', message: `Content-Signal key ${q(key)} means nothing to crawlers${hint}` });
    }
  }
}

/**
 * A preference that allows a purpose (`ai-train=yes`, `train-ai=y`) in a group
 * whose rules disallow every path, for every crawler the group applies to (with
 * the groups it merges with): a crawler may fetch nothing there, and robots.txt
 * implies no preference for what it may not fetch (attach-05), so it never
 * applies. One finding per line.
 */
function contradictions(records: Records, found: UsageFinding[]): void {
  const body = records.body;
  const text = (start: number, end: number) => new TextDecoder().decode(body.subarray(start, end));
  // The line of a Disallow of every path in the groups, or 0 when something may be fetched.
  const closedBy = (groups: readonly Group[]): number => {
    let line = 0;
    for (const g of groups) {
      for (const r of g.rules) {
        const value = text(r.start, r.end);
        // An Allow that can match (a path, or a pattern from "*") opens something; one without "/" never matches.
        if (r.kind === 'allow' && (value[0] === '/' || value[0] === '*')) return 0;
        if (r.kind === 'disallow' && line === 0 && /^(?:\/\**|\/?\*+\$?)$/.test(value)) line = r.line;
      }
    }
    return line;
  };
  for (const g of records.groups) {
    const allowing = g.usage.filter((u) => allows(u));
    if (allowing.length === 0) continue;
    // Every crawler it applies to: those its lines name (with their other groups), and for "*" those no group names.
    let closed = 0;
    for (const a of g.agents) {
      const line = closedBy(applicableGroups(records.groups, a.global ? [] : [a.lower]));
      if (line === 0) {
        closed = 0;
        break;
      }
      closed ||= line;
    }
    if (closed === 0) continue;
    for (const u of allowing) {
      found.push({
        line: u.line,
        code: 'usage-contradicts-rules',
        message: `${FIELD[u.field]} allows ${allowedPurposes(u).join(' and ')}, but the rules disallow every path to the crawlers of this group (line ${closed}): they may fetch nothing, so it never applies (no preference holds for what may not be fetched)`,
      });
    }
  }
}

/** The purposes a line allows (a `y` of Content-Usage, a `yes` of Content-Signal). */
function allowedPurposes(u: UsageLine): string[] {
  const out: string[] = [];
  if (u.field === 'content-usage') {
    for (const m of parseDictionary(u.value) ?? []) {
      const e = usageMemberEntry(m);
      if (e.preference === 'allowed') out.push(e.purpose!);
    }
  } else {
    for (const item of signalItems(u.value)) {
      const e = signalItemEntry(item);
      if (e.preference === 'allowed') out.push(SIGNAL_WORD[e.purpose!]);
    }
  }
  return out;
}

const allows = (u: UsageLine) => allowedPurposes(u).length > 0;
