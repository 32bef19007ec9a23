/** The owner file's reader: YAML or JSON, its three keys only, every refusal counted, bounded work on any input. */
import { describe, expect, test } from "bun:test";
import { noDetails, validDetails } from "../../../src/catalog/model/details";
import { Gate } from "../../../src/refresh/manifests/manifest-gate";
import { readOwnerFile } from "../../../src/refresh/manifests/owner-file";
import { GateCounts } from "../../../src/refresh/upstream/gate";

const FILE = ".plugin-catalog.yml";

function read(text: string) {
  const counts = new GateCounts();
  const owner = readOwnerFile(new Gate(counts), text, FILE, "acme/repo");
  return { owner, reasons: [...counts.leftOut.keys()].map((k) => k.replace(`manifest ${FILE}: `, "")) };
}

describe("an owner file", () => {
  test("YAML and JSON say the same", () => {
    const yaml = read(
      "exclude: false\ndeprecated:\n  message: Use the new one.\n  replacement: acme/new\ncanonical: acme/orig\n",
    );
    const json = read(
      '{"exclude": false, "deprecated": {"message": "Use the new one.", "replacement": "acme/new"}, "canonical": "acme/orig"}',
    );
    const expected = {
      exclude: false,
      deprecation: { message: "Use the new one.", replacement: "acme/new" },
      canonical: "acme/orig",
    };
    expect(yaml).toEqual({ owner: expected, reasons: [] });
    expect(json).toEqual({ owner: expected, reasons: [] });
  });

  test("the message is cleaned of control and bidi characters and cut to 300 characters", () => {
    const { owner } = read(`deprecated:\n  message: "a\\u0007b\\u202Ec ${"x".repeat(400)}"\n`);
    expect(owner!.deprecation!.message).toStartWith("abc x");
    expect(Array.from(owner!.deprecation!.message!).length).toBe(300);
    const astral = read(`deprecated:\n  message: ${"\u{1F600}".repeat(400)}\n`).owner!.deprecation!;
    expect(validDetails({ ...noDetails(), deprecated: true, deprecation: astral })).not.toBeNull();
  });

  test("other keys are counted and never parsed: hundreds of them cost a line scan", () => {
    const junk = Array.from({ length: 300 }, (_, i) => `k${i}: [${"{a: b}, ".repeat(3)}]`).join("\n");
    const started = performance.now();
    const { owner, reasons } = read(`${junk}\nexclude: true\n`);
    expect(performance.now() - started).toBeLessThan(200);
    expect(owner).toEqual({ exclude: true, deprecation: null, canonical: null });
    expect(reasons).toEqual(["unknown key ignored"]);
  });

  test("wrong types, a key given twice, extra members of deprecated and too many lines refuse the whole file", () => {
    const cases: Array<[string, string]> = [
      ["exclude: 1\n", "exclude is not true or false"],
      ["exclude: true\nexclude: false\n", "invalid YAML"],
      ["deprecated: true\n", "deprecated is not {message, replacement: owner/repo}"],
      ["deprecated:\n  message: x\n  curated: true\n", "deprecated is not {message, replacement: owner/repo}"],
      ["deprecated:\n  replacement: not a repo\n", "deprecated is not {message, replacement: owner/repo}"],
      ["canonical: [acme/a]\n", "canonical is not owner/repo"],
      [`deprecated:\n${"  # note\n".repeat(40)}  message: x\n`, "too long"],
      ['{"exclude": true, "exclude": false', "invalid JSON"],
    ];
    for (const [text, reason] of cases)
      expect({ text, ...read(text) }).toEqual({ text, owner: null, reasons: [reason] });
  });

  test("a file that is no mapping of its keys asks for nothing", () => {
    expect(read("- exclude\n- true\n")).toEqual({
      owner: { exclude: false, deprecation: null, canonical: null },
      reasons: ["unknown key ignored"],
    });
  });
});
