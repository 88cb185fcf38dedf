// Option values shared by the commands, checked with messages a user can act on.
import { agentNotes, DEFAULT_MAX_BYTES, type Profile } from '../index.js';
import { CliError } from './errors.js';

export function parseProfile(value: string): Profile {
  if (value !== 'rfc' && value !== 'google') throw new CliError(`--profile must be rfc or google, got "${value}"`);
  return value;
}

/** --agent is repeatable and each value may be a comma-separated list. */
export function parseAgents(values: string[], option = '--agent'): string[] {
  const agents = values.flatMap((v) => v.split(',')).map((a) => a.trim()).filter((a) => a !== '');
  if (agents.length === 0) throw new CliError(`${option} needs a crawler name, e.g. ${option} Googlebot`);
  return agents;
}

/** What the profile does with names that are not product tokens (agentNotes), a note each on stderr. */
export function noteAgents(command: string, agents: string[], profile: Profile): void {
  for (const note of agentNotes(agents, profile)) process.stderr.write(`robots ${command}: note: ${note}\n`);
}

export function parseMaxBytes(value: string): number {
  const n = value === 'Infinity' || value === 'none' ? Infinity : Number(value);
  if (!(n >= DEFAULT_MAX_BYTES)) {
    throw new CliError(`--max-bytes must be at least ${DEFAULT_MAX_BYTES} (RFC 9309 2.5) or Infinity, got "${value}"`);
  }
  return n;
}

/** --format of the commands that write a report: text (default) or json; true for json. */
export function parseFormat(value: string | undefined): boolean {
  if (value === undefined || value === 'text') return false;
  if (value === 'json') return true;
  throw new CliError(`--format must be text or json, got "${value}"`);
}
