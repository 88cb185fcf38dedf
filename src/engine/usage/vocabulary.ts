// What a use-preference value says, purpose by purpose: an AIPREF Content-Usage
// preference (draft-ietf-aipref-vocab-08: an RFC 9651 Dictionary of `y`/`n`
// Tokens; draft-ietf-aipref-attach-05 puts it in robots.txt and in a response
// header) and a Content-Signal value (Cloudflare's Content Signals Policy:
// `search=yes, ai-train=no`). Each key of a value is one entry, reported
// whether or not it maps to a purpose. The purposes are AIPREF's labels;
// Content-Signal's `ai-train` is `train-ai` and its `ai-input` is `ai-use`.
import type { UsageField } from '../parse/records.js';
import { parseDictionary, type SfMember } from './structured-field.js';
import { asciiLower } from '../../text/ascii.js';
import type { Purpose } from './purposes.js';

export { PURPOSES, type Purpose } from './purposes.js';

/** What is known of one purpose. */
export type Preference = 'allowed' | 'disallowed' | 'unknown';

/** What is known of each purpose; `ai-input`, ai-use's name before vocab-08, is read as ai-use (deprecated, until 0.2). */
export type Purposes = Record<Purpose, Preference> & {
  /** @deprecated Renamed `ai-use` (AIPREF vocab-08's label); read-only, not enumerable; removed in 0.2. */
  readonly 'ai-input': Preference;
};

// The old name on the prototype, not enumerable: keys, JSON, printing and a
// worker's structured clone see the three purposes only, and a result costs
// no more to make than a plain object.
const PURPOSES_PROTOTYPE: object = Object.create(Object.prototype, {
  'ai-input': {
    get(this: Record<Purpose, Preference>) {
      return this['ai-use'];
    },
    enumerable: false,
  },
});

/** A Purposes record of the given preferences (the three own properties in PURPOSES' order). */
export function purposesOf(search: Preference, trainAi: Preference, aiUse: Preference): Purposes {
  const p = Object.create(PURPOSES_PROTOTYPE) as Record<Purpose, Preference>;
  p.search = search;
  p['train-ai'] = trainAi;
  p['ai-use'] = aiUse;
  return p as Purposes;
}

/** The two ways of saying it (the lines' field, as records.ts reads them). */
export type { UsageField };

/** One key of a value, and what it says. */
export interface UsageEntry {
  /** The key and its value as written (`train-ai=n`, `ai-train=no`, `use=reference`). */
  value: string;
  /** The purpose it maps to, when it maps to one with a `y`/`n` (`yes`/`no`) value. */
  purpose?: Purpose;
  preference?: 'allowed' | 'disallowed';
  /** A label of an earlier AIPREF draft: kept, mapped to nothing. */
  legacy?: true;
  /** The whole Content-Usage value is not a Dictionary: it says nothing. */
  invalid?: true;
}

/** Labels of earlier AIPREF drafts (and of its proposals), which -08 does not define (`ai-use`, gone in -07, is back). */
export const LEGACY_LABELS: ReadonlySet<string> = new Set(['ai', 'genai', 'tdm', 'train-genai', 'inference', 'bots', 'ai-output', 'all']);

/** draft-ietf-aipref-vocab-08's labels. */
export const AIPREF_PURPOSES: ReadonlyMap<string, Purpose> = new Map<string, Purpose>([['search', 'search'], ['train-ai', 'train-ai'], ['ai-use', 'ai-use']]);
/** The Content Signals Policy's signals (`ai-train` is AIPREF's `train-ai`, `ai-input` its `ai-use`). */
export const SIGNAL_PURPOSES: ReadonlyMap<string, Purpose> = new Map<string, Purpose>([['search', 'search'], ['ai-input', 'ai-use'], ['ai-train', 'train-ai']]);

/**
 * A Content-Usage preference (vocab-08, its serialization): a Dictionary whose
 * `search`, `train-ai` and `ai-use` members with the Token `y` or `n` allow or disallow
 * that purpose; any other value (a Boolean, a String "n", a Token `maybe`)
 * leaves it unknown; a repeated key's last value stands; parameters and
 * unknown keys are ignored (reported). A value that is not a Dictionary (a key
 * with a capital letter, a trailing comma) says nothing: one `invalid` entry.
 */
export function readContentUsage(value: string): UsageEntry[] {
  const members = parseDictionary(value);
  if (members === null) return [{ value, invalid: true }];
  return members.map(usageMemberEntry);
}

/** What one member of a Content-Usage Dictionary says (readContentUsage's rule; lint() reads it too). */
export function usageMemberEntry(m: SfMember): UsageEntry {
  const purpose = AIPREF_PURPOSES.get(m.key);
  if (purpose !== undefined && m.value.kind === 'token' && (m.value.token === 'y' || m.value.token === 'n')) {
    return { value: m.text, purpose, preference: m.value.token === 'y' ? 'allowed' : 'disallowed' };
  }
  return LEGACY_LABELS.has(m.key) ? { value: m.text, legacy: true } : { value: m.text };
}

const OWS = /^[ \t]+|[ \t]+$/g;

/** One item of a Content-Signal value, read as usage() and lint() both read it. */
export interface SignalItem {
  /** The item as written, trimmed of spaces and tabs. */
  text: string;
  /** Its key: before its first "=" (no "=": the whole item), trimmed, in ASCII lower case. */
  key: string;
  /** Its value: after its first "=", trimmed, in ASCII lower case ('' when no "="). */
  value: string;
  /** It has an "=": without one an item is no signal, whatever its key. */
  hasValue: boolean;
}

/** The items of a Content-Signal value (comma-separated; empty items, `a=yes,,b=no`, skipped). */
export function signalItems(value: string): SignalItem[] {
  const items: SignalItem[] = [];
  for (const item of value.split(',')) {
    const text = item.replace(OWS, '');
    if (text === '') continue;
    const eq = text.indexOf('=');
    if (eq < 0) items.push({ text, key: asciiLower(text), value: '', hasValue: false });
    else items.push({ text, key: asciiLower(text.slice(0, eq).replace(OWS, '')), value: asciiLower(text.slice(eq + 1).replace(OWS, '')), hasValue: true });
  }
  return items;
}

/**
 * A Content-Signal value: comma-separated `key=value` signals; `search`,
 * `ai-input` (ai-use) and `ai-train` (train-ai) with `yes` or `no` allow or disallow that purpose.
 * Keys and values are compared case aside and trimmed of spaces and tabs (the
 * policy gives no grammar; robots.txt keys are read so). Anything else (another
 * key such as `use=reference`, another value, no `=`) is reported and maps to
 * nothing. Empty items (`a=yes,,b=no`) are skipped.
 */
export function readContentSignal(value: string): UsageEntry[] {
  return signalItems(value).map(signalItemEntry);
}

/** What one item of a Content-Signal value says (readContentSignal's rule; lint() reads it too). */
export function signalItemEntry({ text, key, value, hasValue }: SignalItem): UsageEntry {
  const purpose = hasValue ? SIGNAL_PURPOSES.get(key) : undefined;
  return purpose !== undefined && (value === 'yes' || value === 'no') ? { value: text, purpose, preference: value === 'yes' ? 'allowed' : 'disallowed' } : { value: text };
}

/** The entries of a value of the field. */
export function readUsageValue(field: UsageField, value: string): UsageEntry[] {
  return field === 'content-usage' ? readContentUsage(value) : readContentSignal(value);
}

/** Combines preferences (vocab-08 section 5.1): any disallowed wins, then any allowed, else unknown. */
export function combine(a: Preference, b: Preference): Preference {
  if (a === 'disallowed' || b === 'disallowed') return 'disallowed';
  if (a === 'allowed' || b === 'allowed') return 'allowed';
  return 'unknown';
}
