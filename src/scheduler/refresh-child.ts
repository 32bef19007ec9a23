/**
 * The child process a scheduled refresh runs in (refresh-process.ts starts it): it takes one
 * request over IPC, runs the refresh as `npm run refresh` does, sends its log events and result
 * back, and exits. It exits as well when the server is gone, so no run outlives its server.
 */
import type { Log } from "../base/log";
import { formatResult } from "../refresh/report";
import type { ChildMessage, ChildRequest } from "./refresh-process";
import { outcomeOf } from "./refresh-process";
import { refreshAndShare } from "./refresh-task";

function send(message: ChildMessage, then?: () => void): void {
  process.send?.(message, undefined, undefined, then);
}

const log: Log = (event, fields) => send({ log: [event, fields] });

async function main(request: ChildRequest): Promise<void> {
  let message: ChildMessage;
  try {
    const result = await refreshAndShare(request.options, request.shared, log, () => send({ published: true }));
    message = { outcome: outcomeOf(result, formatResult(result), process.pid) };
  } catch (error) {
    message = { outcome: { status: "failed", error: (error as Error).stack ?? String(error), pid: process.pid } };
  }
  // Exits once the result is handed over: leaving earlier could lose it.
  send(message, () => process.exit(0));
}

if (import.meta.main) {
  process.on("disconnect", () => process.exit(1));
  process.once("message", (request) => void main(request as ChildRequest));
}
