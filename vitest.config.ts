import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // A .wasm import is the module's octets, as the build embeds it (scripts/build.mjs):
  // for the suites that import src/ directly.
  plugins: [
    {
      name: 'wasm-octets',
      enforce: 'pre',
      load(id) {
        if (!id.endsWith('.wasm')) return null;
        return `export default Uint8Array.from(atob(${JSON.stringify(readFileSync(id).toString('base64'))}), (c) => c.charCodeAt(0));`;
      },
    },
  ],
  test: {
    include: ['test/**/*.test.ts'],
    // vitest's own output, then the failed tests named and a plain count, last (test/reporters/closing-lines.ts).
    reporters: ['default', './test/reporters/closing-lines.ts'],
    setupFiles: ['./test/setup/event-loop.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
