// Scratch arrays that grow: the compiler's, the rule selection's, the rule lists'.

type Growable = Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Int32Array<ArrayBuffer>;

/** A copy of a with room for size entries (at least twice its length), holding its first `used`. */
export function grown<T extends Growable>(a: T, size: number, used: number): T {
  const b = new (a.constructor as new (length: number) => T)(Math.max(size, a.length * 2));
  b.set(a.subarray(0, used));
  return b;
}
