// The crawler's two dependencies, fflate (a cached file's deflate and inflate)
// and http-cache-semantics (Cache-Control's freshness), loaded by the first
// RobotsCache, not when the package is imported: importing them was over a third of a
// fresh process's import (fflate's Node build starts node:worker_threads
// and builds its Huffman tables; the other is CommonJS, through Node's CJS
// loader), and a program that only parses and checks never uses them. Every use
// comes after a fetch or a store read, which waits for them first
// (RobotsCache.refresh), so the uses themselves stay synchronous. (webpackMode
// "eager": webpack puts them in the app's bundle, as it did the static imports,
// rather than in chunk files to serve beside it; they still run on first use.)
import type { deflateSync, inflateSync } from 'fflate';
import type CachePolicy from 'http-cache-semantics';

export interface CrawlerModules {
  readonly deflateSync: typeof deflateSync;
  readonly inflateSync: typeof inflateSync;
  readonly CachePolicy: typeof CachePolicy;
}

let loaded: CrawlerModules | undefined;
let loading: Promise<CrawlerModules> | undefined;

/** Loads the modules once per process (again after a failed load). */
export function loadCrawlerModules(): Promise<CrawlerModules> {
  loading ??= Promise.all([import(/* webpackMode: "eager" */ 'fflate'), import(/* webpackMode: "eager" */ 'http-cache-semantics')]).then(
    ([fflate, cacheSemantics]) => (loaded = { deflateSync: fflate.deflateSync, inflateSync: fflate.inflateSync, CachePolicy: cacheSemantics.default }),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The loaded modules; throws before loadCrawlerModules() has resolved (a use
 * that did not wait for it: a bug of this package, not the caller's). */
export function crawlerModules(): CrawlerModules {
  if (loaded === undefined) throw new Error('robots-wasm: the crawler modules (fflate, http-cache-semantics) were used before they were loaded');
  return loaded;
}
