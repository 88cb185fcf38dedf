// --as-of DATE: the robots.txt as it was then (the captures at or before it, under the cache's policy: bulk/sources/warc/capture-choice.ts).
import { CliError } from './errors.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The moment, ms since 1970: an ISO 8601 date (2024-03-01: the end of that day,
 * UTC, so its captures count) or date-time (2024-03-01T12:00:00Z; without a zone,
 * UTC). A date that does not exist (2024-02-30) is refused, not moved to the next month.
 */
export function parseAsOf(value: string): number {
  const m = ISO.exec(value.trim());
  const bad = () => new CliError(`--as-of must be an ISO 8601 date (2024-03-01) or date-time (2024-03-01T12:00:00Z), got "${value}"`);
  if (m === null) throw bad();
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1, 7).map((x) => (x === undefined ? undefined : Number(x))) as number[];
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate(); // (days in month mo)
  if (mo < 1 || mo > 12 || d < 1 || d > days || h > 23 || mi > 59 || s > 59) throw bad();
  if (m[4] === undefined) return Date.UTC(y, mo - 1, d + 1) - 1;
  const ms = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  let at = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const zone = m[8];
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
    if (Number(z[2]) > 23 || Number(z[3]) > 59) throw bad();
    at -= (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3])) * 60_000;
  }
  return at;
}
