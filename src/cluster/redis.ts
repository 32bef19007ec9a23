/**
 * The connection every instance shares state through (REDIS_URL). Commands fail at once while
 * Redis is unreachable, so callers fall back instead of waiting; the link reconnects by itself,
 * logs one line when an outage starts and one when it ends, and tells listeners when it is back.
 */
import { RedisClient } from "bun";
import type { Log } from "../log";

export interface RedisState {
  status: "up" | "down";
  /** When the current outage started, or null while up. */
  downSince: string | null;
}

const RETRY_MS = 500;
const CONNECT_TIMEOUT_MS = 2000;

export class RedisDown extends Error {
  override name = "RedisDown";
  constructor() {
    super("Redis is unreachable");
  }
}

export class RedisLink {
  private client: RedisClient | null = null;
  private subscriber: RedisClient | null = null;
  private readonly channels = new Map<string, (message: string) => void>();
  private readonly upListeners = new Set<() => void>();
  private downSince: string | null = new Date().toISOString();
  private retry: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private connecting: Promise<boolean> | null = null;
  /** Whether the outage under way has been logged. */
  private outageLogged = false;

  constructor(
    private readonly url: string,
    private readonly log: Log,
  ) {}

  get state(): RedisState {
    return { status: this.client ? "up" : "down", downSince: this.client ? null : this.downSince };
  }

  get up(): boolean {
    return this.client !== null;
  }

  /** Connects once; true when up. A failure schedules the automatic retries. */
  connect(): Promise<boolean> {
    this.connecting ??= this.open().finally(() => (this.connecting = null));
    return this.connecting;
  }

  /** Runs `command` on the connection, or throws RedisDown at once while there is none. */
  async run<T>(command: (client: RedisClient) => Promise<T>): Promise<T> {
    const client = this.client;
    if (client === null) throw new RedisDown();
    try {
      return await command(client);
    } catch (error) {
      if (!client.connected) this.lost(client, error as Error);
      throw error;
    }
  }

  /** Calls `listener` with each message on `channel`, across reconnections. */
  async subscribe(channel: string, listener: (message: string) => void): Promise<void> {
    this.channels.set(channel, listener);
    if (this.subscriber) await this.subscriber.subscribe(channel, (message) => listener(message));
  }

  /** Called after every connection, the first included. */
  onUp(listener: () => void): void {
    this.upListeners.add(listener);
  }

  close(): void {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.client?.close();
    this.subscriber?.close();
    this.client = null;
    this.subscriber = null;
  }

  private async open(): Promise<boolean> {
    if (this.closed || this.client) return this.client !== null;
    // Reconnection is ours: the client's own gives up after a number of tries.
    const options = { autoReconnect: false, enableOfflineQueue: false, connectionTimeout: CONNECT_TIMEOUT_MS };
    const client = new RedisClient(this.url, options);
    const subscriber = new RedisClient(this.url, options);
    try {
      await Promise.all([client.connect(), subscriber.connect()]);
      for (const [channel, listener] of this.channels) await subscriber.subscribe(channel, (m) => listener(m));
    } catch (error) {
      client.close();
      subscriber.close();
      this.down((error as Error).message);
      return false;
    }
    if (this.closed) {
      client.close();
      subscriber.close();
      return false;
    }
    client.onclose = (error) => this.lost(client, error);
    subscriber.onclose = (error) => this.lost(subscriber, error);
    this.client = client;
    this.subscriber = subscriber;
    if (this.outageLogged) this.log("redis.up", { downSince: this.downSince });
    this.outageLogged = false;
    this.downSince = null;
    for (const listener of this.upListeners) listener();
    return true;
  }

  private lost(which: RedisClient, error: Error | undefined): void {
    if (which !== this.client && which !== this.subscriber) return;
    const { client, subscriber } = this;
    this.client = null;
    this.subscriber = null;
    client?.close();
    subscriber?.close();
    this.downSince = new Date().toISOString();
    this.down(error?.message ?? "connection closed");
  }

  private down(reason: string): void {
    if (this.closed) return;
    if (!this.outageLogged) {
      this.outageLogged = true;
      this.log("redis.down", { reason, fallback: "in-process rate limit, local snapshot, no refresh" });
    }
    if (this.retry === null) {
      this.retry = setTimeout(() => {
        this.retry = null;
        void this.connect();
      }, RETRY_MS);
      this.retry.unref();
    }
  }
}

/** The shared-state mode the metrics report: no REDIS_URL (off), Redis reachable (up) or not (degraded). */
export function sharedMode(link: RedisLink | null): () => "up" | "degraded" | "off" {
  return () => (link === null ? "off" : link.up ? "up" : "degraded");
}
