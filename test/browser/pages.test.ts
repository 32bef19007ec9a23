/**
 * The home page and the API reference in a real browser (Debian's Chromium, headless): each
 * renders, logs no console error and asks no other host for anything. Screenshots go to
 * test/out/screenshots/ for a person to look at.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { BrowserContext } from "playwright-core";
import { defaultSnapshotInput } from "../../src/catalog/snapshot/publish";
import { startServer, type TestServer } from "../helpers";
import { type Chromium, launchChromium, SCREENSHOTS, watchProblems } from "./chromium";

let server: TestServer;
let chromium: Chromium;
let browser: BrowserContext;

beforeAll(async () => {
  server = startServer(defaultSnapshotInput(), { baseUrl: "http://127.0.0.1" });
  chromium = await launchChromium({ viewport: { width: 1280, height: 900 } });
  browser = chromium.browser;
}, 60_000);

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

/** Opens `path`, waits for `ready`, screenshots it; returns what went wrong on the way. */
async function visit(path: string, ready: string, name: string) {
  const page = await browser.newPage();
  const problems = watchProblems(page, new URL(server.url).origin);
  const response = await page.goto(server.url + path, { waitUntil: "networkidle" });
  await page.waitForSelector(ready, { timeout: 20_000 });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-full.png`), fullPage: true });
  const title = await page.title();
  await page.close();
  return { status: response?.status(), problems, title };
}

describe("in Chromium", () => {
  test("the home page renders the catalog with nothing from another host and no console error", async () => {
    const { status, problems, title } = await visit("/", "#picks", "home");
    expect(problems).toEqual([]);
    expect(status).toBe(200);
    expect(title).toBe("Plugin Catalog");
  }, 60_000);

  test("the API reference renders every operation of /openapi.json, all of it served here", async () => {
    const { status, problems, title } = await visit("/docs", ".opblock-summary-path", "docs");
    expect(problems).toEqual([]);
    expect(status).toBe(200);
    expect(title).toBe("Plugin Catalog API reference");
    const page = await browser.newPage();
    await page.goto(`${server.url}/docs`, { waitUntil: "networkidle" });
    await page.waitForSelector(".opblock-summary-path");
    const shown = await page.$$eval(".opblock-summary-path", (nodes) => nodes.map((n) => n.getAttribute("data-path")));
    const paths = (await server.json("/openapi.json")).paths as Record<string, object>;
    const documented = Object.keys(paths);
    // Each path shows each of its operations: GET, HEAD and OPTIONS, and the lookup's POST.
    expect([...new Set(shown)].sort()).toEqual(documented.sort());
    expect(shown.length).toBe(Object.values(paths).reduce((n, operations) => n + Object.keys(operations).length, 0));
    // The list operation opened: its parameters with their allowed values, as a client author sees them.
    await page.click('.opblock-summary-path[data-path="/api/v1/plugins"]');
    await page.waitForSelector(".parameters");
    const sorts = await page.$$eval('tr[data-param-name="sort"] select option', (nodes) =>
      nodes.map((n) => n.textContent),
    );
    expect(sorts).toEqual(expect.arrayContaining(["default", "heat"]));
    await page.screenshot({ path: join(SCREENSHOTS, "docs-list.png"), fullPage: true });
    await page.close();
  }, 60_000);

  test("Try it out works from 127.0.0.1 when BASE_URL names localhost: requests go to the host the page came from", async () => {
    const elsewhere = startServer(defaultSnapshotInput(), { baseUrl: "http://localhost:9" });
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console error: ${message.text()}`);
    });
    page.on("requestfailed", (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
    const asked: string[] = [];
    page.on("request", (request) => asked.push(request.url()));
    try {
      await page.goto(`${elsewhere.url}/docs`, { waitUntil: "networkidle" });
      await page.click('.opblock-summary-path[data-path="/api/v1/categories"]');
      await page.click(".opblock.is-open .execute");
      const status = await page.waitForSelector(
        ".opblock.is-open .live-responses-table tr.response .response-col_status",
        {
          timeout: 20_000,
        },
      );
      expect((await status.textContent())?.trim()).toStartWith("200");
      await page.screenshot({ path: join(SCREENSHOTS, "docs-try-it-out.png"), fullPage: true });
      expect(asked).toContain(`${elsewhere.url}/api/v1/categories`);
      expect(asked.filter((url) => url.includes("localhost"))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await elsewhere.stop();
    }
  }, 60_000);
});
