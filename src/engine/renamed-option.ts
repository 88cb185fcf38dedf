// Options renamed to follow docs/glossary.md (octets for content, bytes for
// memory): the old name stays a deprecated alias for one minor version. Either
// name is read; given both, they must agree (an error, rather than one of them
// silently ignored, for a caller halfway through the rename).

/** The value of option `name`, or of its deprecated alias `alias`, with the
 * name the caller used (for error messages: they name what the caller wrote). */
export function renamedOption<T>(options: object, name: string, alias: string): { value: T | undefined; given: string } {
  const o = options as Record<string, unknown>;
  const value = o[name] as T | undefined;
  const old = o[alias] as T | undefined;
  if (old === undefined) return { value, given: name };
  if (value === undefined) return { value: old, given: alias };
  if (!Object.is(value, old)) {
    throw new TypeError(`${alias} is the deprecated name of ${name}: give one of them, got ${name} ${String(value)} and ${alias} ${String(old)}`);
  }
  return { value, given: name };
}
