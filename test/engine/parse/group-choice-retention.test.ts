// Which groups apply, asked of one records after another in a loop that never
// yields (the audit's, site after site): the choice keeps none of them alive.
// It remembers the groups whose lines the core's area holds; a WeakRef did,
// and a WeakRef keeps its target until the job ends: every site's groups,
// their lines and rules, lived the whole loop, and each young collection
// copied them. Bounded by the heap kept (octets, after a full collection), not a clock.
import { describe, expect, it } from 'vitest';
import { readRecords, type Records } from '../../../src/engine/parse/records.js';
import { applicableGroups } from '../../../src/engine/parse/agents.js';
import { gc } from '../../helpers/gc.js';

const lines: string[] = [];
/** A product token per group: letters only. */
const agent = (g: number) => `bot${String.fromCharCode(97 + (g >> 4), 97 + (g & 15))}`;
for (let g = 0; g < 50; g++) lines.push(`User-agent: ${agent(g)}`, ...Array.from({ length: 40 }, (_, i) => `Disallow: /g${g}/p${i}/`));
const BODY = new TextEncoder().encode(lines.join('\n'));
const FILES = 200;

describe('the group choice keeps no records alive', () => {
  it(`${FILES} records asked about in a loop that never yields are collected`, () => {
    // What one records weighs: a few kept.
    gc();
    const start = process.memoryUsage().heapUsed;
    const kept: Records[] = [];
    for (let i = 0; i < 20; i++) kept.push(readRecords(BODY, 'rfc'));
    gc();
    const weight = (process.memoryUsage().heapUsed - start) / kept.length;
    kept.length = 0;
    expect(weight).toBeGreaterThan(50_000);

    gc();
    const before = process.memoryUsage().heapUsed;
    let chosen = 0;
    for (let i = 0; i < FILES; i++) chosen += applicableGroups(readRecords(BODY, 'rfc').groups, [agent(7)]).length;
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(chosen).toBe(FILES);
    // All kept: FILES times the weight. None kept: the last one's at most, and the heap's own noise.
    expect(grown).toBeLessThan(10 * weight);
  });
});
