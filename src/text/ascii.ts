// ASCII-only lower case, the one way the code compares names and keys case aside:
// product tokens (as absl::EqualsIgnoreCase does), control tokens, Content-Signal
// keys and values. A leaf, so that plain data (src/data/) can use it too.

/** s with A-Z lowered and nothing else changed (toLowerCase() alone would also fold some
 * non-ASCII letters into ASCII: U+212A KELVIN SIGN is "k"). */
export function asciiLower(s: string): string {
  return NON_ASCII.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s.toLowerCase();
}
const NON_ASCII = /[^\x00-\x7f]/;
