/**
 * A body of many pieces sent by a server: every byte in order to a reader slower than the server,
 * though the stream reads each chunk into the one buffer it reuses; and no more reading once the
 * client has gone.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readlinkSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileBody, type Piece, WHOLE_BYTES } from "../../src/market/file-body";
import { eventually } from "../helpers";

const MB = 1024 * 1024;
let dir: string;
let path: string;
/** Bytes of the file: each 4 KB block names its own index, so a block sent twice or out of place shows. */
let bytes: Uint8Array;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "filebody-"));
  path = join(dir, "groups.json");
  bytes = new Uint8Array(4 * MB);
  for (let block = 0; block < bytes.byteLength / 4096; block++) {
    bytes.set(new TextEncoder().encode(String(block).padStart(4096, ".")), block * 4096);
  }
  writeFileSync(path, bytes);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A server that answers every request with `body`'s plain form, as the sync routes do. */
function serving(body: FileBody) {
  return Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request) => new Response(body.body(false, 0, body.plainLength, request.signal)),
  });
}

/** Whether this process holds `file` open. */
const holds = (file: string) =>
  readdirSync("/proc/self/fd").some((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  });

test("a streamed body reaches a slow reader whole and in order", async () => {
  const head = new TextEncoder().encode('{"added":[');
  const pieces: Piece[] = [
    { bytes: head },
    { path, offset: 1000, length: 3 * MB },
    { bytes: new TextEncoder().encode("],[") },
    { path, offset: 0, length: 2 * MB + 17 },
  ];
  const body = new FileBody(pieces, []);
  expect(body.plainLength).toBeGreaterThan(WHOLE_BYTES);
  const expected = new Uint8Array(body.plainLength);
  let at = 0;
  for (const piece of pieces) {
    const part = "bytes" in piece ? piece.bytes : bytes.subarray(piece.offset, piece.offset + piece.length);
    expected.set(part, at);
    at += part.byteLength;
  }
  const server = serving(body);
  try {
    const res = await fetch(server.url);
    const reader = res.body!.getReader();
    const received: Uint8Array[] = [];
    let reads = 0;
    for (let step = await reader.read(); !step.done; step = await reader.read()) {
      received.push(step.value.slice());
      // Slower than the server: its writes find the socket full and wait for it to drain.
      // A fixed pause, not an event: the slowness of this reader is what the test is about.
      if (++reads % 4 === 0) await Bun.sleep(2);
    }
    expect(Buffer.concat(received).equals(Buffer.from(expected))).toBe(true);
  } finally {
    server.stop(true);
  }
});

test("the server stops reading a streamed body once its client has gone", async () => {
  // 32 GB of a sparse file, held open all along: more than the reading could finish while the test waits.
  const sparse = join(dir, "sparse");
  const GB = 1024 * MB;
  writeFileSync(sparse, "");
  truncateSync(sparse, 16 * GB);
  const body = new FileBody(
    [
      { path: sparse, offset: 0, length: 16 * GB },
      { path: sparse, offset: 0, length: 16 * GB },
    ],
    [],
  );
  const server = serving(body);
  try {
    const leaving = new AbortController();
    const res = await fetch(server.url, { signal: leaving.signal });
    await res.body!.getReader().read();
    expect(holds(sparse)).toBe(true);
    leaving.abort();
    await eventually(() => !holds(sparse), 2000, "the sparse file closed");
    expect(holds(sparse)).toBe(false);
  } finally {
    server.stop(true);
  }
});
