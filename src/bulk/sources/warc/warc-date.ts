// A capture's WARC-Date, read as WARC 1.1 writes it (section 5.4: W3C-ISO8601,
// `2024-01-01T00:00:00Z`, with any of that profile's precisions) and the
// extended years JavaScript dates hold (`+275760-09-13T00:00:00Z`). Date.parse
// alone reads far more (`-5` is May 2001, `1/1/2030` a local date): such a capture
// would be dated by accident, so anything else is undated (NaN).

const W3C_DATE = /^(?:\d{4}|[+-]\d{6})(?:-\d\d(?:-\d\d(?:T\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d))?)?)?$/;

/** The WARC-Date's time, ms since the epoch; NaN when it is absent or not a W3C-ISO8601 date that exists. */
export function warcDateOf(text: string | null | undefined): number {
  if (text === null || text === undefined || !W3C_DATE.test(text)) return NaN;
  return Date.parse(text);
}
