// RFC 9651 Dictionary parsing (src/engine/usage/structured-field.ts), which
// AIPREF usage preferences are: what parses, what fails (and so fails the
// whole preference), held to the RFC's parsing algorithms (section 4.2).
import { describe, expect, it } from 'vitest';
import { parseDictionary } from '../../../src/engine/usage/structured-field.js';

const keys = (text: string) => parseDictionary(text)?.map((m) => m.key) ?? null;

describe('parseDictionary', () => {
  it('members, their separators and the field’s spaces', () => {
    expect(parseDictionary('a=y, b=n')).toEqual([
      { key: 'a', value: { kind: 'token', token: 'y' }, text: 'a=y' },
      { key: 'b', value: { kind: 'token', token: 'n' }, text: 'b=n' },
    ]);
    for (const ok of ['a=1,b=2', 'a=1 , b=2', 'a=1,\tb=2', '  a=1, b=2  ', 'a=1\t']) expect(keys(ok), ok).toEqual(ok.includes('b') ? ['a', 'b'] : ['a']);
    expect(parseDictionary('')).toEqual([]);
    expect(parseDictionary('   ')).toEqual([]);
    for (const bad of ['a=1,', ',a=1', 'a=1,,b=2', 'a=1 b=2', '\ta=1', 'a=1;']) expect(parseDictionary(bad), bad).toBeNull();
  });

  it('keys: lower case, digits, "_-.*", starting with a letter or "*"', () => {
    expect(keys('*a=1, a_b-c.d*=2, a1=3')).toEqual(['*a', 'a_b-c.d*', 'a1']);
    for (const bad of ['A=1', 'aB=1', '1a=1', '-a=1', '_a=1', 'é=1']) expect(parseDictionary(bad), bad).toBeNull();
  });

  it('a repeated key: its last value, in its first place', () => {
    expect(parseDictionary('a=y, b=?1, a=n')?.map((m) => [m.key, m.text])).toEqual([['a', 'a=n'], ['b', 'b=?1']]);
  });

  it('a key alone is the Boolean true; parameters are parsed and dropped', () => {
    expect(parseDictionary('a')?.[0].value).toEqual({ kind: 'boolean' });
    expect(parseDictionary('a;x=1;y, b=t;z="s"')?.map((m) => m.value)).toEqual([{ kind: 'boolean' }, { kind: 'token', token: 't' }]);
    expect(keys('a; x=1')).toEqual(['a']);
    for (const bad of ['a ;x=1', 'a;X=1', 'a;x=', 'a=t;x=(1)']) expect(parseDictionary(bad), bad).toBeNull();
  });

  it('every bare item type, and their limits', () => {
    const kind = (v: string) => parseDictionary(`a=${v}`)?.[0].value.kind ?? null;
    const cases: [string, string | null][] = [
      ['123456789012345', 'integer'], ['1234567890123456', null], ['-1', 'integer'], ['-', null], ['-a', null],
      ['123456789012.123', 'decimal'], ['1234567890123.1', null], ['1.1234', null], ['1.', null], ['0.5', 'decimal'],
      ['"x\\"y\\\\"', 'string'], ['"x\\y"', null], ['"open', null], ['"é"', null], ['"\t"', null],
      ['*foo/bar:baz', 'token'], ['Y', 'token'],
      [':aGVsbG8=:', 'bytes'], [':aGVsbG8=', null], [':a b:', null],
      ['?1', 'boolean'], ['?0', 'boolean'], ['?2', null], ['?', null],
      ['@123', 'date'], ['@1.5', null], ['@', null],
      ['%"caf%c3%a9"', 'display-string'], ['%"%C3"', null], ['%"%c3"', null], ['%"x', null], ['%x', null],
      ['(1 2)', 'inner-list'], ['()', 'inner-list'], ['( 1  "x" )', 'inner-list'], ['(1 2);p=1', 'inner-list'], ['(1 2', null], ['(1,2)', null],
      ['#', null], ['', null],
    ];
    for (const [v, k] of cases) expect(kind(v), v).toBe(k);
  });
});
