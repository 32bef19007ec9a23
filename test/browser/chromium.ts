/** Debian's Chromium under Playwright for the browser tests: one launch, one watch for problems. */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";
export const SCREENSHOTS = join(import.meta.dir, "..", "out", "screenshots");
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Chromium {
  browser: BrowserContext;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** A headless Chromium with a fresh profile of its own; the screenshots folder made. */
export async function launchChromium(options: {
  viewport: { width: number; height: number };
  javaScriptEnabled?: boolean;
}): Promise<Chromium> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: \`npm test\` installs Debian's chromium package (scripts/system-packages.sh)`,
    );
  mkdirSync(SCREENSHOTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), "catalog-chromium-"));
  // A persistent context is how Playwright takes a fresh --user-data-dir of our own.
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    ...options,
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What goes wrong on `page` from now on: console errors, page errors, other hosts, failed requests. */
export function watchProblems(page: Page, origin: string): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol !== "data:" && url.origin !== origin) problems.push(`request to another host: ${request.url()}`);
  });
  page.on("requestfailed", (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
  return problems;
}
