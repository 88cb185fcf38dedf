// Octet classes of RFC 3986 used by pattern escaping and normalisation.

/** Upper-case hex digits as octets. */
export const HEX_DIGITS = Uint8Array.from('0123456789ABCDEF', (c) => c.charCodeAt(0));

/** The value of a hex digit octet, or -1. */
export function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

/** RFC 3986 unreserved: A-Z a-z 0-9 - . _ ~ */
export function isUnreserved(c: number): boolean {
  const l = c | 0x20;
  return (l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e;
}

/** Printable octets a URI may not hold raw (RFC 3986: " < > \ ^ ` { | }), and the
 * ones robots.txt patterns give a meaning ('$', '*') or that start an escape ('%'). */
const RAW_ESCAPED = new Set(Array.from('"$%*<>\\^`{|}', (c) => c.charCodeAt(0)));

/** `rfc`: is octet c written as %XX when it stands raw (not as an escape's '%')?
 * Controls, space, DEL, octets >= 0x80, and RAW_ESCAPED. */
export function escapesRaw(c: number): boolean {
  return c <= 0x20 || c >= 0x7f || RAW_ESCAPED.has(c);
}

/** escapesRaw() by octet, 1 or 0: a table for loops that ask it of every octet. Marked pure, so that a bundle
 * that never reads it (the library's: only the audit's code does) leaves it out and does not build it at import. */
export const ESCAPES_RAW: Uint8Array = /* @__PURE__ */ Uint8Array.from({ length: 256 }, (_, c) => (escapesRaw(c) ? 1 : 0));

/** The parts in one buffer of their own (never Node's shared pool, so it can be
 * transferred to another thread): a new one, or one from `into` (n octets). */
export function concatOctets(parts: readonly Uint8Array[], into: (n: number) => Uint8Array = (n) => new Uint8Array(n)): Uint8Array {
  const out = into(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
