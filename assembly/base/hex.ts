// The hex digits the core writes, in the two cases its writers promise. The
// case is part of each promise, so each writer names the one it needs:
// - upper case (hexUpper): an escape %XX in RFC 3986's normal form (6.2.2.1),
//   as path and pattern normalisation and Google's pattern escaping write it
//   (normalize.ts, tokenize.ts): a verdict depends on the path's and the
//   pattern's escapes being written alike (src/engine/parse/octets.ts's
//   HEX_DIGITS is the TypeScript side's); and a control octet of a URL echoed
//   as %XX in classify's output lines (classify.ts writePercent), as WHATWG's
//   percent-encoding and src/cli/url-echo.ts write it;
// - lower case (hexLower): a JSON string's \u00xx escape in classify's JSON
//   lines, as JSON.stringify writes it, so those lines equal the TypeScript
//   side's (an output line, not a verdict).

/** The hex digit of v (0..15), upper case: '0'-'9', 'A'-'F'. */
@inline export function hexUpper(v: u32): u8 {
  return <u8>(v < 10 ? 0x30 + v : 0x41 + v - 10);
}

/** The hex digit of v (0..15), lower case: '0'-'9', 'a'-'f'. */
@inline export function hexLower(v: u32): u8 {
  return <u8>(v < 10 ? 0x30 + v : 0x57 + v);
}
