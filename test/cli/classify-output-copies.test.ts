// Which classify runs write a block's lines from the core's memory as it writes
// them (no copy out, no join): those whose lines are long, a verdict per crawler
// (and its purposes) or an operator's word per purpose (--operators @ai: 42
// columns a URL, five times one crawler's output, which copied out and joined
// took a fifth of the run).
import { describe, expect, it } from 'vitest';
import { writesFromCore } from '../../src/bulk/classify.js';

describe('classify in one thread: the output written from the core', () => {
  it('with crawlers, with operators, with both; not for one verdict a URL', () => {
    expect(writesFromCore({ crawlers: ['Googlebot'] })).toBe(true);
    expect(writesFromCore({ operators: ['google'] })).toBe(true);
    expect(writesFromCore({ operators: ['openai', 'google'], crawlers: ['GPTBot'] })).toBe(true);
    expect(writesFromCore({})).toBe(false);
  });
});
