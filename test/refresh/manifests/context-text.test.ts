/**
 * A command's or agent's front matter is read with bounded work: parsed whole (as Claude Code
 * parses it) only while small, else only its used fields, and used fields too long to parse are
 * measured as written, so a large front matter can neither stall the fetch nor hide its cost.
 */
import { describe, expect, test } from "bun:test";
import { componentText } from "../../../src/refresh/manifests/context-text";

const front = (lines: string[], body = "Do it.") => `---\n${lines.join("\n")}\n---\n${body}\n`;
/** A field YAML cannot parse: a flow mapping left open. */
const BROKEN = "tags: {open";

describe("front matter read within bounds", () => {
  test("a small front matter YAML refuses is retried with its one-line values quoted, as the client retries it", () => {
    // `claude plugin details` keeps the description beside `tags: {open` or `argument-hint: [a] [--b]`.
    for (const broken of [BROKEN, "argument-hint: [a] [--b]", 'hint: "a" b'])
      expect(componentText("deploy", front(["description: Deploys the app", broken]), "command").alwaysOn).toBe(
        "deploy Deploys the app".length,
      );
    // A front matter no retry mends has no description: the body's first line stands in.
    expect(
      componentText("deploy", front(["description: Deploys the app", "tags:", "  - [open"]), "command").alwaysOn,
    ).toBe("deploy Do it.".length);
  });

  test("a key written twice keeps the front matter readable, as in the client", () => {
    const text = front(["description: Deploys the app", "context: fork", "context: fork"]);
    expect(componentText("deploy", text, "command").alwaysOn).toBe("deploy Deploys the app".length);
  });

  test("past 8 KB only the used fields are parsed: other fields, broken or not, are never handed to the parser", () => {
    const filler = Array.from({ length: 400 }, (_, i) => `key${i}: value number ${i}`);
    const text = front(["description: Deploys the app", ...filler, BROKEN]);
    expect(text.length).toBeGreaterThan(8 * 1024);
    expect(componentText("deploy", text, "command").alwaysOn).toBe("deploy Deploys the app".length);
  });

  test("a description too long to parse is counted at its written length, never as nothing", () => {
    const description = "word ".repeat(8000).trim();
    const text = front([`description: ${description}`]);
    expect(componentText("deploy", text, "command").alwaysOn).toBe(`deploy ${description}`.length);
  });
});
