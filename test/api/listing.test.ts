/** GET /api/v1/listing/:owner/:repo on a snapshot without refresh decisions: names, statuses, the schedule. */
import { afterEach, describe, expect, test } from "bun:test";
import { plugin, SNAPSHOT_AT, snapshotInput, startServer, type TestServer } from "../helpers";

let server: TestServer;
afterEach(() => server.stop());

const plugins = () => [plugin("acme/widget", { stars: 3, previous_ids: ["acme/gadget"] })];

describe("GET /api/v1/listing/:owner/:repo", () => {
  test("a name the platform cannot have is a 400 in the API's error shape", async () => {
    server = startServer(snapshotInput(plugins()));
    const names = [
      "-acme/widget",
      `${"a".repeat(40)}/widget`,
      `acme/${"r".repeat(101)}`,
      "acme/wid%20get",
      "acme/%3Cscript%3E",
      "ac_me/widget",
    ];
    for (const name of names) {
      const response = await server.get(`/api/v1/listing/${name}`);
      expect([name, response.status]).toEqual([name, 400]);
      const body = (await response.json()) as { data: unknown; message: string };
      expect(body.data).toBeNull();
      expect(body.message).toStartWith("Invalid repository");
    }
  });

  test("a plugin is listed whatever the case of the name; a former id names the current one; others are unseen", async () => {
    server = startServer(snapshotInput(plugins()));
    const listed = (await server.json("/api/v1/listing/ACME/Widget")).data;
    expect(listed).toMatchObject({ id: "acme/widget", status: "listed", current_id: null, evidence_checked: null });
    expect(listed.last_checked_at).toBe(SNAPSHOT_AT);
    const former = (await server.json("/api/v1/listing/acme/gadget")).data;
    expect(former).toMatchObject({ id: "acme/widget", status: "listed", current_id: "acme/widget" });
    const unseen = (await server.json("/api/v1/listing/acme/nothing")).data;
    expect(unseen).toMatchObject({ id: "acme/nothing", status: "unseen", reason: null, last_checked_at: null });
  });

  test("next_check_at is the scheduled refresh's next tick (REFRESH_CRON), later than now", async () => {
    server = startServer(snapshotInput(plugins()), { refreshCron: "*/15 * * * *" });
    const before = Date.now();
    const { next_check_at } = (await server.json("/api/v1/listing/acme/nothing")).data;
    const next = Date.parse(next_check_at);
    expect(next).toBeGreaterThan(before);
    expect(next - before).toBeLessThanOrEqual(15 * 60_000);
    expect(next % (15 * 60_000)).toBe(0);
    expect((await server.json("/api/v1/listing/acme/nothing")).data.advice).toEndWith(
      `looks again at ${next_check_at}.`,
    );
  });

  test("is rate limited like the API", async () => {
    server = startServer(snapshotInput(plugins()), { rateLimitWindowMs: 2000 });
    expect((await server.get("/api/v1/listing/acme/widget")).status).toBe(200);
    const refused = await server.get("/api/v1/listing/acme/other");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("2");
  });
});
