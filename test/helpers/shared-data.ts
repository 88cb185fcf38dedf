// Access to the test data in ../shared (never copied into the project). Suites
// that need it skip, saying why, when it is absent.
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const SHARED = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../shared');
export const HAVE_SHARED = existsSync(path.join(SHARED, 'conformance', 'verdicts.json'));
if (!HAVE_SHARED) {
  // CI always has it: there a skipped data suite would pass silently, so it fails.
  if (process.env.CI === 'true') throw new Error(`[tests] ${SHARED} is absent under CI=true: the conformance and corpus suites cannot run`);
  console.warn(`[tests] ${SHARED} is absent: conformance and corpus suites are skipped`);
}

export interface Vector {
  id: string;
  source: string;
  robots?: string;
  robots_b64?: string;
  agents: string[];
  url: string;
  allowed: boolean;
  google_allowed?: boolean;
  tags: string[];
}

export function vectorBody(v: { robots?: string; robots_b64?: string }): Uint8Array {
  return v.robots_b64 !== undefined ? new Uint8Array(Buffer.from(v.robots_b64, 'base64')) : new TextEncoder().encode(v.robots ?? '');
}

export function readJson<T>(rel: string): T {
  return JSON.parse(readFileSync(path.join(SHARED, rel), 'utf8')) as T;
}

export function readJsonLinesGz<T>(rel: string): T[] {
  const text = gunzipSync(readFileSync(path.join(SHARED, rel))).toString('utf8');
  return text.split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l) as T);
}

export function corpusFile(host: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(SHARED, 'corpus', 'robots', host)));
}

/** One of Google's verdicts on the corpus (corpus/google-verdicts-seed1.jsonl.gz). */
export interface GoogleVerdict {
  url: string;
  agent: string;
  allowed: boolean;
  line: number;
}
