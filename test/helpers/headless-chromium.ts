// The suites' headless Chromium: @sparticuz/chromium's binary, driven by
// puppeteer-core, with that package's arguments but those that give it a GPU
// (SwiftShader, a GPU emulated on the CPU, through ANGLE). A page under test
// needs no GPU: without one Chromium composites in software, the same pages
// for less CPU, and these suites start a browser each on the machine's busiest
// stretch (the screenshots differ from the GPU's in anti-aliasing only).
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type LaunchOptions } from 'puppeteer-core';

/** @sparticuz/chromium's arguments that make and use its emulated GPU. */
const EMULATED_GPU = new Set(['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--in-process-gpu']);

/** The arguments the suites launch Chromium with. */
export const CHROMIUM_ARGS: readonly string[] = [...chromium.args.filter((a) => !EMULATED_GPU.has(a)), '--disable-gpu'];

/** A headless Chromium (options beside the binary and its arguments: the viewport, say). */
export async function launchChromium(options: Omit<LaunchOptions, 'executablePath' | 'args' | 'headless'> = {}): Promise<Browser> {
  return puppeteer.launch({ ...options, executablePath: await chromium.executablePath(), args: [...CHROMIUM_ARGS], headless: true });
}
