// Reading the robots.txt named on the command line ('-' for stdin), with errors a user can act on.
import { readFileSync } from 'node:fs';
import { NOT_ROBOTS_TXT, notRobotsTxt } from '../engine/lint.js';
import { CliError, reason } from './errors.js';

export function readRobotsFile(path: string): Buffer {
  try {
    return readFileSync(path === '-' ? 0 : path);
  } catch (e) {
    throw new CliError(`cannot read robots file ${path}: ${reason(e)}`);
  }
}

/** A warning on stderr when a file given for verdicts is not a robots.txt at all
 * (binary data, an HTML page: lint's test): its verdicts are a file's without rules. */
export function warnIfNotRobotsTxt(path: string, bytes: Uint8Array): void {
  const kind = notRobotsTxt(bytes);
  if (kind !== undefined) process.stderr.write(`robots: warning: ${path === '-' ? 'stdin' : path}: ${NOT_ROBOTS_TXT[kind]}\n`);
}
