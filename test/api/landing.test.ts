import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { defaultSnapshotInput } from "../../src/catalog/snapshot/publish";
import { plugin, SNAPSHOT_AT, snapshotInput, startServer, type TestServer } from "../helpers";

const HOSTILE = `<script>alert(1)</script><img src=x onerror=alert(2)> & "quoted"`;

let server: TestServer;
let html: string;

beforeAll(async () => {
  server = startServer(
    snapshotInput([
      plugin("acme/hostile", {
        description: HOSTILE,
        description_zh: `中文<b>说明</b>${HOSTILE}`,
        curated: true,
        stars: 9,
      }),
      plugin("acme/plain", { description: "A plain plugin.", stars: 3, first_seen_at: "2026-08-21T00:00:00.000Z" }),
      plugin(`acme/quote"d`, { description: "", curated: true, description_zh: "只有中文", stars: 5 }),
    ]),
    { baseUrl: "https://plugins.example.org" },
  );
  html = await (await server.get("/")).text();
});
afterAll(() => server.stop());

describe("GET /", () => {
  test("is an HTML page with the live numbers and links to the docs, the document, the feed and the manifest", async () => {
    const response = await server.get("/");
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html).toStartWith('<!doctype html>\n<html lang="en">');
    expect(html).toContain("<dt>plugins</dt><dd>3</dd>");
    expect(html).toContain("<dt>curated</dt><dd>2</dd>");
    expect(html).toContain(`<time datetime="${SNAPSHOT_AT}">`);
    for (const href of [
      "/docs",
      "/openapi.json",
      "/plugins/feed.xml",
      "/market/manifest.json",
      "/api/v1/plugins",
      "/v0.1/servers",
    ]) {
      expect(html).toContain(`href="${href}"`);
    }
  });

  test("escapes every upstream string: no markup from a description reaches the page", () => {
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;script>alert(1)&lt;/script>");
    expect(html).toContain("acme/quote&quot;d");
    expect(html).not.toContain(`acme/quote"d`);
  });

  test("lists the newest plugins and the curated picks, their Chinese descriptions marked lang=zh", () => {
    const newest = html.slice(html.indexOf('id="newest"'), html.indexOf('id="picks"'));
    expect(newest.indexOf("acme/plain")).toBeGreaterThan(-1);
    const picks = html.slice(html.indexOf('id="picks"'));
    expect(picks).toContain('<p lang="zh">只有中文</p>');
    expect(picks).toContain('<p lang="zh">中文&lt;b>说明&lt;/b>');
    expect(picks).not.toContain("acme/plain");
    // Every run of Chinese text sits inside an element marked lang="zh".
    for (const match of html.matchAll(/[\u4e00-\u9fff]+/g)) {
      const before = html.slice(0, match.index);
      const open = before.lastIndexOf("<");
      expect(before.slice(open)).toMatch(/^<(p|span) lang="zh">/);
    }
  });

  test("is cached per snapshot with an ETag: If-None-Match gives 304", async () => {
    const first = await server.get("/");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"/);
    expect((await server.get("/", { "If-None-Match": etag })).status).toBe(304);
  });

  test("loads nothing from another host: no script, and a policy that allows only this service", async () => {
    const response = await server.get("/");
    expect(html).not.toContain("<script");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
  });

  test("is where the feed's channel link points", async () => {
    const feed = await (await server.get("/plugins/feed.xml")).text();
    const link = feed.match(/<channel>[\s\S]*?<link>([^<]+)<\/link>/)![1]!;
    expect(link).toBe("https://plugins.example.org/");
    expect((await server.get(new URL(link).pathname)).headers.get("content-type")).toStartWith("text/html");
  });
});

describe("GET /docs", () => {
  test("is the API reference, every script and style served here", async () => {
    const page = await (await server.get("/docs")).text();
    const refs = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs).toContain("/docs/assets/swagger-ui-bundle.js");
    for (const ref of refs) {
      if (ref === "data:,") continue;
      expect(ref).toStartWith("/");
      expect([ref, (await server.get(ref)).status]).toEqual([ref, 200]);
    }
    const setup = await (await server.get("/docs/assets/docs-setup.js")).text();
    expect(setup).toContain('url: "/openapi.json"');
    expect(setup).toContain("validatorUrl: null");
  });

  test("an unknown asset is a 404, and no path leaves the asset list", async () => {
    expect((await server.get("/docs/assets/package.json")).status).toBe(404);
    expect((await server.get("/docs/assets/..%2fpackage.json")).status).toBe(404);
  });

  test("assets go out gzip-compressed with an ETag", async () => {
    const response = await fetch(`${server.url}/docs/assets/swagger-ui-bundle.js`, {
      headers: { "Accept-Encoding": "gzip" },
    });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("etag")).toEndWith('.gzip"');
  });
});

describe("GET / for plugin authors", () => {
  test("says how a plugin gets listed, how to check a repository and the badge's Markdown", () => {
    const section = html.slice(html.indexOf('id="authors"'));
    expect(section).toContain("For plugin authors");
    expect(section).toContain('<a href="/api/v1/listing/acme/hostile">');
    expect(section).toContain(
      "[![Plugin Catalog](https://plugins.example.org/badge/acme/hostile.svg)](https://plugins.example.org/plugin/acme/hostile)",
    );
  });

  test("names the evidence the refresh rules accept (db/discovery.json in the embedded default)", async () => {
    const fromDefault = startServer(defaultSnapshotInput());
    try {
      const page = await (await fromDefault.get("/")).text();
      const section = page.slice(page.indexOf('id="authors"'));
      expect(section).toContain("<code>.claude-plugin/plugin.json</code>");
      expect(section).toContain("<code>claude-code-plugin</code>");
      expect(section).toContain("<code>skills/</code>");
      expect(section).toContain("<code>package.json: @modelcontextprotocol/sdk</code>");
    } finally {
      await fromDefault.stop();
    }
  });
});
