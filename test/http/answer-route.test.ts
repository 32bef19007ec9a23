/**
 * The cached-route factory (src/http/answer.ts) on a real snapshot, mounted in Elysia: a URL is
 * parsed once per snapshot unless the route reads the clock, and a parser's 400 can be a page.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Elysia } from "elysia";
import { CatalogStore } from "../../src/catalog/snapshot/store";
import { answerFrom, type Handler } from "../../src/http/answer";
import { render } from "../../src/http/cache";
import { badRequest } from "../../src/http/errors";
import { requestNote } from "../../src/http/request-log";
import { publishMarked, tempDir } from "../reliability/support/catalog";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function storeWithSnapshot(): CatalogStore {
  const { dir, cleanup } = tempDir();
  const path = join(dir, "catalog.sqlite");
  publishMarked(path, "2026-01-02T03:04:05.678Z");
  const store = new CatalogStore(path, { log: () => {} });
  cleanups.push(() => (store.close(), cleanup()));
  return store;
}

function appWith(handler: Handler<{ word: string }>) {
  return new Elysia()
    .decorate(requestNote())
    .onError(() => new Response("error document", { status: 500 }))
    .get("/w/:word", handler as never);
}

const get = async (app: ReturnType<typeof appWith>, path: string) => {
  const response = await app.handle(new Request(`http://localhost${path}`));
  return { status: response.status, body: await response.text() };
};

describe("answer.route", () => {
  test("parses a URL once per snapshot, and answers another spelling of the same arguments from the cache", async () => {
    const answer = answerFrom(storeWithSnapshot(), 1024 * 1024);
    let parses = 0;
    let renders = 0;
    const handler = answer.route(
      "word",
      (query, _snapshot, { word }: { word: string }) => {
        parses++;
        return { word, loud: query.get("loud") === "1" };
      },
      (_snapshot, { word, loud }) => {
        renders++;
        return render(loud ? word.toUpperCase() : word, "text/plain", "no-cache");
      },
    );
    const app = appWith(handler);
    expect(await get(app, "/w/hi?loud=1")).toEqual({ status: 200, body: "HI" });
    expect(await get(app, "/w/hi?loud=1")).toEqual({ status: 200, body: "HI" });
    expect(parses).toBe(1);
    expect(await get(app, "/w/hi?x=2&loud=1")).toEqual({ status: 200, body: "HI" });
    expect([parses, renders]).toEqual([2, 1]);
  });

  test("`fresh` parses every request: an argument that moves with the clock is never served stale", async () => {
    const answer = answerFrom(storeWithSnapshot(), 1024 * 1024);
    let tick = 0;
    const handler = answer.route(
      "tick",
      (_query, _snapshot, { word }: { word: string }) => ({ word, tick }),
      (_snapshot, arg) => render(`${arg.word} ${arg.tick}`, "text/plain", "no-cache"),
      { fresh: true },
    );
    const app = appWith(handler);
    expect((await get(app, "/w/a")).body).toBe("a 0");
    tick = 1;
    expect((await get(app, "/w/a")).body).toBe("a 1");
  });

  test("`bad` answers the parser's 400 (only a 400) in its own way", async () => {
    const answer = answerFrom(storeWithSnapshot(), 1024 * 1024);
    const handler = answer.route(
      "bad",
      (_query, _snapshot, { word }: { word: string }) => {
        if (word === "no") throw badRequest("word", "anything but no");
        if (word === "boom") throw new Error("boom");
        return word;
      },
      (_snapshot, word) => render(word, "text/plain", "no-cache"),
      { bad: (error) => new Response(`page: ${error.message}`, { status: error.status }) },
    );
    const app = appWith(handler);
    expect(await get(app, "/w/yes")).toEqual({ status: 200, body: "yes" });
    const bad = await get(app, "/w/no");
    expect(bad.status).toBe(400);
    expect(bad.body).toStartWith("page: ");
    expect(await get(app, "/w/boom")).toEqual({ status: 500, body: "error document" });
  });
});
