// A full collection on demand, for the tests that measure what is kept alive:
// V8's gc(), exposed at run time (vitest's workers start without --expose-gc;
// the flag set now makes a new context's global have it).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');

/** A full garbage collection. */
export const gc = runInNewContext('gc') as () => void;
