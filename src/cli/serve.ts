// `robots serve`: the tester page (dist/web/, built from web/) on a local HTTP
// server. Static files only: the page does all its work in the browser, so the
// server never sees a robots.txt or a URL. Runs until interrupted.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { CliError, reason } from './errors.js';

export interface ServeOptions {
  port: string;
  host: string;
}

/** The page's files, beside the command's bundle (dist/cli.js → dist/web/). */
const ROOT = fileURLToPath(new URL('./web/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** The page's own policy, sent as a header too: it may load its own files, compile WASM, and send nothing anywhere. */
const POLICY = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new CliError(`--port must be a port number from 0 to 65535 (0: any free port), got "${value}"`);
  return n;
}

export async function serveCommand(options: ServeOptions): Promise<number> {
  const port = parsePort(options.port);
  if (!existsSync(path.join(ROOT, 'index.html'))) throw new CliError(`the tester page is not built (no ${ROOT}index.html): run npm run build`);
  const server = createServer((req, res) => void answer(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRINUSE') reject(new CliError(`port ${port} is in use on ${options.host}: choose another with --port (0 takes any free port)`));
      else if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') reject(new CliError(`cannot listen on ${options.host}: not an address of this machine`));
      else if (e.code === 'EACCES') reject(new CliError(`cannot listen on port ${port}: permission denied (ports below 1024 need privileges)`));
      else reject(new CliError(`cannot listen on ${options.host}:${port}: ${reason(e)}`));
    });
    server.listen(port, options.host, resolve);
  });
  // Stops on Ctrl-C or SIGTERM: set before the address is printed, which is when a caller may send them.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      server.close(() => resolve());
      server.closeAllConnections(); // keep-alive connections would hold close() open
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  const address = server.address();
  const at = typeof address === 'object' && address !== null ? address : { address: options.host, port };
  const host = at.address.includes(':') ? `[${at.address}]` : at.address;
  process.stdout.write(`robots.txt tester at http://${host}:${at.port}/ (Ctrl-C to stop)\n`);
  await stopped;
  return 0;
}

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const send = (status: number, body: string | Buffer, type = 'text/plain; charset=utf-8', extra: Record<string, string> = {}) => {
    res.writeHead(status, { ...extra, 'content-type': type, 'content-security-policy': POLICY, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  // A 405 names the methods that are served (RFC 9110 15.5.6).
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'only GET and HEAD\n', undefined, { allow: 'GET, HEAD' });
  let name: string;
  try {
    name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    return send(400, 'bad path\n');
  }
  if (name.endsWith('/')) name += 'index.html';
  // Only the page's own files: nothing outside dist/web/, whatever the path says.
  const file = path.join(ROOT, path.normalize(name));
  if (!file.startsWith(ROOT) || name.includes('\0')) return send(404, 'not found\n');
  const type = TYPES[path.extname(file)];
  if (type === undefined) return send(404, 'not found\n');
  try {
    send(200, await readFile(file), type);
  } catch {
    send(404, 'not found\n');
  }
}
