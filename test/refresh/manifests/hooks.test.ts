/** `hooks/hooks.json`: its event names, with or without the `hooks` wrapper; a name no event has is counted. */
import { describe, expect, test } from "bun:test";
import { json, readRepo } from "./read";

describe("hooks.json", () => {
  test("events of the documented form are listed", () => {
    const file = json({ description: "Formatting", hooks: { PreToolUse: [], SessionStart: [] } });
    expect(readRepo({ "hooks/hooks.json": file }).details!.contents!.hooks).toEqual(["PreToolUse", "SessionStart"]);
  });

  test("an event name no event has is counted and left out", () => {
    const read = readRepo({ "hooks/hooks.json": json({ hooks: { Stop: [], "rm -rf": [] } }) });
    expect(read.details!.contents!.hooks).toEqual(["Stop"]);
    expect(read.refused).toEqual({ "manifest hooks/hooks.json: hook event not accepted": 1 });
  });
});
