// One engine's warm loop over files and batches (bench/matching.mjs's
// { file, urls } batches), measured as the tools in this folder need it: the
// files parsed hot, an untimed round (automata built, the JIT warm), then rounds of
// at least roundUrls URLs each; the median of the rounds' URLs per CPU second
// (user + system: less noisy than wall time on a shared machine).
import { ownLoop, prepareHandles, releaseHandles } from '../matching.mjs';

export async function warmRate(adapter, files, batches, { rounds, roundUrls }) {
  const urls = batches.reduce((sum, b) => sum + b.urls.length, 0);
  const { handles } = await prepareHandles(adapter, files, 'Googlebot', { warm: true });
  const loop = ownLoop(adapter, { count: 0 });
  let sink = 0;
  for (let warmed = 0; warmed < roundUrls; warmed += urls) sink += loop(handles, batches); // an untimed round
  const rates = [];
  for (let r = 0; r < rounds; r++) {
    const t = process.cpuUsage();
    let checked = 0;
    while (checked < roundUrls) {
      sink += loop(handles, batches);
      checked += urls;
    }
    const u = process.cpuUsage(t);
    rates.push(checked / ((u.user + u.system) / 1e6));
  }
  if (sink < 0) throw new Error('unreachable'); // (keeps the verdicts from the optimiser)
  releaseHandles(adapter, handles);
  return rates.sort((a, b) => a - b)[rates.length >> 1];
}
