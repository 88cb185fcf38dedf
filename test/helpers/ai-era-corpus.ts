// The AI-era corpus (scripts/make-ai-era-corpus.mjs over the shared corpus, its
// default seed): OUT/robots/<host>, OUT/INDEX.tsv, OUT/robotstxt.warc.gz,
// OUT/urls.txt. Made once a run (test/helpers/made-once.ts) for the suites that
// read it; read it, never write into it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { madeOnce } from './made-once.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const AI_ERA_SCRIPT = path.join(ROOT, 'scripts', 'make-ai-era-corpus.mjs');

/** Runs the script: its exit status and what it wrote. */
export function runAiEraScript(out: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [AI_ERA_SCRIPT, out, ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The folder of the AI-era corpus, made by the script if no suite of the run has yet. */
export function aiEraCorpus(): Promise<string> {
  return madeOnce('ai-era', async (out) => {
    const r = await runAiEraScript(out);
    if (r.code !== 0 || r.stderr !== '') throw new Error(`make-ai-era-corpus.mjs: exit ${r.code}\n${r.stderr}`);
  });
}
