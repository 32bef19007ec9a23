/**
 * The soft memory limit (src/base/memory-limit.ts): a collection past the limit once the resident
 * set has grown over its low, at most once per gap.
 */
import { afterEach, expect, test } from "bun:test";
import { MemoryLimit } from "../src/base/memory-limit";

const MB = 2 ** 20;
let limit: MemoryLimit | undefined;
afterEach(() => limit?.stop());

/** A limit over a resident size and a clock (ms) the test sets, counting the collections it asks for. */
function limited(limitMb: number, gapMs: number) {
  const state = { rss: 0, collected: 0, now: 0 };
  limit = new MemoryLimit({
    limitBytes: limitMb * MB,
    growthBytes: 16 * MB,
    gapMs,
    checkMs: 60_000,
    rss: () => state.rss,
    collect: () => state.collected++,
    now: () => state.now,
  });
  return { state, limit };
}

test("under the limit nothing is collected; past it, grown 16 MB over its low, a collection is asked for and counted", () => {
  const { state, limit } = limited(128, 0);
  state.rss = 100 * MB;
  expect(limit.check()).toBe(false);
  state.rss = 120 * MB;
  expect(limit.check()).toBe(false);
  state.rss = 129 * MB;
  expect(limit.check()).toBe(true);
  expect(state.collected).toBe(1);
  expect(limit.collections).toBe(1);
  expect(limit.pauseSeconds).toBeGreaterThanOrEqual(0);
});

test("a process whose working size sits past its limit is collected again only once it has grown again", () => {
  const { state, limit } = limited(128, 0);
  state.rss = 140 * MB;
  limit.check();
  state.rss = 160 * MB;
  expect(limit.check()).toBe(true);
  // The collection gave back little: the low since is 150 MB.
  state.rss = 150 * MB;
  expect(limit.check()).toBe(false);
  state.rss = 160 * MB;
  expect(limit.check()).toBe(false);
  state.rss = 166 * MB;
  expect(limit.check()).toBe(true);
  expect(state.collected).toBe(2);
});

test("a second collection waits a gap after the first", () => {
  const { state, limit } = limited(128, 40);
  state.rss = 100 * MB;
  limit.check();
  state.rss = 200 * MB;
  expect(limit.check()).toBe(true);
  state.rss = 100 * MB;
  limit.check();
  state.rss = 200 * MB;
  expect(limit.check()).toBe(false);
  state.now += 39;
  expect(limit.check()).toBe(false);
  state.now += 1;
  expect(limit.check()).toBe(true);
  expect(state.collected).toBe(2);
});

test("a collection that gave back nothing doubles the gap; one that gave back memory restores it", () => {
  const { state, limit } = limited(128, 40);
  state.rss = 100 * MB;
  limit.check();
  state.rss = 200 * MB;
  expect(limit.check()).toBe(true);
  // Nothing given back (bodies in flight): the next collection doubles the gap after it.
  limit.check();
  state.now += 45;
  state.rss = 216 * MB;
  expect(limit.check()).toBe(true);
  limit.check();
  state.rss = 232 * MB;
  // 79 ms after it: within the doubled gap of 80 ms.
  state.now += 79;
  expect(limit.check()).toBe(false);
  state.now += 1;
  expect(limit.check()).toBe(true);
  // This one gave back 82 MB: the gap is 40 ms again.
  state.rss = 150 * MB;
  limit.check();
  state.rss = 170 * MB;
  state.now += 40;
  expect(limit.check()).toBe(true);
  state.rss = 150 * MB;
  limit.check();
  state.rss = 170 * MB;
  state.now += 40;
  expect(limit.check()).toBe(true);
  expect(state.collected).toBe(5);
});

test("its timer reads the resident size on its own", async () => {
  const state = { rss: 0, collected: 0 };
  let second!: () => void;
  const collectedTwice = new Promise<void>((resolve) => (second = resolve));
  limit = new MemoryLimit({
    limitBytes: MB,
    gapMs: 0,
    checkMs: 5,
    rss: () => (state.rss += 32 * MB),
    collect: () => {
      if (++state.collected === 2) second();
    },
  });
  // Nothing but the limit's own timer calls check(): the second collection is its second tick's.
  await collectedTwice;
  expect(state.collected).toBeGreaterThanOrEqual(2);
});
