// Preloaded into a command's process (node --import) by the classify tools: at its exit,
// the main thread's CPU seconds on stderr, "main thread cpu S", read up to date
// (../thread-clock.mjs says why the file alone is not).
import { threadCpuMs } from '../thread-clock.mjs';

process.on('exit', () => process.stderr.write(`main thread cpu ${threadCpuMs() / 1000}\n`));
