// `robots bench FILE URLS`: every installed robots.txt engine (this one and its
// peers) on the user's own robots.txt and URL list, side by side. The harness
// lives in bench/ (shipped beside dist/); peers that are not installed are skipped.
import { readFileSync } from 'node:fs';
import { CliError, reason } from './errors.js';
import { checkAgentNames, parseProfile } from './options.js';
import { readRobotsFile } from './robots-file.js';
import type { Profile } from '../index.js';

export interface BenchOptions {
  agent: string;
  profile?: string;
  quick?: boolean;
  quiet?: boolean;
}

interface UserBench {
  benchUserFiles(o: {
    name: string; bytes: Uint8Array; urls: string[]; agent: string; profile?: Profile; quick: boolean;
    out: NodeJS.WritableStream; log: (line: string) => void;
  }): Promise<unknown>;
}

const HARNESS = new URL('../bench/user.mjs', import.meta.url);

export async function benchCommand(file: string, urlsPath: string, o: BenchOptions): Promise<number> {
  if (file === '-' && urlsPath === '-') throw new CliError('the robots file and the URL list cannot both be stdin');
  const profile = o.profile === undefined ? undefined : parseProfile(o.profile);
  const bytes = readRobotsFile(file);
  // A bad agent is the user's mistake: say so before any engine runs.
  checkAgentNames([o.agent], profile ?? 'rfc', Infinity);
  let text: string;
  try {
    text = readFileSync(urlsPath === '-' ? 0 : urlsPath, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read URL file ${urlsPath}: ${reason(e)}`);
  }
  const urls = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (urls.length === 0) throw new CliError(`no URLs in ${urlsPath} (one per line)`);

  let harness: UserBench;
  try {
    harness = (await import(HARNESS.href)) as UserBench;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw e;
    // tinybench is an optional peer (a plain install leaves it out): say how to get it.
    if (/Cannot find package 'tinybench'/.test((e as Error).message)) {
      throw new CliError('robots bench needs tinybench, an optional peer dependency that is not installed: npm install tinybench');
    }
    // The harness (bench/, shipped in the package) is missing.
    throw new CliError(`robots bench needs the benchmark harness in ${new URL('.', HARNESS).pathname}: ${(e as Error).message.split('\n')[0]}`);
  }
  const log = o.quiet ? () => {} : (line: string) => process.stderr.write(`${line}\n`);
  await harness.benchUserFiles({ name: file === '-' ? 'stdin' : file, bytes, urls, agent: o.agent, profile, quick: o.quick ?? false, out: process.stdout, log });
  return 0;
}
