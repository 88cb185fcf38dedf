// A capture's WARC-Date, read as WARC 1.1 writes it (section 5.4: W3C-ISO8601,
// `2024-01-01T00:00:00Z`, with any of that profile's precisions) and the
// extended years JavaScript dates hold (`+275760-09-13T00:00:00Z`). Date.parse
// alone reads far more (`-5` is May 2001, `1/1/2030` a local date): such a capture
// would be dated by accident, so anything else is undated (NaN).

const W3C_DATE = /^(?:\d{4}|[+-]\d{6})(?:-\d\d(?:-\d\d(?:T\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d))?)?)?$/;

/** The WARC-Date's time, ms since the epoch; NaN when it is absent or not a W3C-ISO8601 date that exists. */
export function warcDateOf(text: string | null | undefined): number {
  if (text === null || text === undefined) return NaN;
  const plain = secondsDate(text);
  if (plain >= 0) return plain;
  if (!W3C_DATE.test(text)) return NaN;
  return Date.parse(text);
}

/** Offsets of the digits of `YYYY-MM-DDThh:mm:ssZ`. */
const DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];

/**
 * The form nearly every WARC writer writes, `YYYY-MM-DDThh:mm:ssZ` (a year from 1000, a day up to 28, a time
 * within the day), read from its digits: the time Date.parse gives, without its regular expression and date
 * parser for each of robots index's records; -1 for anything else (read the long way).
 */
function secondsDate(t: string): number {
  if (t.length !== 20 || t.charCodeAt(4) !== 0x2d || t.charCodeAt(7) !== 0x2d || t.charCodeAt(10) !== 0x54 || t.charCodeAt(13) !== 0x3a || t.charCodeAt(16) !== 0x3a || t.charCodeAt(19) !== 0x5a) return -1;
  for (const i of DIGITS) {
    const c = t.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return -1;
  }
  const n = (i: number) => (t.charCodeAt(i) - 0x30) * 10 + t.charCodeAt(i + 1) - 0x30;
  const year = n(0) * 100 + n(2);
  const month = n(5);
  const day = n(8);
  const hour = n(11);
  const minute = n(14);
  const second = n(17);
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > 28 || hour > 23 || minute > 59 || second > 59) return -1;
  return Date.UTC(year, month - 1, day, hour, minute, second);
}
