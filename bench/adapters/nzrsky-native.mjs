// nzrsky/robotstxt: a C++20 fork of Google's robots.cc (zero-copy lines, std::string_view,
// URLs parsed by ada), built natively by scripts/build-peers.mjs with the driver
// nzrsky-check (google-check's interface), a reference row measured in its own process
// (../peers/external.mjs). Not Google-exact: it percent-decodes every %XX of the path and
// the pattern before comparing, and ada's WHATWG parsing rewrites some URLs (../shared/peers/nzrsky-robotstxt/README.md).
import { existsSync } from 'node:fs';
import { externalAdapter } from '../peers/external.mjs';
import { HOW_TO_BUILD, NZRSKY_BIN, NZRSKY_CPU_BIN, PeerMissing } from '../peers/paths.mjs';

export async function load() {
  if (!existsSync(NZRSKY_BIN)) throw new PeerMissing(HOW_TO_BUILD.nzrsky);
  return [externalAdapter({
    id: 'nzrsky-native',
    label: 'nzrsky/robotstxt C++20 (native)',
    library: 'nzrsky/robotstxt robots.cc + ada 3.4.1 (g++ -O2, C++20)',
    version: 'd6e4d59 (2026-01-18, 1.1.0)',
    command: [NZRSKY_BIN],
    ...(existsSync(NZRSKY_CPU_BIN) ? { cpuCommand: [NZRSKY_CPU_BIN] } : {}),
    note: 'native, own process; every check parses the body again (no parse-once API)',
  })];
}
