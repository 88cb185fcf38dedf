// A thread of robots audit (audit-pool.ts): blocks of sites in, each audited
// here as the main thread would (audit-block.ts), the lines and records back.
import { parentPort, workerData } from 'node:worker_threads';

import { operatorById, type Operator } from '../../data/operators.js';
import { reason } from '../base/errors.js';
import { auditBlock } from '../audit/audit-block.js';
import { captureReader, dirReader, type RobotsReader } from '../audit/audit-sites.js';
import { SiteAuditor } from '../audit/site-audit.js';
import { sharedIndexData } from './shared-captures.js';
import type { AuditReply, AuditRequest, AuditWorkerData } from './audit-pool.js';

const port = parentPort!;
const { settings, format, labels, source } = workerData as AuditWorkerData;
const operators = settings.operators?.map((id) => operatorById(id) as Operator);
const auditor = new SiteAuditor({ ...settings, operators });
const read: RobotsReader = 'dir' in source ? dirReader(source.dir, settings.maxOctets) : captureReader(sharedIndexData(source.captures));

port.on('message', (request: AuditRequest) => {
  let reply: AuditReply;
  try {
    reply = { seq: request.seq, ...auditBlock(auditor, request.sites, (s) => read(s.origin), format, labels) };
  } catch (e) {
    reply = { seq: request.seq, error: reason(e) };
  }
  port.postMessage(reply);
});
