// ASCII text the core writes into its output from string literals (classify's
// lines and the crawler columns' texts): a module of its own, which both import.

/** Copies an ASCII string literal's characters as octets. */
export function writeAscii(o: usize, s: string): usize {
  const n = s.length;
  const p = changetype<usize>(s);
  for (let i = 0; i < n; i++) store<u8>(o + <usize>i, load<u16>(p + (<usize>i << 1)));
  return o + <usize>n;
}
