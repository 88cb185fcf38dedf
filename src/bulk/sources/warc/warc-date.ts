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

/**
 * The form nearly every WARC writer writes, `YYYY-MM-DDThh:mm:ssZ` (a year from 1000, a day up to 28, a time
 * within the day), read from its digits: the time Date.parse gives, without its regular expression and date
 * parser for each of robots index's records; -1 for anything else (read the long way). Written out, digit by
 * digit, the day counted here: a loop over the digits' offsets, a closure per pair and Date.UTC cost several times
 * as much.
 */
function secondsDate(t: string): number {
  if (t.length !== 20 || t.charCodeAt(4) !== 0x2d || t.charCodeAt(7) !== 0x2d || t.charCodeAt(10) !== 0x54 || t.charCodeAt(13) !== 0x3a || t.charCodeAt(16) !== 0x3a || t.charCodeAt(19) !== 0x5a) return -1;
  const century = digits2(t, 0);
  const yy = digits2(t, 2);
  const year = yy < 0 ? -1 : century * 100 + yy;
  const month = digits2(t, 5);
  const day = digits2(t, 8);
  const hour = digits2(t, 11);
  const minute = digits2(t, 14);
  const second = digits2(t, 17);
  // (A pair that is not two digits is -1: below every bound.)
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > 28 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return -1;
  return (daysSinceEpoch(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second) * 1_000;
}

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (year from 1000, month 1 to 12): Date.UTC's day,
 * counted in March-based years (the leap day last) as Howard Hinnant's days_from_civil counts them, without its call. */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The two digits at t[i], t[i + 1] as a number; -1 when either is not a digit. */
function digits2(t: string, i: number): number {
  const a = t.charCodeAt(i) - 0x30;
  const b = t.charCodeAt(i + 1) - 0x30;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}
