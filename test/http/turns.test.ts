/**
 * Renderings take turns (src/http/turns.ts): one per turn of the event loop, answers the cache
 * holds at once, a full queue refused with 503 and Retry-After, a rendering whose snapshot was
 * replaced while it waited rendered from the new one.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Turns } from "../../src/http/turns";
import { appWithSnapshot, call, json, markerOf, publishMarked, type TestApp } from "../reliability/support/catalog";

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("Turns", () => {
  test("runs one piece of work per turn of the event loop, in arrival order", async () => {
    const turns = new Turns(10);
    const ran: number[] = [];
    const done = [1, 2, 3].map((n) => turns.take(() => ran.push(n)));
    expect(ran).toEqual([]);
    expect(turns.length).toBe(3);
    await turn();
    expect(ran).toEqual([1]);
    await turn();
    expect(ran).toEqual([1, 2]);
    await Promise.all(done);
    expect(ran).toEqual([1, 2, 3]);
    expect(turns.length).toBe(0);
  });

  test("refuses work past its bound and counts it", async () => {
    const turns = new Turns(2);
    const taken = [turns.take(() => 1), turns.take(() => 2), turns.take(() => 3)];
    expect(taken[2]).toBeNull();
    expect(turns.refused).toBe(1);
    expect(await Promise.all(taken.slice(0, 2))).toEqual([1, 2]);
    expect(turns.take(() => 4)).not.toBeNull();
  });
});

let t: TestApp | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

const search = (n: number) => `/api/v1/plugins?q=tool%20${n}`;

describe("the app's renderings", () => {
  test("a cheap answer is not held behind renderings that arrived before it", async () => {
    t = appWithSnapshot();
    const order: string[] = [];
    const renderings = [1, 2, 3].map((n) => call(t!.app, search(n)).then(() => order.push(`search ${n}`)));
    const live = call(t.app, "/healthz").then(() => order.push("healthz"));
    await Promise.all([...renderings, live]);
    expect(order).toEqual(["healthz", "search 1", "search 2", "search 3"]);
  });

  test("a full queue is refused with 503, Retry-After and the error document, and counted", async () => {
    t = appWithSnapshot({ RENDER_QUEUE_MAX: "2" });
    const answers = await Promise.all([1, 2, 3].map((n) => call(t!.app, search(n))));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 503]);
    expect(answers[2]!.headers.get("retry-after")).toBe("1");
    expect(await json(answers[2]!)).toEqual({
      code: 503,
      message: "The service is busy rendering other answers; retry shortly.",
      data: null,
    });
    // Rendered once, the same search is the cache's: answered however full the queue.
    const again = await Promise.all([1, 2, 1, 2].map((n) => call(t!.app, search(n))));
    expect(again.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const metrics = await (await call(t.app, "/metrics")).text();
    expect(metrics).toContain("catalog_renders_refused_total 1");
    expect(metrics).toContain("catalog_renders_waiting 0");
    const logged = t.lines.filter((l) => l.event === "request" && l.route === "/api/v1/plugins");
    expect(logged.map((l) => l.status)).toEqual([503, 200, 200, 200, 200, 200, 200]);
  });

  test("a rendering at its turn answers a current If-None-Match with 304, its ETag and no body", async () => {
    // Nothing is cached: every request is rendered, each at its turn.
    t = appWithSnapshot({ RESPONSE_CACHE_BYTES: "0" });
    const first = await call(t.app, search(1));
    const etag = first.headers.get("etag")!;
    expect(first.status).toBe(200);
    const again = t.app.fetch(new Request(`http://localhost${search(1)}`, { headers: { "If-None-Match": etag } }));
    expect(again).toBeInstanceOf(Promise);
    const notModified = (await again) as Response;
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("etag")).toBe(etag);
    expect(await notModified.text()).toBe("");
  });

  test("RENDER_QUEUE_MAX=0 renders each request at once", async () => {
    t = appWithSnapshot({ RENDER_QUEUE_MAX: "0" });
    const answer = t.app.fetch(new Request(`http://localhost${search(1)}`));
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(200);
  });

  test("a rendering whose snapshot was replaced while it waited answers from the new snapshot", async () => {
    t = appWithSnapshot();
    const waiting = call(t.app, "/api/v1/plugins?q=tool");
    const newer = publishMarked(t.path, "2026-02-03T04:05:06.789Z");
    expect(t.store.reloadIfChanged()).toBe(true);
    const answer = await waiting;
    expect(answer.status).toBe(200);
    const body = await json(answer);
    expect(body.data.items[0].description).toContain(markerOf(newer));
  });
});

describe("the lookup's POST", () => {
  const lookup = (body: string) =>
    call(t!.app, "/api/v1/lookup", { method: "POST", body, headers: { "Content-Type": "application/json" } });
  const posted = () => t!.lines.filter((l) => l.event === "request" && l.method === "POST");

  test("one body, however spelled, is rendered once per snapshot: the same bytes from the cache", async () => {
    t = appWithSnapshot();
    const first = await lookup(JSON.stringify({ ids: ["acme/a", "acme/b"], since: null }));
    const again = await lookup('{ "since": null,\n  "ids": [ "acme/a", "acme/b" ] }');
    const other = await lookup(JSON.stringify({ ids: ["acme/b", "acme/a"] }));
    expect([first.status, again.status, other.status]).toEqual([200, 200, 200]);
    const [a, b] = [new Uint8Array(await first.arrayBuffer()), new Uint8Array(await again.arrayBuffer())];
    expect(Buffer.compare(a, b)).toBe(0);
    expect(again.headers.get("cache-control")).toBe("no-store");
    // Another order is another answer (items come in the order asked).
    expect(posted().map((l) => l.cache)).toEqual(["miss", "hit", "miss"]);
  });

  test("a POST the cache does not hold waits its turn: past the queue's bound a 503 with Retry-After", async () => {
    t = appWithSnapshot({ RENDER_QUEUE_MAX: "2" });
    const bodies = [1, 2, 3].map((n) => JSON.stringify({ ids: [`acme/tool-${n}`] }));
    const answers = await Promise.all(bodies.map(lookup));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 503]);
    expect(answers[2]!.headers.get("retry-after")).toBe("1");
    expect(await json(answers[2]!)).toEqual({
      code: 503,
      message: "The service is busy rendering other answers; retry shortly.",
      data: null,
    });
    // Rendered once, a body is the cache's: answered however full the queue.
    const again = await Promise.all([bodies[0]!, bodies[1]!, bodies[0]!, bodies[1]!].map(lookup));
    expect(again.map((r) => r.status)).toEqual([200, 200, 200, 200]);
  });
});
