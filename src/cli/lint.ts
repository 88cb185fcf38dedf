// `robots lint FILE|DIR`: the findings (lines ignored or bent, and mistakes
// that parse fine but do not do what was meant), one per line with its line
// number, then the sitemaps and crawl-delays found; every file of a directory.
// Exit 1 when there are errors, or an entry of a directory could not be read.
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { lint, type LintReport } from '../index.js';
import { CliError, reason } from './errors.js';
import { parseFormat, parseMaxOctets, parseProfile } from './options.js';
import { readRobotsFile } from './robots-file.js';

export interface LintOptions {
  profile: string;
  maxOctets?: string;
  /** The deprecated name of --max-octets. */
  maxBytes?: string;
  format?: string;
}

export function lintCommand(target: string, options: LintOptions): number {
  const profile = parseProfile(options.profile);
  const maxOctets = parseMaxOctets(options);
  const json = parseFormat(options.format, 'lint');
  const { files, unread } = filesOf(target);
  const reports = files.map((file) => ({ file, ...lint(readRobotsFile(file), { profile, maxOctets }) }));
  const many = target !== '-' && (files.length !== 1 || target !== files[0]);
  if (json) {
    process.stdout.write(JSON.stringify(many ? reports : reports[0]) + '\n');
  } else {
    const out = reports.map((r) => asText(r.file, r, many));
    if (many) {
      const sum = (k: 'errors' | 'warnings') => reports.reduce((n, r) => n + r[k], 0);
      out.push(`total: ${plural(files.length, 'file')}, ${plural(sum('errors'), 'error')}, ${plural(sum('warnings'), 'warning')}${unread > 0 ? `; ${plural(unread, 'entry', 'entries')} not read` : ''}`);
    }
    process.stdout.write(out.join('\n') + '\n');
  }
  return unread > 0 || reports.some((r) => r.errors > 0) ? 1 : 0;
}

const plural = (n: number, w: string, ws = `${w}s`) => `${n} ${n === 1 ? w : ws}`;

/**
 * The file, or each regular file of a directory (sorted; not recursive;
 * subdirectories skipped). An entry that cannot be read (a loop of symbolic
 * links, a dangling link, a FIFO or device, no permission) is a warning on
 * stderr and counted in `unread`; the others are linted.
 */
function filesOf(target: string): { files: string[]; unread: number } {
  if (target === '-') return { files: [target], unread: 0 };
  let isDir: boolean;
  try {
    isDir = statSync(target).isDirectory();
  } catch (e) {
    throw new CliError(`cannot read robots file ${target}: ${reason(e)}`);
  }
  if (!isDir) return { files: [target], unread: 0 };
  let names: string[];
  try {
    names = readdirSync(target).sort();
  } catch (e) {
    throw new CliError(`cannot read directory ${target}: ${reason(e)}`);
  }
  const files: string[] = [];
  let unread = 0;
  for (const name of names) {
    const file = join(target, name);
    let why: string | undefined;
    try {
      const s = statSync(file);
      if (s.isDirectory()) continue;
      if (s.isFile()) accessSync(file, constants.R_OK);
      else why = 'not a regular file'; // a FIFO would block the read, a device never end it
    } catch (e) {
      why = reason(e);
    }
    if (why === undefined) {
      files.push(file);
    } else {
      unread++;
      process.stderr.write(`robots: warning: cannot read ${file}: ${why}; not linted\n`);
    }
  }
  if (files.length === 0) throw new CliError(`no files to lint in ${target}`);
  return { files, unread };
}

function asText(file: string, r: LintReport, many: boolean): string {
  const out = r.findings.map((f) => `${file}:${f.line}: ${f.severity}: ${f.message} [${f.code}]`);
  for (const s of r.sitemaps) out.push(`${many ? `${file}: ` : ''}sitemap: ${s}`);
  for (const d of r.crawlDelays) {
    const who = d.agents === '' ? 'every crawler without one of its own (before any user-agent line)' : `user-agent ${d.agents} (line ${d.line})`;
    out.push(`${many ? `${file}: ` : ''}crawl-delay: ${d.delay} s for ${who}`);
  }
  out.push(`${many ? `${file}: ` : ''}${plural(r.errors, 'error')}, ${plural(r.warnings, 'warning')}`);
  return out.join('\n');
}
