// A worker thread and the requests it has not answered yet: each request has a
// seq, each reply names its request's seq, and the caller awaits the reply as a
// promise. A thread that fails or stops on its own fails every request still
// waiting. The classification threads (../threads/worker-pool.ts, ../threads/routed-pool.ts) and
// robots index's reading threads (../index/index-pool.ts) are each one of these.
import { Worker } from 'node:worker_threads';

/** How a kind of thread's messages are read. */
export interface ThreadProtocol<Reply extends { seq: number }> {
  /** Sees every message first; true when it is not a reply (a thread's "ready", say). */
  aside?(message: unknown): boolean;
  /** The error a reply fails its request with, or undefined: the reply is the answer. */
  errorOf(reply: Reply): Error | undefined;
  /** What the requests waiting fail with when the thread throws. */
  crashed(e: Error): Error;
  /** What they fail with when the thread stops on its own (not by stop()). */
  exited(code: number): Error;
}

interface Waiting<Reply> {
  resolve(r: Reply): void;
  reject(e: Error): void;
}

export class RequestThread<Request extends { seq: number }, Reply extends { seq: number }> {
  readonly worker: Worker;
  private readonly waiting = new Map<number, Waiting<Reply>>();
  private closing = false;

  constructor(script: URL, workerData: unknown, protocol: ThreadProtocol<Reply>) {
    this.worker = new Worker(script, { workerData });
    this.worker.on('message', (m: unknown) => {
      if (protocol.aside?.(m)) return;
      const r = m as Reply;
      const w = this.waiting.get(r.seq);
      if (w === undefined) return; // the run is over (stop()): nobody waits for it
      this.waiting.delete(r.seq);
      const e = protocol.errorOf(r);
      if (e === undefined) w.resolve(r);
      else w.reject(e);
    });
    this.worker.on('error', (e) => this.failAll(protocol.crashed(e)));
    this.worker.on('exit', (code) => {
      if (!this.closing) this.failAll(protocol.exited(code));
    });
  }

  /** Requests not answered yet. */
  get pending(): number {
    return this.waiting.size;
  }

  /** Sends a request (its buffers in `transfer` move to the thread); its reply, or its failure. */
  request(request: Request, transfer: ArrayBuffer[] = []): Promise<Reply> {
    return new Promise((resolve, reject) => {
      this.waiting.set(request.seq, { resolve, reject });
      this.worker.postMessage(request, transfer);
    });
  }

  /** A message that is not a request (nothing answers it). */
  post(message: unknown, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(message, transfer);
  }

  /** Stops the thread: nobody waits for its replies any more. */
  stop(): Promise<number> {
    this.closing = true;
    this.waiting.clear();
    return this.worker.terminate();
  }

  private failAll(e: Error): void {
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }
}
