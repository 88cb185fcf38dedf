// The WARC files of a command (robots classify; robots index takes the same
// options): --robots-warc files, and --robots-warc-list lists whose URLs are
// downloaded with bounded retries (bulk/sources/warc/warc-list.ts). Here: the
// options read, the warnings and progress bar on stderr, the closing line.
import { type WarcFiles, warcFilesOf } from '../bulk/sources/warc/warc-list.js';
import { DOWNLOAD_DEFAULTS } from '../bulk/sources/warc/warc-download.js';
import { CliError } from './errors.js';
import { IndexProgress, WarcListProgress } from './progress.js';
import { thousands } from './numbers.js';

declare const VERSION: string; // set by the build (package.json)

export interface WarcInputOptions {
  robotsWarc?: string[];
  robotsWarcList?: string[];
  warcBase?: string;
  warcRetries?: string;
  warcTimeoutMs?: string;
  warcMaxMb?: string;
  /** The User-Agent header of the downloads (default robots-wasm/VERSION). */
  userAgent?: string;
  quiet?: boolean;
}

/** A command's WARC files, read by indexWarcs(files, { warn, progress }). */
export interface WarcRun {
  files: readonly string[] | WarcFiles;
  warn(line: string): void;
  progress?(octets: number, total: number): void;
  /** Ends the progress bar. */
  stop(): void;
  /** After the reading: what was downloaded and skipped, for the summary ('' when nothing was listed). */
  note(): string;
  /** List entries skipped (a URL that failed after its retries): the command ends with exit 1. */
  skipped(): number;
}

/** Exit code of a run that finished but skipped WARC files of a list (each said on stderr). */
export const EXIT_SKIPPED = 1;

export async function warcRunOf(command: string, o: WarcInputOptions): Promise<WarcRun> {
  const show = process.stderr.isTTY === true && !o.quiet;
  const prefix = `robots ${command}: warning: `;
  if (o.robotsWarcList === undefined) {
    // --robots-warc alone: the files as they are, the octets' bar.
    const bar = new IndexProgress(show);
    return {
      files: o.robotsWarc ?? [],
      warn: (line) => bar.interrupt(prefix + line),
      progress: (octets, total) => bar.update(octets, total),
      stop: () => bar.stop(),
      note: () => '',
      skipped: () => 0,
    };
  }
  const bar = new WarcListProgress(show);
  const files = await warcFilesOf(
    { files: o.robotsWarc, lists: o.robotsWarcList, base: o.warcBase },
    {
      userAgent: o.userAgent ?? `robots-wasm/${VERSION}`,
      retries: whole(o.warcRetries, '--warc-retries', 0, 100) ?? DOWNLOAD_DEFAULTS.retries,
      timeoutMs: whole(o.warcTimeoutMs, '--warc-timeout-ms', 1, 2 ** 31 - 1) ?? DOWNLOAD_DEFAULTS.timeoutMs,
      maxOctets: (whole(o.warcMaxMb, '--warc-max-mb', 1, 2 ** 32) ?? DOWNLOAD_DEFAULTS.maxOctets / 2 ** 20) * 2 ** 20,
    },
    { warn: (line) => bar.interrupt(prefix + line), progress: (p) => bar.update(p) },
  );
  return {
    files,
    // (The reader names a download by its temporary file: the URL instead.)
    warn: (line) => bar.interrupt(prefix + files.named(line)),
    progress: (octets) => bar.reading(octets),
    stop: () => bar.stop(),
    note: () => {
      const s = files.skipped.length;
      return `; ${thousands(files.downloaded)} of ${thousands(files.total)} downloaded (${(files.downloadedOctets / 2 ** 20).toFixed(1)} MiB)` +
        (s > 0 ? `; ${thousands(s)} skipped (said above): their captures are missing` : '');
    },
    skipped: () => files.skipped.length,
  };
}

/** A whole number option in [min, max], or undefined when not given. */
function whole(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max || value.trim() === '') throw new CliError(`${flag} must be a whole number from ${min} to ${thousands(max)}, got "${value}"`);
  return n;
}
