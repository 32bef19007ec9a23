/**
 * One environment variable each: read, checked and given its type. A bad value throws a
 * ConfigError naming the variable, so the process stops at boot (config.ts reads them all).
 */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = "ConfigError";
  }
}

export type Env = Record<string, string | undefined>;

/** Whether the operator asked for shared-cache directives: either SHARED_CACHE_* variable set. */
export function sharedCacheSet(env: Env): boolean {
  return Boolean(env.SHARED_CACHE_MAX_AGE_S?.trim() || env.SHARED_CACHE_STALE_S?.trim());
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max)
    throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}

export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new ConfigError(name, `expected true or false, got "${env[name]}"`);
}

export function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim() || fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `expected an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(name, `expected an absolute http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, "");
}

/** An http(s) base URL, or null for `off`. */
export function optionalUrl(env: Env, name: string, fallback: string): string | null {
  if (env[name]?.trim().toLowerCase() === "off") return null;
  return httpUrl(env, name, fallback);
}

/** `own` (the default: each image's own registry), `off` (null), or one base URL for all. */
export function ownOrUrl(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  return !raw || raw.toLowerCase() === "own" ? "own" : optionalUrl(env, name, raw);
}

/** A number of trusted proxy hops; `true` is one, `false` none. */
export function proxyHops(env: Env, name: string): number {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === "true") return 1;
  if (raw === "false") return 0;
  try {
    return integer(env, name, 0, 0, 32);
  } catch {
    throw new ConfigError(name, `expected true, false or a number of proxy hops from 0 to 32, got "${env[name]}"`);
  }
}

/** Five or six space-separated cron fields; `off` disables the in-process refresh. */
export function cronPattern(env: Env, name: string, fallback: string): string | null {
  const raw = env[name]?.trim() || fallback;
  if (raw.toLowerCase() === "off") return null;
  const fields = raw.split(/\s+/);
  if (fields.length < 5 || fields.length > 6 || !fields.every((f) => /^[\d*/,\-A-Za-z?LW#]+$/.test(f))) {
    throw new ConfigError(name, `expected a cron pattern of 5 or 6 fields or "off", got "${raw}"`);
  }
  return raw;
}

/** A non-negative share that may exceed 1, such as `1` for a doubling. */
export function growth(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d*\.?\d+$/.test(raw) || Number(raw) > 1000)
    throw new ConfigError(name, `expected a non-negative share such as 1 (a doubling), got "${raw}"`);
  return Number(raw);
}

/** A secret of at least 16 characters, or none. */
export function secretKey(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (raw.length < 16) throw new ConfigError(name, "expected a key of at least 16 characters");
  return raw;
}

/** A share from 0 to 1, such as `0.1` for ten percent. */
export function share(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!/^\d*\.?\d+$/.test(raw) || value > 1)
    throw new ConfigError(name, `expected a share from 0 to 1 (e.g. 0.1), got "${raw}"`);
  return value;
}

export function redisUrl(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {}
  if (url === null || !["redis:", "rediss:"].includes(url.protocol)) {
    throw new ConfigError(name, `expected a redis:// or rediss:// URL, got "${raw.replace(/\/\/[^@/]*@/, "//…@")}"`);
  }
  return raw;
}

/** A file path inside a repository: relative, `/`-separated, no `.` or `..` segment, what the platform's `HEAD:path` takes. */
export function repoPath(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const segments = raw.split("/");
  const ok = raw.length <= 200 && segments.every((s) => /^[A-Za-z0-9._-]+$/.test(s) && s !== "." && s !== "..");
  if (!ok) throw new ConfigError(name, `expected a relative path like ${fallback}, got "${raw.slice(0, 200)}"`);
  return raw;
}

/** A bearer token: visible ASCII without spaces, as the Authorization header carries it. */
export function metricsToken(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!/^[\x21-\x7e]+$/.test(raw)) throw new ConfigError(name, "expected visible ASCII characters without spaces");
  return raw;
}

/** READ_TOKEN: a bearer token long enough not to be guessed. */
export function readToken(env: Env): string | undefined {
  const token = metricsToken(env, "READ_TOKEN");
  if (token !== undefined && token.length < 16) throw new ConfigError("READ_TOKEN", "expected 16 characters or more");
  return token;
}
