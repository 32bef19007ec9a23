import { test } from "bun:test";
import { defaultSnapshotInput } from "./src/catalog/publish";
import { startServer } from "./test/helpers";
test("x", async () => {
  const server = startServer(defaultSnapshotInput());
  for (const h of [{ "accept-encoding": "identity" }, { "accept-encoding": "gzip" }]) {
    const r = await fetch(`${server.url}/market/v1/catalog.json`, { headers: h, decompress: false });
    console.log(r.status, [...r.headers].filter(([k]) => !k.startsWith("access") && !k.startsWith("content-sec")), (await r.arrayBuffer()).byteLength);
  }
  const r = await fetch(`${server.url}/market/v1/catalog.json`, { method: "HEAD" });
  console.log(r.status, [...r.headers].filter(([k]) => k.startsWith("content-l")));
  await server.stop();
});
