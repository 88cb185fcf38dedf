// A purpose's preference (vocabulary.ts's words) as the number the core
// writes and reads (layout.ts's PREFERENCE_*): one table each way, for bulk's
// purpose codes and the page's chunks, so that neither numbers the words itself.
import { PREFERENCE_ALLOWED, PREFERENCE_DISALLOWED, PREFERENCE_UNKNOWN } from '../wasm/layout.js';
import type { Preference } from './vocabulary.js';

/** A preference's number. */
export const PREFERENCE_CODE: Readonly<Record<Preference, number>> = {
  unknown: PREFERENCE_UNKNOWN,
  allowed: PREFERENCE_ALLOWED,
  disallowed: PREFERENCE_DISALLOWED,
};

/** The preference a number stands for (PREFERENCE_CODE read backwards). */
export const PREFERENCE_OF: readonly Preference[] = wordsByCode();

function wordsByCode(): Preference[] {
  const words: Preference[] = [];
  for (const p of Object.keys(PREFERENCE_CODE) as Preference[]) words[PREFERENCE_CODE[p]] = p;
  return words;
}
