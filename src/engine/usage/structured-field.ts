// RFC 9651 (Structured Field Values for HTTP) Dictionary parsing, section 4.2.2,
// for AIPREF usage preferences (draft-ietf-aipref-vocab-08, its serialization: a
// Content-Usage value is a Dictionary). Only what the vocabulary reads is kept
// of a member: its value when that is a Token (`y`, `n`), else what kind of
// value it is; parameters are parsed (a malformed one fails the dictionary, as
// the RFC says) and dropped (the vocabulary ignores them). Any failure fails the
// whole dictionary: the caller gets null, and the preferences are unknown.

/** A dictionary member's value, as far as the vocabulary cares. */
export type SfValue =
  | { kind: 'token'; token: string }
  | { kind: 'boolean' | 'integer' | 'decimal' | 'string' | 'bytes' | 'date' | 'display-string' | 'inner-list' };

/** One member: its key and value, and the member as written (for reports). */
export interface SfMember {
  key: string;
  value: SfValue;
  text: string;
}

class Fail extends Error {}
const fail = (): never => {
  throw new Fail();
};

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isLcAlpha = (c: number) => c >= 0x61 && c <= 0x7a;
const isAlpha = (c: number) => isLcAlpha(c | 0x20);
// RFC 9110 tchar, and ':' and '/' (a Token's later characters).
const TOKEN_CHARS = new Set(Array.from("!#$%&'*+-.^_`|~:/", (c) => c.charCodeAt(0)));
const isTokenChar = (c: number) => isAlpha(c) || isDigit(c) || TOKEN_CHARS.has(c);
const isKeyChar = (c: number) => isLcAlpha(c) || isDigit(c) || c === 0x5f || c === 0x2d || c === 0x2e || c === 0x2a;
const isBase64 = (c: number) => isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2f || c === 0x3d;
const isLowerHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66);

/** A parse over the field's characters (a robots.txt value, decoded, or a header's). */
class Parser {
  i = 0;
  constructor(readonly s: string) {}

  peek(): number {
    return this.i < this.s.length ? this.s.charCodeAt(this.i) : -1;
  }

  skipSp(): void {
    while (this.peek() === 0x20) this.i++;
  }

  skipOws(): void {
    while (this.peek() === 0x20 || this.peek() === 0x09) this.i++;
  }

  /** 4.2.2 Dictionary: key [ "=" item-or-inner-list | parameters ], "," between. */
  dictionary(): SfMember[] {
    const members: SfMember[] = [];
    // Each key's place in members: a repeated key found at once (a search of members was quadratic in the keys).
    const places = new Map<string, number>();
    while (this.i < this.s.length) {
      const from = this.i;
      const key = this.key();
      let value: SfValue;
      if (this.peek() === 0x3d) {
        this.i++;
        value = this.itemOrInnerList();
      } else {
        value = { kind: 'boolean' };
        this.parameters();
      }
      // A repeated key: its last value stands, in the key's first place (an ordered map's overwrite, as 4.2.2 says).
      const member = { key, value, text: this.s.slice(from, this.i) };
      const at = places.get(key);
      if (at !== undefined) {
        members[at] = member;
      } else {
        places.set(key, members.length);
        members.push(member);
      }
      this.skipOws();
      if (this.i >= this.s.length) return members;
      if (this.peek() !== 0x2c) fail();
      this.i++;
      this.skipOws();
      if (this.i >= this.s.length) fail(); // (a trailing comma)
    }
    return members;
  }

  /** 4.2.3.3 Key: lcalpha or '*', then lcalpha, digits, '_', '-', '.', '*' (a capital fails). */
  key(): string {
    const c = this.peek();
    if (!isLcAlpha(c) && c !== 0x2a) fail();
    const from = this.i++;
    while (isKeyChar(this.peek())) this.i++;
    return this.s.slice(from, this.i);
  }

  itemOrInnerList(): SfValue {
    if (this.peek() !== 0x28) return this.item();
    this.i++;
    for (;;) {
      this.skipSp();
      if (this.peek() === 0x29) {
        this.i++;
        this.parameters();
        return { kind: 'inner-list' };
      }
      if (this.i >= this.s.length) fail();
      this.item();
      const c = this.peek();
      if (c !== 0x20 && c !== 0x29) fail();
    }
  }

  item(): SfValue {
    const value = this.bareItem();
    this.parameters();
    return value;
  }

  /** 4.2.3.2 Parameters: (";" SP* key [ "=" bare-item ])*. */
  parameters(): void {
    while (this.peek() === 0x3b) {
      this.i++;
      this.skipSp();
      this.key();
      if (this.peek() === 0x3d) {
        this.i++;
        this.bareItem();
      }
    }
  }

  /** 4.2.3.1 Bare item. */
  bareItem(): SfValue {
    const c = this.peek();
    if (c === 0x2d || isDigit(c)) return this.number();
    if (c === 0x22) return this.string();
    if (c === 0x2a || isAlpha(c)) return this.token();
    if (c === 0x3a) return this.byteSequence();
    if (c === 0x3f) return this.boolean();
    if (c === 0x40) {
      this.i++;
      if (this.number().kind !== 'integer') fail();
      return { kind: 'date' };
    }
    if (c === 0x25) return this.displayString();
    return fail();
  }

  /** 4.2.4 Integer or Decimal. */
  number(): SfValue {
    if (this.peek() === 0x2d) this.i++;
    if (!isDigit(this.peek())) fail();
    let digits = 0;
    let point = -1;
    for (;;) {
      const c = this.peek();
      if (isDigit(c)) {
        digits++;
      } else if (c === 0x2e && point < 0) {
        if (digits > 12) fail();
        point = digits;
      } else {
        break;
      }
      this.i++;
      if (point < 0 && digits > 15) fail();
      if (point >= 0 && digits + 1 > 16) fail();
    }
    if (point < 0) return { kind: 'integer' };
    const fraction = digits - point;
    if (fraction === 0 || fraction > 3) fail();
    return { kind: 'decimal' };
  }

  /** 4.2.5 String: printable ASCII, `\` escaping only `"` and `\`. */
  string(): SfValue {
    this.i++;
    for (;;) {
      const c = this.peek();
      if (c < 0) fail();
      this.i++;
      if (c === 0x5c) {
        const next = this.peek();
        if (next !== 0x22 && next !== 0x5c) fail();
        this.i++;
      } else if (c === 0x22) {
        return { kind: 'string' };
      } else if (c < 0x20 || c > 0x7e) {
        fail();
      }
    }
  }

  /** 4.2.6 Token. */
  token(): SfValue {
    const from = this.i++;
    while (isTokenChar(this.peek())) this.i++;
    return { kind: 'token', token: this.s.slice(from, this.i) };
  }

  /** 4.2.7 Byte Sequence: base64 between colons. */
  byteSequence(): SfValue {
    this.i++;
    while (isBase64(this.peek())) this.i++;
    if (this.peek() !== 0x3a) fail();
    this.i++;
    return { kind: 'bytes' };
  }

  /** 4.2.8 Boolean: ?1 or ?0. */
  boolean(): SfValue {
    this.i++;
    const c = this.peek();
    if (c !== 0x30 && c !== 0x31) fail();
    this.i++;
    return { kind: 'boolean' };
  }

  /** 4.2.10 Display String: %"...", with lower-case %xx escapes of valid UTF-8. */
  displayString(): SfValue {
    this.i++;
    if (this.peek() !== 0x22) fail();
    this.i++;
    const octets: number[] = [];
    for (;;) {
      const c = this.peek();
      if (c < 0x20 || c > 0x7e) fail(); // (the end of the field too)
      this.i++;
      if (c === 0x22) break;
      if (c === 0x25) {
        const h = this.peek();
        const l = this.s.charCodeAt(this.i + 1);
        if (!isLowerHex(h) || !isLowerHex(l)) fail();
        octets.push(parseInt(this.s.slice(this.i, this.i + 2), 16));
        this.i += 2;
      } else {
        octets.push(c);
      }
    }
    try {
      UTF8.decode(Uint8Array.from(octets));
    } catch {
      fail();
    }
    return { kind: 'display-string' };
  }
}
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A Dictionary (RFC 9651 4.2, with 4.2.2): the members in order, a repeated
 * key's last value standing in the key's first place; null when the
 * text is not a Dictionary (leading and trailing spaces are allowed, as in a
 * field; an empty text is the empty dictionary).
 */
export function parseDictionary(text: string): SfMember[] | null {
  const p = new Parser(text);
  try {
    p.skipSp();
    return p.dictionary(); // (its members end with OWS or the text: nothing is left)
  } catch (e) {
    if (e instanceof Fail) return null;
    throw e;
  }
}
