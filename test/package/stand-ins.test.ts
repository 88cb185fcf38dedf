// Node's ES entry stands in for the exports of the parts it does not load at import
// (src/exports/stand-ins.ts): each must load its part only when first used, and then
// be, as far as its user can tell, the real function or class.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { standInClass, standInFunction } from '../../src/exports/stand-ins.js';

/** A class with what a user may reach: a constructor, fields (one private), a method, statics, a getter. */
class Real {
  static made = 0;
  static lastNewTarget: unknown;
  static of(n: number): Real {
    return new this(n);
  }
  #secret: number;
  readonly n: number;
  constructor(n: number) {
    this.n = n;
    this.#secret = n * 2;
    Real.made++;
    Real.lastNewTarget = new.target;
  }
  get secret(): number {
    return this.#secret;
  }
  twice(): number {
    return this.n * 2;
  }
}

/** A stand-in for Real and the number of times its part was loaded. */
function standIn(): { Cls: typeof Real; loads: () => number } {
  let loads = 0;
  const Cls = standInClass('Real', () => {
    loads++;
    return Real;
  }) as unknown as typeof Real;
  return { Cls, loads: () => loads };
}

describe('standInFunction', () => {
  it('loads nothing until called, then forwards the call (this and arguments) and its answer or its throw', () => {
    let loads = 0;
    const real = function (this: unknown, a: number, b: number) {
      if (a < 0) throw new RangeError('negative');
      return { self: this, sum: a + b };
    };
    const f = standInFunction('real', () => (loads++, real) as never) as (this: unknown, a: number, b: number) => { self: unknown; sum: number };
    expect([loads, f.name]).toEqual([0, 'real']);
    const self = { me: true };
    expect(f.call(self, 1, 2)).toEqual({ self, sum: 3 });
    expect(() => f(-1, 0)).toThrow(RangeError);
    expect(loads).toBe(2); // (load() is the part's getter: the part itself is required once)
  });
});

describe('standInClass', () => {
  it('loads nothing when made or inspected, and names the class', () => {
    const { Cls, loads } = standIn();
    expect(typeof Cls).toBe('function');
    expect(inspect(Cls)).toContain('Real');
    expect(loads()).toBe(0);
  });

  it('constructs objects of the real class: fields, private fields, methods, getters, instanceof both ways', () => {
    const { Cls, loads } = standIn();
    const r = new Cls(3);
    expect(loads()).toBe(1);
    expect(Object.getPrototypeOf(r)).toBe(Real.prototype);
    expect(Real.lastNewTarget).toBe(Real); // (the class's own new.target, as from require()'s build)
    expect([r.n, r.secret, r.twice(), r instanceof Cls, r instanceof Real, new Real(1) instanceof Cls]).toEqual([3, 6, 6, true, true, true]);
  });

  it('is extended as the real class: super() makes the subclass\'s object, with the real class\'s private fields', () => {
    const { Cls } = standIn();
    class Sub extends Cls {
      thrice(): number {
        return this.n * 3;
      }
    }
    const s = new Sub(4);
    expect(Real.lastNewTarget).toBe(Sub);
    expect([s instanceof Sub, s instanceof Cls, s instanceof Real, s.thrice(), s.twice(), s.secret]).toEqual([true, true, true, 12, 8, 8]);
    expect(Object.getPrototypeOf(Sub.prototype)).toBe(Real.prototype);
    expect(Sub.of(5)).toBeInstanceOf(Sub); // (a static reached through the subclass, `this` the subclass)
  });

  it('gives the real class\'s statics, prototype and own properties, and takes writes to them', () => {
    const { Cls } = standIn();
    expect(Cls.prototype).toBe(Real.prototype);
    expect(Cls.of(2)).toBeInstanceOf(Real);
    const before = Real.made;
    Cls.made = 100;
    expect(Real.made).toBe(100);
    Real.made = before;
    expect(Cls.made).toBe(before);
    expect(Cls.name).toBe('Real');
    expect(Cls.length).toBe(1);
    expect(Reflect.ownKeys(Cls).sort()).toEqual(Reflect.ownKeys(Real).sort());
    expect(Object.getOwnPropertyDescriptor(Cls, 'prototype')).toEqual(Object.getOwnPropertyDescriptor(Real, 'prototype'));
    expect(Object.getPrototypeOf(Cls)).toBe(Object.getPrototypeOf(Real));
    expect('of' in Cls).toBe(true);
    Object.defineProperty(Cls, 'extra', { value: 1, configurable: true });
    expect((Real as unknown as { extra: number }).extra).toBe(1);
    expect(delete (Cls as unknown as { extra?: number }).extra).toBe(true);
    expect('extra' in Real).toBe(false);
  });

  it('throws as the real class when called without new', () => {
    const { Cls } = standIn();
    expect(() => (Cls as unknown as () => void)()).toThrow(TypeError);
  });
});
