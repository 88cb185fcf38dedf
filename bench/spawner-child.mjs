// The bench's spawner (spawner.mjs says why): runs each child process its parent
// asks for, as execFile would, and sends back the output or the failure.
import { execFile } from 'node:child_process';

process.on('message', (/** @type {{ id: number, file: string, args: string[], maxBuffer?: number }} */ m) => {
  execFile(m.file, m.args, { maxBuffer: m.maxBuffer ?? 1 << 30, encoding: 'utf8' }, (error, stdout, stderr) => {
    const failure = error ? { message: error.message, code: /** @type {NodeJS.ErrnoException} */ (error).code } : undefined;
    process.send?.({ id: m.id, stdout, stderr, ...(failure ? { error: failure } : {}) });
  });
});
// Its parent gone, it goes too.
process.on('disconnect', () => process.exit(0));
