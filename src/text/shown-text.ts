// A text as a message or a report shows it: cut to a length a line can hold,
// with "…" where it was cut (a hostile file's key or header can be 16 KiB or
// more), never inside a surrogate pair.

/** Characters shown of a longer text. */
export const SHOWN_LENGTH = 60;

/** text, or its first SHOWN_LENGTH characters and "…" (one fewer where the last would split a pair). */
export function shownText(text: string): string {
  if (text.length <= SHOWN_LENGTH) return text;
  const last = text.charCodeAt(SHOWN_LENGTH - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? SHOWN_LENGTH - 1 : SHOWN_LENGTH;
  return `${text.slice(0, end)}…`;
}
