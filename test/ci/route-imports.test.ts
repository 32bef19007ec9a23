/** Route files never import one another: what several routes share lives in a helper that imports no route. */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROUTES = join(import.meta.dir, "..", "..", "src", "routes");
const HELPERS = new Set(["answer", "layout", "advice", "schedule"]);

test("a route file imports only helpers, and a helper imports no route file", () => {
  const imports = readdirSync(ROUTES)
    .filter((file) => file.endsWith(".ts"))
    .flatMap((file) => {
      const source = readFileSync(join(ROUTES, file), "utf8");
      return [...source.matchAll(/from "\.\/([^"]+)"/g)].map((m) => [file.replace(/\.ts$/, ""), m[1]!] as const);
    });
  expect(imports.length).toBeGreaterThan(0);
  const wrong = imports.filter(([from, to]) => !HELPERS.has(to) || (HELPERS.has(from) && HELPERS.has(to)));
  expect(wrong).toEqual([]);
});
