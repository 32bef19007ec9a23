/**
 * `npm start` as a process manager runs it: the signal it sends to the process it started (npm)
 * reaches the server, which stops; npm exits 0 and nothing is left holding the port.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { join } from "node:path";
import { tempDir } from "../helpers";
import { spawnService } from "./support/process";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("npm start", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`${signal} to npm stops the server: npm exits 0 and the port is free`, async () => {
      const { dir, cleanup } = tempDir();
      cleanups.push(cleanup);
      const { service, listening: ready } = spawnService({ DATABASE_PATH: join(dir, "catalog.sqlite") }, [
        "npm",
        "start",
        "--silent",
      ]);
      cleanups.push(() => service.proc.kill("SIGKILL"));
      const url = await ready;
      const port = Number(new URL(url).port);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      service.proc.kill(signal);
      expect(await service.exited).toBe(0);
      expect(await listening(port)).toBe(false);
      expect(service.events.some((e) => e.event === "server.stopped")).toBe(true);
    }, 60_000);
  }
});
