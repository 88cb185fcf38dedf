// Google's own WebAssembly build of its robots.txt library (robots_wasm.cc, upstream since
// 2026-03-31; built by scripts/build-peers.mjs): one function, IsAllowed(user_agent, url,
// robots_content), through embind. Its API has no parse-once: every call parses the whole
// body again, so parse() only keeps the body and each check is a full IsAllowed call, as a
// user calls it. The body goes as bytes (a Uint8Array): a string would be re-encoded as
// UTF-8 and change verdicts on files that are not. The matching line is not exported;
// explain() reads it from the separate "ext" module (robots_wasm_ext: Google's code plus an
// AllowedLine export), for the agreement check only.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { HOW_TO_BUILD, PeerMissing, WASM_DIR } from '../peers/paths.mjs';

const require = createRequire(import.meta.url);

/** Instantiates one of the emscripten 3.1.6 modules: the bytes handed over (its loader would fetch() a file path under Node 20). */
export async function loadGoogleWasm(name) {
  const loader = path.join(WASM_DIR, `${name}.cjs`);
  if (!existsSync(loader)) throw new PeerMissing(HOW_TO_BUILD.wasm);
  const create = require(loader);
  return create({ wasmBinary: readFileSync(path.join(WASM_DIR, `${name}.wasm`)) });
}

export async function load() {
  const google = await loadGoogleWasm('robots_wasm');
  const ext = await loadGoogleWasm('robots_wasm_ext');
  const isAllowed = google.IsAllowed;
  return [{
    id: 'google-wasm',
    label: 'Google robotstxt WASM',
    library: "google/robotstxt's robots_wasm.cc (emscripten)",
    version: '22b355f (2026-04-01), em++ 3.1.6',
    api: 'isAllowed',
    // No parse-once: the parse workload (parse alone) does not apply; first-verdict is its parse.
    parsesEveryCall: true,
    parse: (file, agent) => ({ body: file.bytes, agent }),
    isAllowed: (h, url) => isAllowed(h.agent, url, h.body),
    /** Verdict and matching line (0: no rule), from the ext module's AllowedLine. */
    explain: (h, url) => {
      const v = ext.AllowedLine(h.agent, url, h.body);
      return { allowed: (v & 1) === 1, line: v >> 1 };
    },
  }];
}
