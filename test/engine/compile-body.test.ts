// compile(body, agent, options): parse(body, options).compile(agent, options) in one
// call. Its verdicts are held to the reference by the property test (agree()); here,
// what it refuses: the same errors, word for word, as the two calls it stands for.
import { describe, expect, it } from 'vitest';
import { compile, parse } from '../../src/index.js';

const BODY = 'User-agent: *\nDisallow: /private\n';

/** What a call throws ("Name: message"), or 'ok'. */
function outcome(call: () => { dispose(): void }): string {
  try {
    call().dispose();
    return 'ok';
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
}

describe('compile() refuses what parse() and compile() refuse, in their words', () => {
  const cases: [string, unknown, unknown, unknown][] = [
    ['a good call', BODY, 'FooBot', { profile: 'google' }],
    ['no options', BODY, 'FooBot', undefined],
    ['a body that is a number', 5, 'FooBot', {}],
    ['a body that is null', null, 'FooBot', {}],
    ['options null', BODY, 'FooBot', null],
    ['options a number', BODY, 'FooBot', 5],
    ['options a string', BODY, 'FooBot', 'google'],
    ['a profile of neither', BODY, 'FooBot', { profile: 'strict' }],
    ['maxOctets under the least', BODY, 'FooBot', { maxOctets: 10 }],
    ['an agent with a space', BODY, 'Foo Bot', {}],
    ['an empty list of names', BODY, [], {}],
    ['maxDfaBytes 0', BODY, 'FooBot', { maxDfaBytes: 0 }],
    ['coldOctets negative', BODY, 'FooBot', { coldOctets: -1 }],
    ['coldOctets a fraction', BODY, 'FooBot', { coldOctets: 1.5 }],
  ];
  for (const [what, body, agent, options] of cases) {
    it(what, () => {
      const once = outcome(() => compile(body as string, agent as string, options as object));
      const twice = outcome(() => parse(body as string, options as object).compile(agent as string, options as object));
      expect(once).toBe(twice);
    });
  }
  it('the good calls give a matcher, the others an error', () => {
    expect(outcome(() => compile(BODY, 'FooBot'))).toBe('ok');
    expect(outcome(() => compile(BODY, 'FooBot', null as unknown as object))).toBe('TypeError: options must be an object');
  });
});
