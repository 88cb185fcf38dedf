// RobotsStore on Redis (node-redis, the client Redis maintains): a crawler
// fleet's processes share one robots.txt fetch per origin. Keys:
//   <prefix>r:<robots.txt URL>  the record (record-codec.ts), expiring with PX
//   <prefix>l:<robots.txt URL>  the fetch lease (SET NX PX, a random token)
// A Redis that is down, slow or restarting makes calls fail fast (no offline
// queue, a command timeout): RobotsCache then fetches on its own and comes
// back when Redis does.
import { randomBytes } from 'node:crypto';
import { createClient, RESP_TYPES } from 'redis';
// (A type import of its own: the public types' bundler drops an inline `type` name from a declaration file's import.)
import type { RedisClientType } from 'redis';
import { decodeRecord, encodeRecord } from './record-codec.js';
import type { RobotsRecord, RobotsStore } from './robots-store.js';

export type { FetchState, RobotsRecord, RobotsStore, StoreEvent } from './robots-store.js';
export { RECORD_FORMAT } from './record-codec.js';

/** The node-redis client this store calls: what `redis` v6's createClient() returns (not ReturnType<typeof createClient>, whose type arguments are the bounds, so a client of yours would not be one). */
export type RedisClient = RedisClientType;

export interface RedisStoreOptions {
  /** redis[s]://[[user][:password]@]host[:port][/db]: the store creates, connects and owns its client. */
  url?: string;
  /** Or a client of yours (connected or connecting); close() leaves it open. */
  client?: RedisClient;
  /** Prefix of every key (default 'robots:'). */
  prefix?: string;
  /** A command that has not answered by then fails (default 1 s; own client only). */
  commandTimeoutMs?: number;
  /** How long the first calls wait for the first connection of an own client (default 2 s). */
  connectTimeoutMs?: number;
  /** Told of the own client's connection errors (node-redis reports each attempt); by default they are ignored: RobotsCache says when the store is down. */
  onError?: (error: Error) => void;
}

// Ends a lease only if this holder still has it (another may have taken it after it expired).
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

export class RedisStore implements RobotsStore {
  private readonly client: RedisClient;
  private readonly buffers: RedisClient;
  private readonly owned: boolean;
  private readonly prefix: string;
  private readonly connected: Promise<unknown> | undefined;
  private readonly connectTimeoutMs: number;
  private closed = false;

  constructor(options: RedisStoreOptions = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError('RedisStore options must be an object');
    const { url, client, prefix = 'robots:' } = options;
    if ((url === undefined) === (client === undefined)) throw new TypeError('RedisStore needs one of url or client');
    if (typeof prefix !== 'string') throw new TypeError('prefix must be a string');
    const commandTimeoutMs = options.commandTimeoutMs ?? 1000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 2000;
    for (const [name, v] of [['commandTimeoutMs', commandTimeoutMs], ['connectTimeoutMs', this.connectTimeoutMs]] as const) {
      if (typeof v !== 'number' || !(v > 0) || v > 2 ** 31 - 1) throw new RangeError(`${name} must be a positive number of ms, got ${String(v)}`);
    }
    this.prefix = prefix;
    if (client !== undefined) {
      if (typeof client !== 'object' || client === null || typeof (client as { sendCommand?: unknown }).sendCommand !== 'function') {
        throw new TypeError('client must be a node-redis client (createClient from "redis")');
      }
      this.client = client;
      this.owned = false;
    } else {
      if (typeof url !== 'string' || !/^rediss?:\/\//i.test(url)) throw new TypeError(`url must be a redis:// or rediss:// URL, got ${JSON.stringify(url)}`);
      this.client = createClient({
        url,
        // Calls fail at once while disconnected, rather than queue without bound.
        disableOfflineQueue: true,
        socket: { connectTimeout: this.connectTimeoutMs, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
        commandOptions: { timeout: commandTimeoutMs },
      });
      this.owned = true;
      // Without a listener node-redis's errors would end the process.
      const onError = options.onError;
      this.client.on('error', (error: Error) => {
        try {
          onError?.(error);
        } catch {
          // The hook's own failure is not the store's.
        }
      });
      this.connected = this.client.connect().catch(() => {});
    }
    this.buffers = this.client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer }) as unknown as RedisClient;
  }

  async get(key: string): Promise<RobotsRecord | undefined> {
    await this.ready();
    const value = (await this.buffers.get(this.prefix + 'r:' + key)) as unknown;
    return value instanceof Uint8Array ? decodeRecord(value) : undefined;
  }

  async set(key: string, record: RobotsRecord, keepMs: number): Promise<void> {
    await this.ready();
    await this.client.set(this.prefix + 'r:' + key, Buffer.from(encodeRecord(record)), { PX: Math.max(1, Math.ceil(keepMs)) });
  }

  async acquireLease(key: string, leaseMs: number): Promise<string | undefined> {
    await this.ready();
    const token = randomBytes(12).toString('base64url');
    const reply = await this.client.set(this.prefix + 'l:' + key, token, { NX: true, PX: Math.max(1, Math.ceil(leaseMs)) });
    return reply === 'OK' ? token : undefined;
  }

  async releaseLease(key: string, token: string): Promise<void> {
    await this.ready();
    await this.client.eval(RELEASE, { keys: [this.prefix + 'l:' + key], arguments: [token] });
  }

  /** Closes the client the store created (a given client stays open: it is yours). */
  async close(): Promise<void> {
    if (this.closed || !this.owned) return;
    this.closed = true;
    if (this.client.isReady) {
      await this.client.close().catch(() => this.client.destroy());
    } else if (this.client.isOpen) {
      this.client.destroy();
    }
  }

  /** The first calls of an own client wait (bounded) for its first connection; later ones fail fast while it reconnects. */
  private async ready(): Promise<void> {
    if (this.closed) throw new Error('the RedisStore is closed');
    if (this.connected === undefined || this.client.isReady) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.connected, new Promise((resolve) => (timer = setTimeout(resolve, this.connectTimeoutMs)))]);
    clearTimeout(timer);
  }
}
// Its name kept in the minified bundles (scripts/build.mjs): util.inspect and console.log show it.
Object.defineProperty(RedisStore, 'name', { value: 'RedisStore' });
