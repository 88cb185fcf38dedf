// Rounds for a workload that compares this process's engines with engines measured in a
// process of their own (peers/external.mjs), where a pass is short (parse, first-verdict:
// a fraction of a second over the corpus). Timed engine after engine, the in-process engines' passes
// fell in one short stretch and Google's native driver's samples spread over its far longer run, so on
// a shared machine one median came from a busy stretch and the other from a quiet one: the
// ratio to the native driver nearly doubled from one run to the next. Here each
// round gives every engine a turn (turnOrder): an in-process engine PASSES timed passes after
// its warm-up, an own-process one a short driver run on the same files and first probes
// (its first repetition the warm-up); each engine's passes of all rounds are pooled and their
// median taken, so every median is drawn from the same stretches of time. And every engine is
// timed in the CPU time of the thread that runs it, not in wall clock (which counts the time
// other processes hold the cores): this process's main thread (threadCpuMs), a driver's
// thread (Google's native driver built so, peers/thread-cpu-clock.cc; the Python drivers'
// thread_time). If a driver cannot (google-check-cpu not built), the round is in wall clock.
// (A workload opts in with inRounds; afterRounds(merged) may finish its figures.)
import { threadCpuClock } from './thread-clock.mjs';

/** Rounds of a full run (a quick run has one). */
export const ROUNDS = 8;

/** Timed passes of an engine's turn: as many as a driver's round gives (3 repetitions after its warm-up, 2 passes each). */
export const PASSES = 6;

/**
 * An in-process engine's budget for one round: PASSES timed passes, however long they take
 * (a budget of time would let a fast stretch of the machine give more passes than a slow
 * one, and pull the pooled median up), their rates kept; and a warm-up of 3 passes (with
 * measureParse's first, untimed, 4) every round:
 * after the other engines' turns (and the collection before each turn) this engine's first
 * passes are several times slower than its steady state (first-verdict, wasm-google: steady
 * from the third pass on), as a driver's first repetition of a
 * round is (peers/external.mjs drops it). (Part of that was the driver's start: a fork of
 * this process made its next passes fault page by page. The drivers are started by the
 * spawner now, ./spawner.mjs, and the warm-up stays for the rest.)
 */
export function roundBudget(budget) {
  return { ...budget, time: 0, iterations: PASSES, warmupTime: 0, warmupIterations: 3, keepPasses: true };
}

/**
 * The order of round r's turns: turned by r / 2, backwards in odd rounds (three engines: all
 * six orders in six rounds), so that no engine always follows the same one (turned by one
 * each round, wasm-google always followed Google's native driver and wasm-rfc wasm-google).
 */
export function turnOrder(adapters, r) {
  const k = Math.floor(r / 2);
  const turned = adapters.map((_, i) => adapters[(i + k) % adapters.length]);
  return r % 2 === 1 ? turned.reverse() : turned;
}

const median = (/** @type {number[]} */ s) => s[Math.floor(s.length / 2)];

/**
 * The CPU time of this process's main thread, the one that runs the engines, in ms (Linux's
 * /proc/thread-self/schedstat, brought up to date first: ./thread-clock.mjs; elsewhere the
 * whole process's, process.cpuUsage()). Not the whole process's: V8's helper threads finish
 * the collection the harness makes before each turn (sweeping) during the turn's passes, and
 * billed so, wasm-google measured slower than its own twin (bench/tools/rounds-check.mjs; on
 * its main thread, within noise of it). What this leaves out: the helpers' share of the
 * engine's own work, a few percent of a pass in steady state. Made at the first rounds (it
 * checks itself on a millisecond of work; its kind, thread or process, goes with the results).
 * @type {{ now: () => number, kind: 'thread' | 'process' } | undefined}
 */
let threadClock;

/**
 * One engine's figures from its rounds' (each with `passes`, the rate of each pass in the
 * workload's unit): the median, slowest and fastest of the pooled passes; files/s scaled
 * from each round's own ratio of files to units; firstCheckMBps (parse's figure with the
 * first check) the median of the rounds'; the other fields from the first round.
 */
export function mergeRounds(figures) {
  const ok = figures.filter((f) => !f.error);
  if (ok.length < figures.length) return figures.find((f) => f.error);
  const passes = [];
  const filePasses = [];
  for (const f of ok) {
    const own = f.passes ?? [f.median];
    passes.push(...own);
    if (f.filesPerSecond) filePasses.push(...own.map((p) => (p * f.filesPerSecond.median) / f.median));
  }
  passes.sort((a, b) => a - b);
  filePasses.sort((a, b) => a - b);
  const { passes: _passes, ...first } = ok[0];
  const checks = ok.map((f) => f.firstCheckMBps).filter((x) => x !== undefined).sort((a, b) => a - b);
  return {
    ...first,
    ...(checks.length ? { firstCheckMBps: median(checks) } : {}),
    median: median(passes), min: passes[0], max: passes[passes.length - 1], samples: passes.length,
    ...(filePasses.length ? { filesPerSecond: { median: median(filePasses), min: filePasses[0], max: filePasses[filePasses.length - 1] } } : {}),
    rounds: ok.length,
  };
}

/**
 * Runs `workload` over `adapters` in rounds; returns each engine's merged figures by id and
 * the seconds each took. beforeTurn() runs before every turn (the harness's collection).
 */
export async function runInRounds(workload, adapters, ctx, beforeTurn = () => {}) {
  const rounds = ctx.quick ? 1 : ROUNDS;
  const clock = adapters.every((a) => !a.ownProcess || a.cpuClock) ? 'cpu' : 'wall';
  threadClock ??= threadCpuClock();
  const threadCpuMs = threadClock.now;
  const budget = { ...roundBudget(ctx.budget), ...(clock === 'cpu' ? { now: threadCpuMs } : {}) };
  /** @type {Map<string, object[]>} */
  const figures = new Map(adapters.map((a) => [a.id, []]));
  const seconds = new Map(adapters.map((a) => [a.id, 0]));
  for (let r = 0; r < rounds; r++) {
    for (const adapter of turnOrder(adapters, r)) {
      beforeTurn();
      const t0 = performance.now();
      let f;
      try {
        f = adapter.ownProcess ? await adapter.runRound(workload, { ...ctx, roundClock: clock }) : await workload.run({ ...ctx, budget }, adapter);
      } catch (e) {
        f = { error: String(e instanceof Error ? e.message : e) };
      }
      seconds.set(adapter.id, (seconds.get(adapter.id) ?? 0) + (performance.now() - t0) / 1000);
      if (f !== undefined) figures.get(adapter.id)?.push(f);
    }
  }
  const results = new Map();
  for (const [id, list] of figures) {
    if (list.length === 0) continue;
    const merged = mergeRounds(list);
    results.set(id, { ...(merged.error || !workload.afterRounds ? merged : workload.afterRounds(merged)), clock, ...(clock === 'cpu' ? { threadClock: threadClock.kind } : {}), seconds: seconds.get(id) });
  }
  return results;
}
