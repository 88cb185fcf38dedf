// Progress of a long classification on stderr, only when stderr is a terminal
// (cli-progress: a maintained bar that redraws in place and cleans up after itself).
import cliProgress from 'cli-progress';
import { thousands } from './numbers.js';

export class Progress {
  private readonly bar: cliProgress.SingleBar | null;
  private readonly began = performance.now();

  /** total: input octets when known (a file), else 0 (stdin: counts only). */
  constructor(enabled: boolean, total: number) {
    if (!enabled) {
      this.bar = null;
      return;
    }
    const format = total > 0
      ? 'classify [{bar}] {percentage}% | {urls} URLs | {rate} URLs/s | ETA {eta_formatted}'
      : 'classify {urls} URLs | {rate} URLs/s';
    this.bar = new cliProgress.SingleBar(
      { format, stream: process.stderr, hideCursor: true, clearOnComplete: true, fps: 5, etaBuffer: 50 },
      cliProgress.Presets.shades_classic,
    );
    this.bar.start(Math.max(total, 1), 0, { urls: '0', rate: '0' });
  }

  update(consumed: number, urls: number): void {
    if (this.bar === null) return;
    const seconds = (performance.now() - this.began) / 1000;
    this.bar.update(consumed, { urls: thousands(urls), rate: thousands(Math.round(urls / Math.max(seconds, 1e-3))) });
  }

  stop(): void {
    this.bar?.stop();
  }
}
