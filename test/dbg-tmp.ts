import { workTreeFiles } from "../src/refresh/fetch/clone-files";
import { cloneReader } from "../src/refresh/fetch/clones";
import { GateCounts } from "../src/refresh/upstream/gate";
import { TEST_EVIDENCE } from "./refresh/support";

const [repo, name] = process.argv.slice(2);
const d = cloneReader(new GateCounts(), TEST_EVIDENCE)(
  workTreeFiles(`/work/shared/data/real-manifests/repos/${repo}`),
  repo!,
);
const p = d?.contents?.plugins.find((x) => x.name === name);
console.log(
  JSON.stringify({ p, skills: d?.contents?.skills.filter((s) => s.path?.includes(name!)) }, null, 1).slice(0, 3000),
);
