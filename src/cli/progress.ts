// Progress of a long classification (or audit) on stderr, only when stderr is a terminal
// (cli-progress: a maintained bar that redraws in place and cleans up after itself).
import cliProgress from 'cli-progress';
import { thousands } from './numbers.js';

export class Progress {
  private readonly bar: cliProgress.SingleBar | null;
  private readonly began = performance.now();

  /** total: input octets when known (a file), else 0 (stdin: counts only); `what`: the command and what it counts. */
  constructor(enabled: boolean, private readonly total: number, what: { label: string; unit: string } = { label: 'classify', unit: 'URLs' }) {
    if (!enabled) {
      this.bar = null;
      return;
    }
    // (Our own ETA: the bar's own, from its last updates, was far off while the threads started.)
    const { label, unit } = what;
    const format = total > 0
      ? `${label} [{bar}] {percentage}% | {urls} ${unit} | {rate} ${unit}/s | ETA {remaining}`
      : `${label} {urls} ${unit} | {rate} ${unit}/s`;
    this.bar = new cliProgress.SingleBar(
      { format, stream: process.stderr, hideCursor: true, clearOnComplete: true, fps: 5, etaBuffer: 50 },
      cliProgress.Presets.shades_classic,
    );
    this.bar.start(Math.max(total, 1), 0, { urls: '0', rate: '0', remaining: '…' });
  }

  update(consumed: number, urls: number): void {
    if (this.bar === null) return;
    const seconds = (performance.now() - this.began) / 1000;
    const rate = thousands(Math.round(urls / Math.max(seconds, 1e-3)));
    this.bar.update(consumed, { urls: thousands(urls), rate, remaining: remaining(seconds, consumed, this.total) });
  }

  /** A line on stderr above the bar (or alone, without one). */
  interrupt(line: string): void {
    // Over the bar's line (cleared); the bar draws itself again below on its next tick.
    process.stderr.write(this.bar === null ? `${line}\n` : `\r\x1b[K${line}\n`);
  }

  stop(): void {
    this.bar?.stop();
  }
}

/** The time left at the average rate so far: once a second and 2% of the input have passed. */
export function remaining(seconds: number, consumed: number, total: number): string {
  if (seconds < 1 || consumed < total * 0.02) return '…';
  const left = Math.round((seconds * (total - consumed)) / consumed);
  return left < 60 ? `${left}s` : `${Math.floor(left / 60)}m${String(left % 60).padStart(2, '0')}s`;
}

/** The --robots-warc indexing pass: octets of WARC read. */
export class IndexProgress {
  private readonly bar: cliProgress.SingleBar | null;
  private started = false;

  constructor(enabled: boolean) {
    this.bar = enabled
      ? new cliProgress.SingleBar({ format: 'index WARC [{bar}] {percentage}% | {mib} MiB', stream: process.stderr, hideCursor: true, clearOnComplete: true, fps: 5 }, cliProgress.Presets.shades_classic)
      : null;
  }

  update(octets: number, total: number): void {
    if (this.bar === null) return;
    if (!this.started) {
      this.bar.start(Math.max(total, 1), 0, { mib: '0' });
      this.started = true;
    }
    this.bar.update(octets, { mib: (octets / 2 ** 20).toFixed(1) });
  }

  interrupt(line: string): void {
    process.stderr.write(this.bar === null || !this.started ? `${line}\n` : `\r\x1b[K${line}\n`);
  }

  stop(): void {
    if (this.started) this.bar?.stop();
  }
}

/** A --robots-warc-list's files: read (or skipped) of all, MiB read and the rate, MiB downloaded. */
export class WarcListProgress {
  private readonly bar: cliProgress.SingleBar | null;
  private readonly began = performance.now();
  private list = { done: 0, total: 1, downloaded: 0 };
  private read = 0;
  private started = false;

  constructor(enabled: boolean) {
    this.bar = enabled
      ? new cliProgress.SingleBar({ format: 'WARC files [{bar}] {value}/{total} | {mib} MiB read, {rate} MiB/s | {down} MiB downloaded', stream: process.stderr, hideCursor: true, clearOnComplete: true, fps: 5 }, cliProgress.Presets.shades_classic)
      : null;
  }

  /** The list's side: files done, downloads. */
  update(p: { done: number; total: number; downloaded: number }): void {
    this.list = p;
    this.draw();
  }

  /** The reader's side: octets of WARC read. */
  reading(octets: number): void {
    this.read = octets;
    this.draw();
  }

  private draw(): void {
    if (this.bar === null) return;
    const mib = (n: number) => (n / 2 ** 20).toFixed(1);
    const values = { mib: mib(this.read), rate: mib(this.read / Math.max((performance.now() - this.began) / 1000, 1e-3)), down: mib(this.list.downloaded) };
    if (!this.started) {
      this.bar.start(this.list.total, this.list.done, values);
      this.started = true;
    }
    this.bar.update(this.list.done, values);
  }

  interrupt(line: string): void {
    process.stderr.write(this.bar === null || !this.started ? `${line}\n` : `\r\x1b[K${line}\n`);
  }

  stop(): void {
    if (this.started) this.bar?.stop();
  }
}
