// What a use-preference value says, purpose by purpose: an AIPREF Content-Usage
// preference (draft-ietf-aipref-vocab-07: an RFC 9651 Dictionary of `y`/`n`
// Tokens; draft-ietf-aipref-attach-05 puts it in robots.txt and in a response
// header) and a Content-Signal value (Cloudflare's Content Signals Policy:
// `search=yes, ai-train=no`). Each key of a value is one entry, reported
// whether or not it maps to a purpose.
import { parseDictionary } from './structured-field.js';

/** The purposes a use preference speaks to. */
export type Purpose = 'search' | 'train-ai' | 'ai-input';
export const PURPOSES: readonly Purpose[] = Object.freeze(['search', 'train-ai', 'ai-input']);

/** What is known of one purpose. */
export type Preference = 'allowed' | 'disallowed' | 'unknown';

/** The two ways of saying it: AIPREF's Content-Usage, Cloudflare's Content-Signal. */
export type UsageField = 'content-usage' | 'content-signal';

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

/** Labels of AIPREF drafts before -07 (and of its proposals), which -07 no longer defines. */
export const LEGACY_LABELS: ReadonlySet<string> = new Set(['ai', 'genai', 'tdm', 'train-genai', 'ai-use', 'inference', 'bots', 'ai-output', 'all']);

/** draft-ietf-aipref-vocab-07's labels. */
export const AIPREF_PURPOSES: ReadonlyMap<string, Purpose> = new Map<string, Purpose>([['search', 'search'], ['train-ai', 'train-ai']]);
/** The Content Signals Policy's signals (`ai-train` is AIPREF's `train-ai`). */
export const SIGNAL_PURPOSES: ReadonlyMap<string, Purpose> = new Map<string, Purpose>([['search', 'search'], ['ai-input', 'ai-input'], ['ai-train', 'train-ai']]);

/**
 * A Content-Usage preference (vocab-07 sections 6 and 7): a Dictionary whose
 * `search` and `train-ai` members with the Token `y` or `n` allow or disallow
 * that purpose; any other value (a Boolean, a String "n", a Token `maybe`)
 * leaves it unknown; a repeated key's last value stands; parameters and
 * unknown keys are ignored (reported). A value that is not a Dictionary (a key
 * with a capital letter, a trailing comma) says nothing: one `invalid` entry.
 */
export function readContentUsage(value: string): UsageEntry[] {
  const members = parseDictionary(value);
  if (members === null) return [{ value, invalid: true }];
  return members.map((m): UsageEntry => {
    const purpose = AIPREF_PURPOSES.get(m.key);
    if (purpose !== undefined && m.value.kind === 'token' && (m.value.token === 'y' || m.value.token === 'n')) {
      return { value: m.text, purpose, preference: m.value.token === 'y' ? 'allowed' : 'disallowed' };
    }
    return LEGACY_LABELS.has(m.key) ? { value: m.text, legacy: true } : { value: m.text };
  });
}

const OWS = /^[ \t]+|[ \t]+$/g;
/** ASCII-only lower case (toLowerCase() folds some non-ASCII letters into ASCII: U+212A KELVIN SIGN is "k"). */
const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/**
 * A Content-Signal value: comma-separated `key=value` signals; `search`,
 * `ai-input` and `ai-train` with `yes` or `no` allow or disallow that purpose.
 * Keys and values are compared case aside and trimmed of spaces and tabs (the
 * policy gives no grammar; robots.txt keys are read so). Anything else (another
 * key such as `use=reference`, another value, no `=`) is reported and maps to
 * nothing. Empty items (`a=yes,,b=no`) are skipped.
 */
export function readContentSignal(value: string): UsageEntry[] {
  const entries: UsageEntry[] = [];
  for (const item of value.split(',')) {
    const text = item.replace(OWS, '');
    if (text === '') continue;
    const eq = text.indexOf('=');
    const key = eq < 0 ? '' : asciiLower(text.slice(0, eq).replace(OWS, ''));
    const said = eq < 0 ? '' : asciiLower(text.slice(eq + 1).replace(OWS, ''));
    const purpose = SIGNAL_PURPOSES.get(key);
    if (purpose !== undefined && (said === 'yes' || said === 'no')) {
      entries.push({ value: text, purpose, preference: said === 'yes' ? 'allowed' : 'disallowed' });
    } else {
      entries.push({ value: text });
    }
  }
  return entries;
}

/** The entries of a value of the field. */
export function readUsageValue(field: UsageField, value: string): UsageEntry[] {
  return field === 'content-usage' ? readContentUsage(value) : readContentSignal(value);
}

/** Combines preferences (vocab-07 section 5.1): any disallowed wins, then any allowed, else unknown. */
export function combine(a: Preference, b: Preference): Preference {
  if (a === 'disallowed' || b === 'disallowed') return 'disallowed';
  if (a === 'allowed' || b === 'allowed') return 'allowed';
  return 'unknown';
}
