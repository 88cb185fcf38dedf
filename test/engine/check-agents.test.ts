// checkAgents: the engine says whether it takes a crawler's names, compiling
// nothing, so that a command refuses a bad --agent before any work (bulk's
// classifier was borrowed for that, by compiling an empty robots.txt).
import { describe, expect, it } from 'vitest';
import { checkAgents, compileOctets } from '../../src/engine/robots-txt.js';

/** What compiling an empty robots.txt for these names throws (the check the commands made before), or null. */
function compileRefusal(agent: string | string[], profile: 'rfc' | 'google', maxOctets?: number): string | null {
  try {
    compileOctets(new Uint8Array(0), { profile, maxOctets }, agent).dispose();
    return null;
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
}

function checkRefusal(agent: string | string[], profile: 'rfc' | 'google', maxOctets?: number): string | null {
  try {
    checkAgents(agent, { profile, maxOctets });
    return null;
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
}

describe('checkAgents', () => {
  const cases: [string | string[], 'rfc' | 'google', number?][] = [
    ['Googlebot', 'rfc'], ['Googlebot', 'google'], [['Googlebot', 'Bingbot'], 'rfc'],
    ['Bad Agent!', 'rfc'], ['Bad Agent!', 'google'], ['', 'rfc'], ['', 'google'], [[], 'rfc'], [[], 'google'],
    [['GPTBot', 'two words'], 'rfc'], ['Googlebot/2.1', 'rfc'], ['Googlebot', 'rfc', 10], ['Googlebot', 'rfc', Infinity],
  ];
  it.each(cases)('refuses what compiling refuses, with its words: %j (%s)', (agent, profile, maxOctets) => {
    expect(checkRefusal(agent, profile, maxOctets)).toBe(compileRefusal(agent, profile, maxOctets));
  });

  it('refuses a name that is not a product token under rfc, as a TypeError naming it', () => {
    expect(() => checkAgents('Bad Agent!', { profile: 'rfc' })).toThrow(TypeError);
    expect(() => checkAgents('Bad Agent!', { profile: 'rfc' })).toThrow(/Bad Agent!/);
    expect(() => checkAgents(['Googlebot'], { profile: 'nope' as 'rfc' })).toThrow(/profile/);
  });
});
