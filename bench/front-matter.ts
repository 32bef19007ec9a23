/**
 * `bun run bench/front-matter.ts [rounds]`: what reading a SKILL.md's front matter costs, for an
 * ordinary one and for hostile ones (flow collections nested 4,000 deep in 8 KB, block nesting),
 * through the reader's frontMatter against the `yaml` parser given the whole text. Local only.
 */
import { parseDocument } from "yaml";
import { Gate } from "../src/refresh/manifests/manifest-gate";
import { frontMatter } from "../src/refresh/manifests/skills";
import { GateCounts } from "../src/refresh/upstream/gate";

const rounds = Number(process.argv[2] ?? "200");
const texts: Record<string, string> = {
  ordinary: `---\nname: tidy\ndescription: Keeps a repository tidy.\nlicense: MIT\nmetadata:\n  author: acme\n---\n# Tidy\n`,
  "flow nested 4,000 deep": `---\nname: deep\ndescription: ${"[".repeat(4000)}${"]".repeat(4000)}\n---\n`,
  "mapping nested 2,000 deep": `---\n{name: deep, description: ${"{a: ".repeat(2000)}1${"}".repeat(2000)}}\n---\n`,
  "deep in an unused field": `---\nname: deep\ndescription: x\ntags: ${"[".repeat(4000)}${"]".repeat(4000)}\n---\n`,
};

const gate = new Gate(new GateCounts());
const perCall = (f: () => unknown) => {
  for (let i = 0; i < 20; i++) f();
  const start = performance.now();
  for (let i = 0; i < rounds; i++) f();
  return ((performance.now() - start) / rounds).toFixed(3);
};
console.log("| front matter | bytes | reader ms/call | yaml on the whole text ms/call |\n|---|---|---|---|");
for (const [label, text] of Object.entries(texts)) {
  const yaml = text.slice(4, text.indexOf("\n---", 4));
  const reader = perCall(() => frontMatter(gate, text, "SKILL.md", "bench/skill"));
  const whole = perCall(() => {
    try {
      parseDocument(yaml, { uniqueKeys: true }).toJS({ maxAliasCount: 0 });
    } catch {}
  });
  console.log(`| ${label} | ${text.length} | ${reader} | ${whole} |`);
}
