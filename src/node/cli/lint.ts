// `robots lint FILE|DIR`: the findings (lines ignored or bent, and mistakes
// that parse fine but do not do what was meant), one per line with its line
// number, then the sitemaps and crawl-delays found; every file of a directory.
// Exit 1 when there are errors.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { lint, type LintReport } from '../../engine/lint.js';
import { CliError, reason } from './errors.js';
import { parseFormat, parseMaxBytes, parseProfile } from './options.js';
import { readRobotsFile } from './robots-file.js';

export interface LintOptions {
  profile: string;
  maxBytes: string;
  format?: string;
}

export function lintCommand(target: string, options: LintOptions): number {
  const profile = parseProfile(options.profile);
  const maxBytes = parseMaxBytes(options.maxBytes);
  const json = parseFormat(options.format);
  const files = filesOf(target);
  const reports = files.map((file) => ({ file, ...lint(readRobotsFile(file), { profile, maxBytes }) }));
  if (json) {
    process.stdout.write(JSON.stringify(files.length === 1 && target === files[0] ? reports[0] : reports) + '\n');
  } else {
    process.stdout.write(reports.map((r) => asText(r.file, r, files.length > 1)).join('\n') + '\n');
  }
  return reports.some((r) => r.errors > 0) ? 1 : 0;
}

/** The file, or each regular file of a directory (sorted; not recursive). */
function filesOf(target: string): string[] {
  if (target === '-') return [target];
  let isDir: boolean;
  try {
    isDir = statSync(target).isDirectory();
  } catch (e) {
    throw new CliError(`cannot read robots file ${target}: ${reason(e)}`);
  }
  if (!isDir) return [target];
  const files = readdirSync(target).sort().map((n) => join(target, n)).filter((f) => statSync(f, { throwIfNoEntry: false })?.isFile());
  if (files.length === 0) throw new CliError(`no files to lint in ${target}`);
  return files;
}

function asText(file: string, r: LintReport, many: boolean): string {
  const out = r.findings.map((f) => `${file}:${f.line}: ${f.severity}: ${f.message} [${f.code}]`);
  for (const s of r.sitemaps) out.push(`${many ? `${file}: ` : ''}sitemap: ${s}`);
  for (const d of r.crawlDelays) {
    const who = d.agents === '' ? 'every crawler without one of its own (before any user-agent line)' : `user-agent ${d.agents} (line ${d.line})`;
    out.push(`${many ? `${file}: ` : ''}crawl-delay: ${d.delay} s for ${who}`);
  }
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  out.push(`${many ? `${file}: ` : ''}${plural(r.errors, 'error')}, ${plural(r.warnings, 'warning')}`);
  return out.join('\n');
}
