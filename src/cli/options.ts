// Option values shared by the commands, checked with messages a user can act on.
import { agentNotes, DEFAULT_MAX_OCTETS, type Profile } from '../index.js';
import { isProfile } from '../engine/parse/profile.js';
import { checkAgents } from '../engine/robots-txt.js';
import { CliError, usageErrors } from './errors.js';

export function parseProfile(value: string): Profile {
  if (!isProfile(value)) throw new CliError(`--profile must be rfc or google, got "${value}"`);
  return value;
}

/** --agent is repeatable and each value may be a comma-separated list. */
export function parseAgents(values: string[], option = '--agent'): string[] {
  const agents = values.flatMap((v) => v.split(',')).map((a) => a.trim()).filter((a) => a !== '');
  if (agents.length === 0) throw new CliError(`${option} needs a crawler name, e.g. ${option} Googlebot`);
  return agents;
}

/** The crawler's names as the engine takes them, checked before any work: a bad one is the user's mistake, said in one line. */
export function checkAgentNames(agents: readonly string[], profile: Profile, maxOctets: number): void {
  usageErrors(() => checkAgents(agents, { profile, maxOctets }));
}

/** What the profile does with names that are not product tokens (agentNotes), a note each on stderr. */
export function noteAgents(command: string, agents: string[], profile: Profile): void {
  for (const note of agentNotes(agents, profile)) process.stderr.write(`robots ${command}: note: ${note}\n`);
}

/** The body limit: --max-octets, or its deprecated old name --max-bytes (given
 * both, they must agree); at least DEFAULT_MAX_OCTETS, or Infinity (also "none"). */
export function parseMaxOctets(o: { maxOctets?: string; maxBytes?: string }): number {
  if (o.maxOctets !== undefined && o.maxBytes !== undefined && o.maxOctets !== o.maxBytes) {
    throw new CliError(`--max-bytes is the deprecated name of --max-octets: give one of them, got --max-octets ${o.maxOctets} and --max-bytes ${o.maxBytes}`);
  }
  const flag = o.maxOctets === undefined && o.maxBytes !== undefined ? '--max-bytes' : '--max-octets';
  const value = o.maxOctets ?? o.maxBytes ?? String(DEFAULT_MAX_OCTETS);
  const n = value === 'Infinity' || value === 'none' ? Infinity : Number(value);
  if (!(n >= DEFAULT_MAX_OCTETS)) {
    throw new CliError(`${flag} must be at least ${DEFAULT_MAX_OCTETS} (RFC 9309 2.5) or Infinity, got "${value}"`);
  }
  return n;
}

/**
 * --format names the output's shape: `text` (lines for a person), `tsv` (tab-
 * separated lines, one per URL), `json` (one JSON document), `jsonl` (one JSON
 * object per line). A command takes every name its output fits, so where two
 * shapes coincide both names give the same output: check's text is TSV lines,
 * explain's and fetch's JSON one object on one line (a JSON-lines stream of
 * one), classify's TSV its text.
 */
export const FORMATS = {
  check: { text: ['text', 'tsv'], json: ['json'] },
  explain: { text: ['text'], json: ['json', 'jsonl'] },
  fetch: { text: ['text'], json: ['json', 'jsonl'] },
  lint: { text: ['text'], json: ['json'] },
  classify: { text: ['tsv', 'text'], json: ['jsonl'] },
} as const;

/** --format of a command (default: its text output): true for its JSON output. */
export function parseFormat(value: string | undefined, command: keyof typeof FORMATS): boolean {
  const { text, json } = FORMATS[command];
  if (value === undefined || (text as readonly string[]).includes(value)) return false;
  if ((json as readonly string[]).includes(value)) return true;
  throw new CliError(`--format must be ${formatNames(command)}, got "${value}"`);
}

/** The --format values of a command, as its help and errors say them: "text or json (tsv: the same as text)". */
export function formatNames(command: keyof typeof FORMATS): string {
  const [text, ...textAlias] = FORMATS[command].text;
  const [json, ...jsonAlias] = FORMATS[command].json;
  const same = [...textAlias.map((a) => `${a}: the same as ${text}`), ...jsonAlias.map((a) => `${a}: the same as ${json}`)];
  return `${text} or ${json}${same.length > 0 ? ` (${same.join('; ')})` : ''}`;
}

/** --shard i/N: i from 0 to N - 1 (classify's and audit's). */
export function parseShard(value: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = m === null ? NaN : Number(m[1]);
  const count = m === null ? NaN : Number(m[2]);
  if (!(count >= 1 && count <= 2 ** 31 && index < count)) {
    throw new CliError(`--shard must be i/N with 0 <= i < N (e.g. --shard 0/4 ... --shard 3/4), got "${value}"`);
  }
  return { index, count };
}
