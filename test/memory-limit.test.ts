/** The soft memory limit (src/base/memory-limit.ts): a collection past the limit, at most once per gap. */
import { afterEach, expect, test } from "bun:test";
import { MemoryLimit } from "../src/base/memory-limit";

const MB = 2 ** 20;
let limit: MemoryLimit | undefined;
afterEach(() => limit?.stop());

/** A limit over a resident size the test sets, counting the collections it asks for. */
function limited(limitMb: number, gapMs: number) {
  const state = { rss: 0, collected: 0 };
  limit = new MemoryLimit({
    limitBytes: limitMb * MB,
    gapMs,
    checkMs: 60_000,
    rss: () => state.rss,
    collect: () => state.collected++,
  });
  return { state, limit };
}

test("under the limit nothing is collected; past it a collection is asked for and counted", () => {
  const { state, limit } = limited(128, 0);
  state.rss = 100 * MB;
  // A gap of 0 stays 0 however often it doubles.
  expect(limit.check()).toBe(false);
  state.rss = 129 * MB;
  expect(limit.check()).toBe(true);
  expect(limit.check()).toBe(true);
  expect(state.collected).toBe(2);
  expect(limit.collections).toBe(2);
  expect(limit.pauseSeconds).toBeGreaterThanOrEqual(0);
});

test("a second collection waits a gap after the first, longer while the process stays past its limit", async () => {
  const { state, limit } = limited(128, 40);
  state.rss = 200 * MB;
  expect(limit.check()).toBe(true);
  expect(limit.check()).toBe(false);
  await Bun.sleep(50);
  // Still past the limit: the gap doubled to 80 ms.
  expect(limit.check()).toBe(false);
  await Bun.sleep(40);
  expect(limit.check()).toBe(true);
  // Under the limit once, the gap is back to 40 ms.
  state.rss = 100 * MB;
  expect(limit.check()).toBe(false);
  state.rss = 200 * MB;
  await Bun.sleep(50);
  expect(limit.check()).toBe(true);
  expect(state.collected).toBe(3);
});

test("its timer reads the resident size on its own", async () => {
  const state = { collected: 0 };
  limit = new MemoryLimit({
    limitBytes: MB,
    gapMs: 0,
    checkMs: 5,
    rss: () => 2 * MB,
    collect: () => state.collected++,
  });
  await Bun.sleep(50);
  expect(state.collected).toBeGreaterThanOrEqual(2);
});
