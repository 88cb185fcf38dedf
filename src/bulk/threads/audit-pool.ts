// robots audit's threads (audit-worker.ts): blocks of sites handed to the
// least busy thread, each audited there (its robots.txt read by the thread's
// own reader: a --robots-dir, or the captures in shared memory), the block's
// lines and records back as the reply; the caller awaits the replies in
// submission order, so the output and the summary are one thread's.
import { BulkError } from '../base/errors.js';
import { RequestThread } from '../base/request-thread.js';
import type { SharedCapturesData } from './shared-captures.js';
import type { SiteName } from '../audit/audit-sites.js';
import type { AuditedBlock } from '../audit/audit-block.js';
import type { AuditFormat, CategoryLabels } from '../audit/audit-output.js';
import type { AuditSettings } from '../audit/site-audit.js';

/** What a thread is started with: the settings (operators by id: each thread has the data), and the source. */
export interface AuditWorkerData {
  settings: Omit<AuditSettings, 'operators'> & { operators?: string[] };
  format: AuditFormat | null;
  labels: CategoryLabels;
  source: { dir: string } | { captures: SharedCapturesData };
}

export interface AuditRequest {
  seq: number;
  sites: SiteName[];
}

export interface AuditReply extends Partial<AuditedBlock> {
  seq: number;
  error?: string;
}

class AuditThread extends RequestThread<AuditRequest, AuditReply> {
  constructor(data: AuditWorkerData) {
    super(new URL('./audit-worker.js', import.meta.url), data, {
      errorOf: (r) => (r.error === undefined ? undefined : new BulkError(`robots audit: a thread failed: ${r.error}`)),
      crashed: (e) => new BulkError(`robots audit: a thread failed: ${e.message}`),
      exited: (code) => new BulkError(`robots audit: a thread stopped (exit code ${code})`),
    });
  }
}

export class AuditPool {
  private readonly threads: AuditThread[];
  private seq = 0;

  constructor(size: number, data: AuditWorkerData) {
    this.threads = Array.from({ length: size }, () => new AuditThread(data));
  }

  /** The block audited by the least busy thread. */
  async audit(sites: SiteName[]): Promise<AuditedBlock> {
    let t = this.threads[0];
    for (const x of this.threads) if (x.pending < t.pending) t = x;
    const r = await t.request({ seq: this.seq++, sites });
    return { text: r.text!, records: r.records!, unreadable: r.unreadable! };
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.stop()));
  }
}
