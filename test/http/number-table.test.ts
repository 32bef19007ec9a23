/** NumberTable against a Map: the same answers under any sequence of sets, gets and deletes. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { NumberTable } from "../../src/http/number-table";

type Op = { kind: "set"; key: number; value: number } | { kind: "delete"; key: number } | { kind: "get"; key: number };

function replay(maxEntries: number, keys: fc.Arbitrary<number>) {
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant("set" as const), key: keys, value: fc.double({ noNaN: true }) }),
    fc.record({ kind: fc.constant("delete" as const), key: keys }),
    fc.record({ kind: fc.constant("get" as const), key: keys }),
  );
  return fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
    const table = new NumberTable(maxEntries);
    const model = new Map<number, number>();
    for (const o of ops) {
      if (o.kind === "set") {
        if (!model.has(o.key) && model.size === maxEntries) {
          expect(() => table.set(o.key, o.value)).toThrow(RangeError);
          continue;
        }
        table.set(o.key, o.value);
        model.set(o.key, o.value);
      } else if (o.kind === "delete") {
        expect(table.delete(o.key)).toBe(model.delete(o.key));
      } else {
        expect(table.get(o.key)).toBe(model.get(o.key));
      }
      expect(table.size).toBe(model.size);
    }
    for (const [key, value] of model) expect(table.get(key)).toBe(value);
  });
}

describe("NumberTable", () => {
  test("behaves as a Map for few keys colliding often", () => {
    fc.assert(replay(12, fc.integer({ min: 0, max: 40 })), { numRuns: 500 });
  });

  test("behaves as a Map for keys across the whole range, the limiter's among them", () => {
    const limiterKey = fc
      .tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }))
      .map(([e, ip]) => e * 2 ** 32 + ip);
    const key = fc.oneof(
      limiterKey,
      fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
      fc.integer({ min: 0, max: 300 }),
    );
    fc.assert(replay(64, key), { numRuns: 300 });
  });

  test("stays exact under a long churn at full occupancy (wrapping probe runs)", () => {
    const table = new NumberTable(1000);
    const model = new Map<number, number>();
    for (let i = 0; i < 200_000; i++) {
      const key = 2 ** 32 + ((i * 2654435761) % 5000);
      if (model.size === 1000 && !model.has(key)) {
        const oldest = model.keys().next().value!;
        expect(table.delete(oldest)).toBe(true);
        model.delete(oldest);
      }
      table.set(key, i);
      model.set(key, i);
    }
    expect(table.size).toBe(model.size);
    for (const [key, value] of model) expect(table.get(key)).toBe(value);
    expect(table.get(7)).toBeUndefined();
  });

  test("refuses keys it cannot hold exactly", () => {
    const table = new NumberTable(4);
    for (const bad of [-1, 0.5, 2 ** 53, Number.NaN]) expect(() => table.set(bad, 1)).toThrow(RangeError);
  });
});

describe("NumberTable.deleteIf", () => {
  test("removes a key only while it holds the given value", () => {
    const table = new NumberTable(8);
    table.set(5, 100);
    expect(table.deleteIf(5, 99)).toBe(false);
    expect(table.get(5)).toBe(100);
    expect(table.deleteIf(6, 100)).toBe(false);
    expect(table.deleteIf(5, 100)).toBe(true);
    expect(table.get(5)).toBeUndefined();
    expect(table.size).toBe(0);
  });
});
