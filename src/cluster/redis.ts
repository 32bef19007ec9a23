/**
 * The connection every instance shares state through (REDIS_URL). Commands fail at once while
 * Redis is unreachable, so callers fall back instead of waiting; the link reconnects by itself,
 * logs one line when an outage starts and one when it ends, and tells listeners when it is back.
 * A Redis that keeps the connection but stops answering (hung, paused, swapping) is down too: every
 * command has a deadline, and after a few deadlines missed in a row the link is `degraded`, answers
 * like a down one, and probes with PING until Redis answers again.
 */
import { RedisClient } from "bun";
import type { Log } from "../base/log";

export interface RedisState {
  status: "up" | "down" | "degraded";
  /** When the current outage started, or null while up. */
  downSince: string | null;
}

const RETRY_MS = 500;
const CONNECT_TIMEOUT_MS = 2000;
/** A command's deadline unless its caller gives one: a healthy Redis answers in about a millisecond. */
export const COMMAND_DEADLINE_MS = 1000;
/** Deadlines missed in a row before the link counts Redis as hung. */
const MISSES_BEFORE_DEGRADED = 3;
/** How often a hung Redis is probed (one PING at a time). */
const PROBE_MS = 500;

export class RedisDown extends Error {
  override name = "RedisDown";
  constructor() {
    super("Redis is unreachable");
  }
}

export class RedisTimeout extends Error {
  override name = "RedisTimeout";
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
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
  /** Deadlines missed in a row; past MISSES_BEFORE_DEGRADED the link is degraded until a probe answers. */
  private misses = 0;
  private degradedSince: string | null = null;
  private probe: ReturnType<typeof setInterval> | null = null;
  private probing = false;

  constructor(
    /** Where Redis is; a child process that fetches a shared snapshot connects there itself. */
    readonly url: string,
    private readonly log: Log,
  ) {}

  get state(): RedisState {
    if (this.client && this.degradedSince) return { status: "degraded", downSince: this.degradedSince };
    return { status: this.client ? "up" : "down", downSince: this.client ? null : this.downSince };
  }

  /** Connected and answering: callers may wait on it. */
  get up(): boolean {
    return this.client !== null && this.degradedSince === null;
  }

  /** Connects once; true when up. A failure schedules the automatic retries. */
  connect(): Promise<boolean> {
    this.connecting ??= this.open().finally(() => (this.connecting = null));
    return this.connecting;
  }

  /**
   * Runs `command` on the connection within `deadlineMs`; throws RedisDown at once while there is
   * none or Redis is hung, RedisTimeout when the deadline passes.
   */
  async run<T>(command: (client: RedisClient) => Promise<T>, deadlineMs = COMMAND_DEADLINE_MS): Promise<T> {
    const client = this.client;
    if (client === null || this.degradedSince !== null) throw new RedisDown();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RedisTimeout(deadlineMs)), deadlineMs);
    });
    try {
      const result = await Promise.race([command(client), deadline]);
      this.misses = 0;
      return result;
    } catch (error) {
      if (error instanceof RedisTimeout) this.missed(client);
      else if (!client.connected) this.lost(client, error as Error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private missed(client: RedisClient): void {
    if (++this.misses < MISSES_BEFORE_DEGRADED || this.degradedSince !== null || client !== this.client) return;
    this.degradedSince = new Date().toISOString();
    this.log("redis.degraded", {
      reason: `${this.misses} commands in a row missed their deadline`,
      fallback: "in-process rate limit, local snapshot, no refresh",
    });
    this.probe = setInterval(() => this.probeOnce(), PROBE_MS);
    this.probe.unref();
  }

  /** One PING at a time while degraded: the first answer ends the degraded state. */
  private probeOnce(): void {
    const client = this.client;
    if (this.probing || client === null) return;
    this.probing = true;
    client
      .send("PING", [])
      .then(() => {
        if (client !== this.client || this.degradedSince === null) return;
        this.log("redis.up", { degradedSince: this.degradedSince });
        this.recovered();
        for (const listener of this.upListeners) listener();
      })
      .catch(() => {})
      .finally(() => (this.probing = false));
  }

  private recovered(): void {
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
    this.degradedSince = null;
    this.misses = 0;
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
    this.recovered();
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
    this.recovered();
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
