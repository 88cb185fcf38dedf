// A crawler's names are encoded for the core (encodedNames: count, lengths,
// octets) once, not each time they are asked: the audit asks for six crawlers
// in turn, site after site, and each ask re-encoding them cost a filter, a
// regular expression a name and an array (an identity, not a clock).
import { describe, expect, it } from 'vitest';
import { encodedNames } from '../../../src/engine/parse/rule-selection.js';
import { agentTokens } from '../../../src/engine/parse/agents.js';

describe('encodedNames keeps each names list its encoding', () => {
  it('asked in turn for several crawlers, each gets back the octets it got first', () => {
    const crawlers = ['GPTBot', 'CCBot', 'Google-Extended', 'ClaudeBot', 'Googlebot', 'Bingbot'].map((c) => agentTokens(c, 'rfc'));
    // (agentTokens keeps only the last agent's list: the audit keeps each crawler's, as here.)
    const first = crawlers.map((names) => encodedNames(names));
    for (let site = 0; site < 3; site++) {
      crawlers.forEach((names, i) => expect(encodedNames(names)).toBe(first[i]));
    }
  });

  it('the encoding is the core layout: a count, then each name that can name a group as its length and octets', () => {
    const octets = encodedNames(['gptbot', 'bot/1.0', '']);
    const view = new DataView(octets.buffer, octets.byteOffset, octets.byteLength);
    expect(view.getInt32(0, true)).toBe(2);
    expect(view.getInt32(4, true)).toBe(6);
    expect(Buffer.from(octets.subarray(8, 14)).toString('latin1')).toBe('gptbot');
    expect(view.getInt32(14, true)).toBe(0);
    expect(octets.length).toBe(18);
  });
});
