// Reading the robots.txt named on the command line ('-' for stdin), with errors a user can act on.
import { readFileSync } from 'node:fs';
import { CliError, reason } from './errors.js';

export function readRobotsFile(path: string): Buffer {
  try {
    return readFileSync(path === '-' ? 0 : path);
  } catch (e) {
    throw new CliError(`cannot read robots file ${path}: ${reason(e)}`);
  }
}
