// Stand-ins for the exports of a part of the package that Node's ES entry
// (dist/index.node.js, scripts/build-node-entry.mjs) does not load at import:
// an ES module's exports are bound when it is imported, but require()'s entry
// (dist/index.cjs) loads the crawler's and lint's parts only when one of their
// exports is first read. A stand-in is an export that loads its part on first
// use and then behaves as the real one: a function forwards its calls, a class
// constructs, is extended and answers instanceof as the class does.

/** A function that calls the one load() gives (loaded on the first call). */
export function standInFunction(name: string, load: () => (...args: never[]) => unknown): (...args: never[]) => unknown {
  const forward = function (this: unknown, ...args: never[]): unknown {
    return Reflect.apply(load(), this, args);
  };
  Object.defineProperty(forward, 'name', { value: name });
  return forward;
}

/**
 * A class that is the one load() gives as far as its users can tell: `new`,
 * `extends`, `instanceof`, its statics and its prototype all reach the real
 * class, loaded on the first of them. A proxy; its target is a bound function
 * (constructible, with no `prototype` of its own, which a proxy's invariants
 * would hold to the target's), given the real class's own properties when it
 * loads, so that what the proxy reports of them is what the target holds.
 */
export function standInClass(name: string, load: () => abstract new (...args: never[]) => unknown): new (...args: never[]) => unknown {
  const target = function () {}.bind(null) as unknown as new (...args: never[]) => unknown;
  Object.defineProperty(target, 'name', { value: name }); // (what util.inspect shows before it loads)
  let real: (abstract new (...args: never[]) => unknown) | undefined;
  const loaded = () => {
    if (real === undefined) {
      real = load();
      for (const key of Reflect.ownKeys(target)) Reflect.deleteProperty(target, key); // (name and length: configurable)
      Object.defineProperties(target, Object.getOwnPropertyDescriptors(real));
      Object.setPrototypeOf(target, Object.getPrototypeOf(real));
    }
    return real;
  };
  const standIn: new (...args: never[]) => unknown = new Proxy(target, {
    // `new StandIn()` makes the real class's object; a subclass's `super()` passes the subclass on.
    construct: (_, args, newTarget) => Reflect.construct(loaded(), args, newTarget === standIn ? loaded() : newTarget),
    apply: (_, self, args) => Reflect.apply(loaded() as unknown as (...a: unknown[]) => unknown, self, args),
    get: (_, key, receiver) => Reflect.get(loaded(), key, receiver === standIn ? loaded() : receiver),
    set: (_, key, value, receiver) => {
      const ok = Reflect.set(loaded(), key, value, receiver === standIn ? loaded() : receiver);
      const own = Reflect.getOwnPropertyDescriptor(loaded(), key);
      if (own !== undefined) Reflect.defineProperty(target, key, own);
      return ok;
    },
    has: (_, key) => Reflect.has(loaded(), key),
    ownKeys: () => (loaded(), Reflect.ownKeys(target)),
    getOwnPropertyDescriptor: (_, key) => (loaded(), Reflect.getOwnPropertyDescriptor(target, key)),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(loaded(), key, descriptor) && Reflect.defineProperty(target, key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(loaded(), key) && Reflect.deleteProperty(target, key),
    getPrototypeOf: () => (loaded(), Reflect.getPrototypeOf(target)),
    preventExtensions: () => Reflect.preventExtensions(loaded()) && Reflect.preventExtensions(target),
  });
  return standIn;
}
