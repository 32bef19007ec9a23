/**
 * `bun run bench/owner-file.ts [rounds]`: what reading an owner file costs, for an ordinary one and
 * for hostile ones within the 4 KB cap (flow nesting, block nesting, hundreds of other keys, an
 * alias chain), through the reader's readOwnerFile against the `yaml` parser given the whole text.
 * Local only.
 */
import { parseDocument } from "yaml";
import { Gate } from "../src/refresh/manifests/manifest-gate";
import { readOwnerFile } from "../src/refresh/manifests/owner-file";
import { GateCounts } from "../src/refresh/upstream/gate";

const rounds = Number(process.argv[2] ?? "200");
const texts: Record<string, string> = {
  ordinary: "deprecated:\n  message: Moved into acme/tools.\n  replacement: acme/tools\ncanonical: acme/original\n",
  json: '{"deprecated": {"message": "Moved.", "replacement": "acme/tools"}, "canonical": "acme/original"}',
  "flow nested 2,000 deep": `deprecated: ${"[".repeat(2000)}${"]".repeat(2000)}\n`,
  "block nested 32 deep": `${Array.from({ length: 32 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n")} x\n`,
  "400 other keys": Array.from({ length: 400 }, (_, i) => `k${i}: ${i}`)
    .join("\n")
    .slice(0, 4096),
  "alias chain":
    "a: &a [x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c]\n",
};

const gate = new Gate(new GateCounts());
const perCall = (f: () => unknown) => {
  for (let i = 0; i < 20; i++) f();
  const start = performance.now();
  for (let i = 0; i < rounds; i++) f();
  return ((performance.now() - start) / rounds).toFixed(3);
};
console.log("| owner file | bytes | reader ms/call | yaml on the whole text ms/call |\n|---|---|---|---|");
for (const [label, text] of Object.entries(texts)) {
  const reader = perCall(() => readOwnerFile(gate, text, ".plugin-catalog.yml", "bench/owner"));
  const whole = perCall(() => {
    try {
      parseDocument(text, { uniqueKeys: true }).toJS({ maxAliasCount: 0 });
    } catch {}
  });
  console.log(`| ${label} | ${text.length} | ${reader} | ${whole} |`);
}
