// Google's robots.txt library as Googlebot runs it: native C++ (robots.cc with the driver
// google-check, built by scripts/build-peers.mjs), a reference row measured in its own
// process by the driver's --bench mode on the same files and probes (see ../peers/external.mjs).
import { existsSync } from 'node:fs';
import { externalAdapter } from '../peers/external.mjs';
import { HOW_TO_BUILD, NATIVE_BIN, NATIVE_CPU_BIN, PeerMissing } from '../peers/paths.mjs';

export async function load() {
  if (!existsSync(NATIVE_BIN)) throw new PeerMissing(HOW_TO_BUILD.native);
  return [externalAdapter({
    id: 'google-native',
    label: 'Google robotstxt C++ (native)',
    library: "google/robotstxt's robots.cc (g++ -O2, Debian libabsl)",
    version: '22b355f (2026-04-01)',
    command: [NATIVE_BIN],
    ...(existsSync(NATIVE_CPU_BIN) ? { cpuCommand: [NATIVE_CPU_BIN] } : {}),
    note: 'native, own process; every check parses the body again (no parse-once API)',
  })];
}
