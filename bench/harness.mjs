// Runs workloads over engines and gathers every figure into one results object
// (the shape written to bench/results/*.json and read by the report).
import os from 'node:os';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BASELINE_ID } from './adapters/index.mjs';
import { formatFigure } from './format.mjs';
import { runInRounds } from './rounds.mjs';

export const RESULTS_SCHEMA = 1;

// A full garbage collection before each engine's turn: an engine measured
// after others would otherwise pay for their garbage (the old generation it
// leaves makes every young collection of the next engine slower).
v8.setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc');

export function machineInfo() {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    cpu: cpus[0]?.model ?? 'unknown CPU',
    cores: cpus.length,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    memoryGB: Math.round(os.totalmem() / 2 ** 30),
  };
}

/**
 * ctx: { agent, quick, budget, corpus(), verdicts() } (corpus/verdicts only called
 * by workloads that need them). log(line) reports progress.
 */
export async function runWorkloads({ adapters, skipped = /** @type {{ module: string, reason: string }[]} */ ([]), workloads, ctx, log = (/** @type {string} */ _line) => {} }) {
  const began = performance.now();
  const results = {
    schema: RESULTS_SCHEMA,
    date: new Date().toISOString(),
    quick: ctx.quick,
    machine: machineInfo(),
    agent: ctx.agent,
    baseline: BASELINE_ID,
    engines: adapters.map(({ id, label, library, version, api, profile }) => ({ id, label, library, version, api, ...(profile ? { profile } : {}) })),
    skipped,
    workloads: /** @type {object[]} */ ([]),
    durationSeconds: 0,
  };
  for (const workload of workloads) {
    const t0 = performance.now();
    const entry = { id: workload.id, title: workload.title, kind: workload.kind, unit: workload.unit, description: workload.describe(ctx), results: {}, ...(workload.baseline ? { baseline: workload.baseline } : {}), seconds: 0 };
    log(`${workload.id}: ${entry.description}`);
    // An engine measured in its own process (Google's native build, the Python parsers) has
    // figures for the workloads it names, taken by its driver (peers/external.mjs).
    const applicable = adapters.filter((a) => (a.ownProcess ? a.measures.includes(workload.id) : !workload.appliesTo || workload.appliesTo(a)));
    workload.prepare?.(ctx, applicable.filter((a) => !a.ownProcess)); // work that may start for every engine at once
    const rounds = workload.inRounds && applicable.some((a) => a.ownProcess) ? await runInRounds(workload, applicable, ctx, collectGarbage) : undefined;
    for (const adapter of applicable) {
      if (rounds) {
        const r = rounds.get(adapter.id);
        if (r === undefined) continue;
        entry.results[adapter.id] = r;
        log(`  ${adapter.label.padEnd(34)} ${r.error ? `error: ${r.error}` : `${formatFigure(r.median, workload.unit)} ${workload.unit} (${r.rounds} round${r.rounds === 1 ? '' : 's'})`}`);
        continue;
      }
      collectGarbage();
      const t1 = performance.now();
      try {
        const figures = adapter.ownProcess && workload.id !== 'agreement' ? await adapter.runWorkload(workload, ctx) : await workload.run(ctx, adapter);
        if (figures === undefined) continue;
        entry.results[adapter.id] = figures;
      } catch (e) {
        entry.results[adapter.id] = { error: String(e instanceof Error ? e.message : e) };
      }
      const r = entry.results[adapter.id];
      r.seconds = (performance.now() - t1) / 1000; // what this engine cost the run (budgets)
      log(`  ${adapter.label.padEnd(34)} ${r.error ? `error: ${r.error}` : `${formatFigure(r.median, workload.unit)}${workload.unit === '%' ? '' : ` ${workload.unit}`}`}`);
    }
    workload.done?.();
    entry.seconds = (performance.now() - t0) / 1000;
    results.workloads.push(entry);
  }
  results.durationSeconds = (performance.now() - began) / 1000;
  return results;
}
