// RequestThread (src/bulk/base/request-thread.ts), the request/reply skeleton
// of the classification and index threads, on a real worker thread: replies
// settle their own requests whatever their order, a reply's error fails only its
// request, and a thread that throws or exits on its own fails every request
// still waiting (never a request left hanging), while stop() fails none.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { RequestThread, type ThreadProtocol } from '../../src/bulk/base/request-thread.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'request-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A thread that answers { seq, n } with n * 2, in reverse order of a pair; says "ready" first; fails,
// throws or exits when asked.
const script = pathToFileURL(path.join(dir, 'worker.mjs'));
writeFileSync(script, `
import { parentPort } from 'node:worker_threads';
parentPort.postMessage({ ready: true });
let held;
parentPort.on('message', (m) => {
  if (m.spare) return parentPort.postMessage({ seq: -1, spareBack: m.spare.byteLength });
  if (m.op === 'fail') return parentPort.postMessage({ seq: m.seq, error: 'bad input' });
  if (m.op === 'throw') throw new Error('boom');
  if (m.op === 'exit') process.exit(3);
  if (m.op === 'hold') return void (held = m);
  if (held) { parentPort.postMessage({ seq: m.seq, n: m.n * 2 }); parentPort.postMessage({ seq: held.seq, n: held.n * 2 }); held = undefined; return; }
  parentPort.postMessage({ seq: m.seq, n: m.n * 2 });
});
`);

interface Req { seq: number; n?: number; op?: string }
interface Rep { seq: number; n?: number; error?: string; spareBack?: number }

function thread(seen: unknown[] = []): RequestThread<Req, Rep> {
  const protocol: ThreadProtocol<Rep> = {
    aside: (m) => {
      seen.push(m);
      return 'ready' in (m as object) || (m as Rep).spareBack !== undefined;
    },
    errorOf: (r) => (r.error === undefined ? undefined : new Error(`failed: ${r.error}`)),
    crashed: (e) => new Error(`crashed: ${e.message}`),
    exited: (code) => new Error(`exited ${code}`),
  };
  return new RequestThread<Req, Rep>(script, {}, protocol);
}

describe('RequestThread', () => {
  it('settles each request with its own reply, whatever order they come in, and counts those waiting', async () => {
    const t = thread();
    const a = t.request({ seq: 0, n: 1, op: 'hold' });
    expect(t.pending).toBe(1);
    const b = t.request({ seq: 1, n: 5 });
    expect(t.pending).toBe(2);
    expect((await b).n).toBe(10);
    expect((await a).n).toBe(2);
    expect(t.pending).toBe(0);
    await t.stop();
  });

  it("fails only the request whose reply carries an error, with the protocol's error", async () => {
    const t = thread();
    await expect(t.request({ seq: 0, op: 'fail' })).rejects.toThrow('failed: bad input');
    expect((await t.request({ seq: 1, n: 4 })).n).toBe(8);
    await t.stop();
  });

  it('shows every message to aside() first, and a message it keeps is no reply', async () => {
    const seen: unknown[] = [];
    const t = thread(seen);
    const buffer = new ArrayBuffer(64);
    t.post({ spare: buffer }, [buffer]);
    expect(buffer.byteLength).toBe(0); // transferred
    expect((await t.request({ seq: 0, n: 3 })).n).toBe(6);
    expect(seen).toContainEqual({ ready: true });
    expect(seen).toContainEqual({ seq: -1, spareBack: 64 });
    await t.stop();
  });

  it('fails every request waiting when the thread throws', async () => {
    const t = thread();
    const held = t.request({ seq: 0, n: 1, op: 'hold' });
    const boom = t.request({ seq: 1, op: 'throw' });
    await expect(held).rejects.toThrow('crashed: boom');
    await expect(boom).rejects.toThrow('crashed: boom');
    expect(t.pending).toBe(0);
  });

  it('fails every request waiting when the thread exits on its own', async () => {
    const t = thread();
    const held = t.request({ seq: 0, n: 1, op: 'hold' });
    const exit = t.request({ seq: 1, op: 'exit' });
    await expect(held).rejects.toThrow('exited 3');
    await expect(exit).rejects.toThrow('exited 3');
  });

  it('stop() fails nothing: nobody waits for the replies any more', async () => {
    const t = thread();
    let settled = false;
    void t.request({ seq: 0, n: 1, op: 'hold' }).then(() => (settled = true), () => (settled = true));
    expect(t.pending).toBe(1);
    await t.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.pending).toBe(0);
    expect(settled).toBe(false);
  });
});
