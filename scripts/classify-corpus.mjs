// The README's main job until the `robots` command exists: classify every URL of
// corpus/urls.txt against corpus/robots/<host>, one line per URL, in input order:
//   allowed|disallowed <TAB> line <TAB> url
// A host without a file has no robots.txt: allowed. A summary goes to stderr.
// Usage: npm start [-- --agent NAME] [--profile rfc|google]
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse } from '../dist/index.js';

let args;
try {
  args = parseArgs({
    options: {
      agent: { type: 'string', default: 'Googlebot' },
      profile: { type: 'string', default: 'rfc' },
      robots: { type: 'string', default: 'corpus/robots' },
      urls: { type: 'string', default: 'corpus/urls.txt' },
    },
  }).values;
  if (!existsSync(args.urls)) throw new Error(`URL list not found: ${args.urls}`);
  if (!existsSync(args.robots)) throw new Error(`robots directory not found: ${args.robots}`);
} catch (e) {
  console.error(`classify-corpus: ${e.message}`);
  process.exit(2);
}

const matchers = new Map();
function matcherFor(host) {
  if (!matchers.has(host)) {
    const file = `${args.robots}/${host}`;
    const m = host && existsSync(file) ? parse(readFileSync(file), { profile: args.profile }).compile(args.agent) : null;
    matchers.set(host, m);
  }
  return matchers.get(host);
}

function hostOf(url) {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

const start = performance.now();
let allowed = 0;
let total = 0;
const out = [];
for (const url of readFileSync(args.urls, 'utf8').split('\n')) {
  if (url.trim() === '') continue;
  const m = matcherFor(hostOf(url));
  const v = m ? m.explain(url) : { allowed: true, line: 0 };
  total++;
  if (v.allowed) allowed++;
  out.push(`${v.allowed ? 'allowed' : 'disallowed'}\t${v.line}\t${url}`);
}
process.stdout.write(out.join('\n') + '\n');
const secs = (performance.now() - start) / 1000;
console.error(
  `${total} URLs over ${matchers.size} hosts: ${allowed} allowed, ${total - allowed} disallowed ` +
    `(agent ${args.agent}, profile ${args.profile}, ${Math.round(total / secs)} URLs/s)`,
);
