// Errors the user can fix: printed as one line ("robots: ..."), never a stack trace.
// The bulk code's own (BulkError) are shown the same way, with the usage exit.
import { BulkError } from '../bulk/base/errors.js';
export { reason } from '../bulk/base/errors.js';

/** Exit code for usage and input errors (as Google's robots tool uses 2). */
export const EXIT_USAGE = 2;

export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = EXIT_USAGE) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** What the library refuses (a bad agent, option or operator) as a usage error: its TypeError's or RangeError's message. */
export function usageErrors<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof TypeError || e instanceof RangeError) throw new CliError(e.message);
    throw e;
  }
}

/** The exit code of an error the user can fix (a CliError's own, a BulkError's
 * the usage exit), or undefined for anything else: a bug. */
export function userExitCode(e: unknown): number | undefined {
  if (e instanceof CliError) return e.exitCode;
  return e instanceof BulkError ? EXIT_USAGE : undefined;
}
