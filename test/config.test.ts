import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../src/config";
import { refreshOptionsFrom } from "../src/scheduler/options";

const ROOT = join(import.meta.dir, "..");

/** Variable names the README's configuration table lists. */
function documented(): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  return [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm)].map((m) => m[1]!);
}

/** Variable names src/config.ts and its readers (src/config-values.ts) read from the environment. */
function read(): string[] {
  const source = ["config.ts", "config-values.ts"]
    .map((file) => readFileSync(join(ROOT, "src", file), "utf8"))
    .join("\n");
  const names = [...source.matchAll(/env(?:\.|, ")([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!);
  return [...new Set(names)];
}

describe("configuration", () => {
  test("the README's table lists exactly the variables config.ts reads", () => {
    expect(read().length).toBeGreaterThanOrEqual(9);
    expect(documented().sort()).toEqual(read().sort());
  });

  test("defaults are the README's", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: "0.0.0.0",
      baseUrl: "http://localhost:3000",
      databasePath: "db/catalog.sqlite",
      githubToken: undefined,
      githubApiUrl: "https://api.github.com",
      refreshCron: "0 */6 * * *",
      rateLimitWindowMs: 2000,
      trustProxy: 0,
    });
    expect(loadConfig({ PORT: "8080" }).baseUrl).toBe("http://localhost:8080");
    expect(loadConfig({ REFRESH_CRON: "off" }).refreshCron).toBeNull();
    expect(loadConfig({ TRUST_PROXY: "true", RATE_LIMIT_WINDOW_MS: "0" })).toMatchObject({
      trustProxy: 1,
      rateLimitWindowMs: 0,
    });
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(Object.isFrozen(c)).toBe(true);
    expect(c).toMatchObject({ redisUrl: undefined, redisLockTtlMs: 30_000 });
    // Unset, the answers carry the contract's Cache-Control alone; either variable turns the directives on.
    expect(c).toMatchObject({ sharedCacheMaxAgeS: null });
    expect(loadConfig({ SHARED_CACHE_STALE_S: "10" })).toMatchObject({ sharedCacheMaxAgeS: 60, sharedCacheStaleS: 10 });
    expect(loadConfig({ SHARED_CACHE_MAX_AGE_S: "20" })).toMatchObject({
      sharedCacheMaxAgeS: 20,
      sharedCacheStaleS: 30,
    });
    expect(loadConfig({ SHARED_CACHE_MAX_AGE_S: "5", SHARED_CACHE_STALE_S: "0" })).toMatchObject({
      sharedCacheMaxAgeS: 5,
      sharedCacheStaleS: 0,
    });
    expect(() => loadConfig({ SHARED_CACHE_MAX_AGE_S: "-1" })).toThrow(/SHARED_CACHE_MAX_AGE_S/);
    expect(loadConfig({ REDIS_URL: "redis://:pw@cache:6379/0" }).redisUrl).toBe("redis://:pw@cache:6379/0");
  });

  test("METRICS_TOKEN is off by default and taken as given; a bad one is refused without echoing it", () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: " s3cret-Token_1 " }).metricsToken).toBe("s3cret-Token_1");
    expect(() => loadConfig({ METRICS_TOKEN: "my secret" })).toThrow(/METRICS_TOKEN: expected visible ASCII/);
    expect(() => loadConfig({ METRICS_TOKEN: "my secret" })).not.toThrow(/secret/);
  });

  test("REFRESH_OWNER_FILE defaults to .plugin-catalog.yml and takes a relative path inside the repository only", () => {
    expect(loadConfig({}).refreshOwnerFile).toBe(".plugin-catalog.yml");
    expect(loadConfig({ REFRESH_OWNER_FILE: " .github/catalog.yml " }).refreshOwnerFile).toBe(".github/catalog.yml");
    for (const bad of ["../secrets", "/etc/passwd", "a//b", 'a"b', "a/./b", "x".repeat(201)])
      expect(() => loadConfig({ REFRESH_OWNER_FILE: bad })).toThrow(/REFRESH_OWNER_FILE: expected a relative path/);
  });

  test("the package registries default to the public ones, take a base URL, or are off", () => {
    expect(loadConfig({})).toMatchObject({
      npmRegistryUrl: "https://registry.npmjs.org",
      pypiUrl: "https://pypi.org",
      registryMaxRequests: 2000,
      registryTimeoutMs: 5000,
      registryBudgetMs: 120_000,
    });
    const set = loadConfig({ NPM_REGISTRY_URL: "http://127.0.0.1:4873/", PYPI_URL: "OFF" });
    expect(set.npmRegistryUrl).toBe("http://127.0.0.1:4873");
    expect(set.pypiUrl).toBeNull();
    // OCI images are asked at each one's own registry unless one address (a mirror) is given.
    expect(loadConfig({}).ociRegistryUrl).toBe("own");
    expect(loadConfig({ OCI_REGISTRY_URL: " Own " }).ociRegistryUrl).toBe("own");
    expect(loadConfig({ OCI_REGISTRY_URL: "off" }).ociRegistryUrl).toBeNull();
    expect(loadConfig({ OCI_REGISTRY_URL: "http://127.0.0.1:5000/" }).ociRegistryUrl).toBe("http://127.0.0.1:5000");
    expect(() => loadConfig({ OCI_REGISTRY_URL: "ftp://mirror" })).toThrow(/OCI_REGISTRY_URL/);
  });

  test("deps.dev defaults to its public API with its own budget, takes a base URL, or is off", () => {
    expect(loadConfig({})).toMatchObject({
      depsDevUrl: "https://api.deps.dev",
      depsDevMaxRequests: 500,
      depsDevTimeoutMs: 10_000,
      depsDevBudgetMs: 90_000,
    });
    expect(loadConfig({ DEPSDEV_URL: "http://127.0.0.1:8080/" }).depsDevUrl).toBe("http://127.0.0.1:8080");
    expect(loadConfig({ DEPSDEV_URL: "off" }).depsDevUrl).toBeNull();
    // A refresh, scheduled or by hand, gets them as its options; off, it asks nothing.
    const set = loadConfig({ DEPSDEV_URL: "http://127.0.0.1:8080", DEPSDEV_MAX_REQUESTS: "7" });
    expect(refreshOptionsFrom(set).security).toEqual({
      depsDev: "http://127.0.0.1:8080",
      limits: { maxRequests: 7, timeoutMs: 10_000, budgetMs: 90_000 },
    });
    expect(refreshOptionsFrom(loadConfig({ DEPSDEV_URL: "off" })).security).toBeUndefined();
  });

  test("the MCP registry source defaults to the official registry, takes a base URL, or is off", () => {
    expect(loadConfig({})).toMatchObject({
      mcpRegistryUrl: "https://registry.modelcontextprotocol.io",
      mcpRegistryMaxPages: 300,
    });
    expect(loadConfig({ MCP_REGISTRY_URL: "http://127.0.0.1:8080/" }).mcpRegistryUrl).toBe("http://127.0.0.1:8080");
    expect(loadConfig({ MCP_REGISTRY_URL: "off" }).mcpRegistryUrl).toBeNull();
    const options = refreshOptionsFrom(
      loadConfig({ MCP_REGISTRY_URL: "http://127.0.0.1:8080", MCP_REGISTRY_MAX_PAGES: "7" }),
    );
    expect(options.mcpRegistry).toEqual({
      url: "http://127.0.0.1:8080",
      limits: { maxRequests: 7, timeoutMs: 5000, budgetMs: 120_000 },
    });
    expect(refreshOptionsFrom(loadConfig({ MCP_REGISTRY_URL: "off" })).mcpRegistry).toBeUndefined();
  });

  test("a REDIS_URL that is not redis:// is refused without echoing its password", () => {
    expect(() => loadConfig({ REDIS_URL: "http://:secret@cache" })).toThrow(/REDIS_URL: expected a redis:\/\//);
    expect(() => loadConfig({ REDIS_URL: "http://:secret@cache" })).not.toThrow(/secret/);
  });

  const bad: Array<[string, string]> = [
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["BASE_URL", "not a url"],
    ["BASE_URL", "ftp://example.com"],
    ["GITHUB_API_URL", "::"],
    ["REFRESH_CRON", "every six hours"],
    ["RATE_LIMIT_WINDOW_MS", "-1"],
    ["RATE_LIMIT_WINDOW_MS", "2s"],
    ["TRUST_PROXY", "maybe"],
    ["TRUST_PROXY", "33"],
    ["TRUST_PROXY", "-1"],
    ["REDIS_URL", "localhost:6379"],
    ["REDIS_LOCK_TTL_MS", "10"],
    ["METRICS_TOKEN", "two words"],
    ["METRICS_TOKEN", "tökén"],
    ["NPM_REGISTRY_URL", "registry.npmjs.org"],
    ["PYPI_URL", "file:///etc"],
    ["REGISTRY_TIMEOUT_MS", "10"],
    ["DEPSDEV_URL", "api.deps.dev"],
    ["DEPSDEV_BUDGET_MS", "forever"],
    ["MCP_REGISTRY_URL", "registry.modelcontextprotocol.io"],
    ["MCP_REGISTRY_MAX_PAGES", "0"],
  ];
  for (const [name, value] of bad) {
    test(`${name}=${value} stops start-up with an error naming ${name}`, () => {
      let error: unknown;
      try {
        loadConfig({ [name]: value });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe(name);
      expect((error as Error).message).toContain(name);
    });
  }
});
