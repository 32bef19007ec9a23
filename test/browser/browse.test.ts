/**
 * The catalog's pages as a person uses them, in a real browser (Debian's Chromium, headless), on
 * the embedded default plus a plugin with install instructions and one with a 1,000-character
 * unbroken description: search from the home page, filter by a category, page forward, open a
 * plugin, copy its install command, follow a renamed plugin's old address. Each page passes axe
 * with no serious or critical violation, logs no console error, asks no other host for anything,
 * and never scrolls sideways on a 390 px phone. Screenshots at 390 and 1,280 px go to
 * test/out/screenshots/.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { defaultSnapshotInput } from "../../src/catalog/snapshot/publish";
import { plugin, startServer, type TestServer } from "../helpers";
import { addRecordFields, INSTALL } from "../rich-records";
import { type Chromium, launchChromium, SCREENSHOTS, watchProblems } from "./chromium";

const AXE = readFileSync(Bun.resolveSync("axe-core/axe.min.js", import.meta.dir), "utf8");
const PHONE = { width: 390, height: 844 };
const SCREEN = { width: 1280, height: 900 };
const UNBROKEN = `https://example.org/${"a".repeat(980)}`;

let server: TestServer;
let chromium: Chromium;
let browser: BrowserContext;

beforeAll(async () => {
  const input = defaultSnapshotInput();
  input.plugins.push(
    plugin("acme/mcp-toolkit", {
      description: "Tools for the agent, installed in one command.",
      description_zh: "一条命令安装的智能体工具。",
      categories: ["mcp"],
      category: "mcp",
      stars: 4321,
      forks: 12,
      language: "TypeScript",
      license: "MIT",
      homepage: "https://acme.example/toolkit",
      topics: ["mcp", "automation"],
    }),
    plugin("acme/unbroken", {
      description: UNBROKEN,
      description_zh: "长".repeat(400),
      categories: ["mcp"],
      category: "mcp",
      stars: 3,
      topics: ["x".repeat(50)],
    }),
  );
  server = startServer(input, { baseUrl: "http://127.0.0.1" });
  addRecordFields(server.path, "acme/mcp-toolkit", {
    install: INSTALL,
    contents: {
      skills: [{ name: "review", description: "Reviews a change before it ships." }],
      commands: ["ship"],
      agents: [],
      hooks: ["PreToolUse"],
      mcp_servers: ["toolkit"],
      plugins: [],
      counts: { skills: 1, commands: 1, agents: 0, hooks: 1, mcp_servers: 1, plugins: 0 },
    },
    works_with: ["claude-code", "mcp"],
    fork_of: null,
    deprecated: false,
    lookalike_of: null,
    latest_release: { tag: "v1.2.0", date: "2026-07-01T00:00:00Z" },
  });
  chromium = await launchChromium({ viewport: SCREEN });
  browser = chromium.browser;
  await browser.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(server.url).origin });
}, 60_000);

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

/** A page that records what went wrong on it: console errors, page errors, other hosts, failed requests. */
async function open(viewport = SCREEN): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  await page.setViewportSize(viewport);
  return { page, problems: watchProblems(page, new URL(server.url).origin) };
}

/** axe-core's serious and critical violations on the page as it is now. */
async function accessibility(page: Page): Promise<string[]> {
  // Evaluated through the browser's protocol, which the page's policy does not govern.
  await page.evaluate(AXE);
  // Written as source: this file is compiled without the DOM's types.
  const violations = (await page.evaluate(`axe.run().then((result) => result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    nodes: v.nodes.map((n) => n.target.join(" ")),
  })))`)) as Array<{ id: string; impact: string; nodes: string[] }>;
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.join(", ")}`);
}

/** Whether the page scrolls sideways. */
const scrollsSideways = (page: Page) =>
  page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth");

async function screenshots(page: Page, name: string): Promise<void> {
  for (const [label, viewport] of [
    ["390", PHONE],
    ["1280", SCREEN],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${label}.png`), fullPage: true });
  }
}

describe("in Chromium", () => {
  test("search from the home page, filter by a category, page forward, open a plugin", async () => {
    const { page, problems } = await open();
    await page.goto(`${server.url}/`, { waitUntil: "networkidle" });
    await page.fill("#site-q", "agent");
    await Promise.all([page.waitForURL(/\/browse\?q=agent$/), page.press("#site-q", "Enter")]);
    expect(await page.textContent("h1")).toBe("Plugins matching “agent”");
    expect(await page.locator("ul.plugins > li").count()).toBe(20);
    await screenshots(page, "browse-search");
    expect(await accessibility(page)).toEqual([]);

    await page.selectOption("#f-category", "skills");
    await Promise.all([page.waitForURL(/category=skills/), page.click("form.filters button[type=submit]")]);
    expect(await page.textContent("h1")).toBe("Plugins matching “agent” in Skills");
    const total = Number((await page.textContent("p[role=status] strong"))!.replace(/,/g, ""));
    expect(total).toBeGreaterThan(20);

    await Promise.all([page.waitForURL(/page=2/), page.click("a[rel=next]")]);
    expect(await page.textContent("nav.pages span")).toContain("Page 2 of");
    expect(await page.locator("a[rel=prev]").count()).toBe(1);

    const first = page.locator("ul.plugins > li h3 a").first();
    const name = (await first.textContent())!;
    await Promise.all([page.waitForURL(/\/plugin\//), first.click()]);
    expect(await page.textContent("h1")).toBe(name);
    expect(await page.locator('section[aria-labelledby="categories"] a', { hasText: "Skills" }).count()).toBe(1);
    expect(await accessibility(page)).toEqual([]);
    await page.close();
    expect(problems).toEqual([]);
  }, 120_000);

  test("the search box suggests plugins as one types, and a suggestion opens its page", async () => {
    const { page, problems } = await open();
    await page.goto(`${server.url}/browse`, { waitUntil: "networkidle" });
    await page.locator("#site-q").pressSequentially("obra/sup", { delay: 30 });
    const suggestion = page.locator("#suggestions a").first();
    await suggestion.waitFor({ timeout: 10_000 });
    expect(await suggestion.textContent()).toStartWith("obra/superpowers");
    await page.screenshot({ path: join(SCREENSHOTS, "suggest-1280.png") });
    await page.press("#site-q", "ArrowDown");
    await Promise.all([page.waitForURL(/\/plugin\/obra\/superpowers$/), page.keyboard.press("Enter")]);
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  test("a category's page lists it and offers its feeds; the install command copies", async () => {
    const { page, problems } = await open();
    await page.goto(`${server.url}/categories/mcp`, { waitUntil: "networkidle" });
    expect(await page.textContent("h1")).toContain("MCP Servers");
    const feeds = await page.$$eval('link[rel="alternate"]', (links) => links.map((l) => l.getAttribute("href")));
    expect(feeds).toEqual(
      expect.arrayContaining(["/plugins/feed.xml?category=mcp", "/plugins/feed.atom?category=mcp"]),
    );
    await screenshots(page, "category");
    expect(await accessibility(page)).toEqual([]);

    await page.goto(`${server.url}/plugin/acme/mcp-toolkit`, { waitUntil: "networkidle" });
    const copy = page.getByRole("button", { name: "Copy the claude-code install command" });
    await copy.click();
    await page.waitForFunction('document.body.textContent.includes("Copied to the clipboard.")');
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe("/plugin install toolkit@acme");
    expect(await page.getByRole("button", { name: "Copied the claude-code install command" }).textContent()).toBe(
      "Copied",
    );
    await screenshots(page, "plugin");
    expect(await accessibility(page)).toEqual([]);
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  test("a renamed plugin's old address opens its page", async () => {
    const { page, problems } = await open();
    const response = await page.goto(`${server.url}/plugin/apify/actors-mcp-server`, { waitUntil: "networkidle" });
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/plugin/apify/apify-mcp-server");
    expect(await page.textContent("h1")).toBe("apify/apify-mcp-server");
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  test("a 1,000-character unbroken description never scrolls a 390 px phone sideways", async () => {
    const { page, problems } = await open(PHONE);
    for (const path of [
      "/plugin/acme/unbroken",
      "/browse?q=unbroken",
      "/",
      "/browse?q=mcp",
      "/plugin/acme/mcp-toolkit",
    ]) {
      await page.goto(`${server.url}${path}`, { waitUntil: "networkidle" });
      expect([path, await scrollsSideways(page)]).toEqual([path, false]);
    }
    await page.goto(`${server.url}/plugin/acme/unbroken`, { waitUntil: "networkidle" });
    expect(await page.getAttribute("p[lang=zh]", "lang")).toBe("zh");
    await screenshots(page, "plugin-unbroken");
    expect(await accessibility(page)).toEqual([]);
    await page.goto(`${server.url}/`, { waitUntil: "networkidle" });
    await screenshots(page, "home");
    expect(await accessibility(page)).toEqual([]);
    await page.goto(`${server.url}/browse?q=zzzzqqqq`, { waitUntil: "networkidle" });
    await screenshots(page, "browse-empty");
    expect(await accessibility(page)).toEqual([]);
    await page.close();
    expect(problems).toEqual([]);
  }, 120_000);

  test("without JavaScript, a person still searches, filters and reads a plugin's install command", async () => {
    const noScript = await launchChromium({ viewport: PHONE, javaScriptEnabled: false });
    try {
      const page = await noScript.browser.newPage();
      await page.goto(`${server.url}/`);
      await page.fill("#site-q", "toolkit");
      await Promise.all([page.waitForURL(/\/browse\?q=toolkit/), page.press("#site-q", "Enter")]);
      await page.selectOption("#f-category", "mcp");
      await Promise.all([page.waitForURL(/category=mcp/), page.click("form.filters button[type=submit]")]);
      await Promise.all([page.waitForURL(/\/plugin\/acme\/mcp-toolkit/), page.click("text=acme/mcp-toolkit")]);
      expect(await page.textContent("pre[data-copy] code")).toBe("/plugin install toolkit@acme");
      expect(await page.locator("button", { hasText: "Copy" }).count()).toBe(0);
      // Subscribing to a category: from the home page to the category, then its Atom feed.
      await page.goto(`${server.url}/`);
      await Promise.all([page.waitForURL(/\/categories\/hooks$/), page.click('a[href="/categories/hooks"]')]);
      const [feed] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith("/plugins/feed.atom?category=hooks")),
        page.click("main >> text=Atom"),
      ]);
      expect(feed.status()).toBe(200);
      expect(feed.headers()["content-type"]).toBe("application/atom+xml; charset=utf-8");
    } finally {
      await noScript.close();
    }
  }, 60_000);
});
