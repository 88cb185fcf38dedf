// The one seed of every random generator in the tests: fast-check's (set for
// every fc.assert by test/setup/property-seed.ts) and the few written by hand
// (they call propertySeed()). PROPERTY_SEED from the environment replays a run;
// without it each run draws a fresh one (vitest.config.ts draws it once and
// hands it to every worker, so all files of a run share it). A failure says the
// seed and how to replay it.
import { randomInt } from 'node:crypto';

/** A seed as fast-check takes it: an integer that fits 32 bits, signed or not. */
export function parseSeed(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < -(2 ** 31) || n >= 2 ** 32) throw new RangeError(`PROPERTY_SEED must be an integer of 32 bits, not ${JSON.stringify(text)}`);
  return n;
}

/** The seed an environment asks for: PROPERTY_SEED, or FUZZ_SEED (escape-soup's own name before, kept as an alias). */
export function seedFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  return parseSeed(env.PROPERTY_SEED || env.FUZZ_SEED);
}

/** The run's seed. */
export const PROPERTY_SEED: number = seedFromEnv(process.env) ?? randomInt(2 ** 31);

let drawn = false;

/** The seed, for a generator written by hand (a failure of the test then prints it). */
export function propertySeed(): number {
  drawn = true;
  return PROPERTY_SEED;
}

/** Whether this file's tests drew the seed by hand. */
export const seedDrawn = (): boolean => drawn;

/** What a failure says: the seed and the command that replays it. */
export function replayHint(seed: number, file: string): string {
  return `property seed ${seed}; replay: PROPERTY_SEED=${seed} npx vitest run ${file}`;
}

/** mulberry32, the bench's seeded generator of floats in [0, 1), for generators written by hand. */
export { seededRandom } from '../../bench/synthetic.mjs';
