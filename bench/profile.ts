/**
 * `bun run bench:profile [path] [rounds] [KEY=value…] [vs KEY=value…]`: where the server's time
 * goes for one hot URL, per request, with the load of the bench (wrk on CPU 1, 32 connections,
 * the service on CPU 0). perf samples the service's CPU clock while wrk runs (5 s a round, three
 * rounds by default), and the samples are split between the kernel, Bun's native code, other
 * libraries and the JavaScript the JIT compiled, named by function (and by instruction: a miss
 * of the cache shows as one instruction holding many samples). With `vs`, a second service with
 * its own settings takes turns with the first and the table gives the difference: the limiter's
 * cost, say (`TRUST_PROXY=true vs TRUST_PROXY=true RATE_LIMIT_WINDOW_MS=2000`; with
 * `TRUST_PROXY=true` every request carries a new `X-Forwarded-For`).
 *
 * Needs `perf` (Debian: `apt-get install -y linux-perf`); the kernel's share is sampled only as
 * root or with `kernel.perf_event_paranoid` at 1 or less. Bun's own binary carries no symbols,
 * so its native code is one line. Uses the 100k snapshot the bench left in bench/out.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { JitNames, readJitDumpFile, type JitPlace } from "./jitdump";
import { median } from "./measure";
import { CLIENT_HEADERS } from "./scenarios";
import { freePort, startService, type RunningServer } from "./server";
import { sidesOf, type Side } from "./settings";
import { runWrk } from "./wrk";

const OUT = join(import.meta.dir, "out");
const SNAPSHOT = join(OUT, "synthetic-100000.sqlite");
const FREQUENCY = 1999;
const SECONDS = 5;

const { positional, sides } = sidesOf(process.argv.slice(2));
const [path = "/api/v1/plugins", roundsArg = "3"] = positional;
const rounds = Number(roundsArg);

/** One round's samples by where they fell, and the requests served while they were taken. */
interface Round {
  requests: number;
  groups: Map<string, number>;
  functions: Map<string, number>;
  instructions: Map<string, number>;
}

/**
 * A side's rounds. Figures are medians over rounds, each round's samples per its own requests: a
 * round that met a slow spell of the machine moves them less than it would a sum.
 */
interface Tally {
  rounds: Round[];
  places: Map<string, JitPlace>;
}

function add(map: Map<string, number>, key: string, samples: number): void {
  map.set(key, (map.get(key) ?? 0) + samples);
}

interface SampleRow {
  samples: number;
  dso: string;
  symbol: string;
}

/** perf's flat report of a recording: samples by binary and symbol. */
function report(data: string): SampleRow[] {
  const result = Bun.spawnSync(["perf", "report", "-i", data, "--sort", "dso,sym", "--stdio", "-n", "-t", "|"], { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`perf report failed: ${result.stderr.toString()}`);
  const rows: SampleRow[] = [];
  for (const line of result.stdout.toString().split("\n")) {
    if (line.startsWith("#") || !line.includes("|")) continue;
    const [, samples, dso, symbol] = line.split("|");
    // The symbol comes after its kind: `[k] name`, `[.] 0x…`.
    if (samples !== undefined && dso !== undefined && symbol !== undefined) rows.push({ samples: Number(samples), dso: dso.trim(), symbol: symbol.trim().slice(4) });
  }
  return rows;
}

/** `JSC-FTL: find#A2DjDJ` as the function (`find#A2DjDJ`) and its tier (`FTL`). */
function jitFunction(name: string): { fn: string; tier: string } {
  const match = /^JSC-([^:]+): (.*)$/.exec(name);
  const fn = match?.[2] ?? name;
  return { fn: fn.startsWith("#") ? `(anonymous)${fn}` : fn, tier: match?.[1] ?? "?" };
}

function tallyRun(tally: Tally, rows: SampleRow[], names: JitNames, requests: number): void {
  const bun = basename(process.execPath);
  const round: Round = { requests, groups: new Map(), functions: new Map(), instructions: new Map() };
  for (const row of rows) {
    if (row.dso.startsWith("[JIT]")) {
      add(round.groups, "JavaScript (JIT code)", row.samples);
      const place = names.find(Number.parseInt(row.symbol, 16));
      if (place === null) {
        add(round.functions, "(code not in the jitdump)", row.samples);
        continue;
      }
      const { fn, tier } = jitFunction(place.code.name);
      add(round.functions, fn, row.samples);
      const instruction = `${fn} +${place.offset} (${tier})`;
      add(round.instructions, instruction, row.samples);
      tally.places.set(instruction, place);
    } else if (row.dso === "[kernel.kallsyms]") {
      add(round.groups, "kernel", row.samples);
    } else if (row.dso === bun || row.dso === "bun.exe" || row.dso === "bun") {
      add(round.groups, "Bun, native code", row.samples);
    } else {
      add(round.groups, "libraries (libc, vdso, …)", row.samples);
    }
  }
  tally.rounds.push(round);
}

const microseconds = (samples: number, requests: number) => (samples / FREQUENCY / requests) * 1e6;

type Part = "groups" | "functions" | "instructions";

/** µs per request of `key`, the median over the side's rounds. */
function us(p: Profiled, part: Part, key: string): number {
  return median(p.tally.rounds.map((r) => microseconds(r[part].get(key) ?? 0, r.requests)));
}

const total = (r: Round) => microseconds([...r.groups.values()].reduce((a, b) => a + b, 0), r.requests);

interface Profiled {
  side: Side;
  server: RunningServer;
  dir: string;
  varies: boolean;
  tally: Tally;
}

async function profileRound(p: Profiled, round: number): Promise<void> {
  const data = join(p.dir, `round-${round}.data`);
  const perf = Bun.spawn(["perf", "record", "-q", "-e", "cpu-clock", "-F", String(FREQUENCY), "-p", String(p.server.pid), "-o", data], { stdout: "ignore", stderr: "pipe" });
  // perf prints nothing once attached; give it the time it takes.
  await Bun.sleep(500);
  const run = await runWrk({ url: p.server.url, paths: [path], headers: { ...CLIENT_HEADERS }, connections: 32, seconds: SECONDS, varyForwardedFor: p.varies, cpu: 1, workDir: OUT });
  perf.kill("SIGINT");
  if ((await perf.exited) !== 0 && !existsSync(data)) throw new Error(`perf record failed: ${await new Response(perf.stderr).text()}`);
  if (run.errors > 0) throw new Error(`${path}: ${run.errors} failed requests`);
  const dumps = readdirSync(p.dir).filter((f) => f.startsWith("jit-") && f.endsWith(".dump"));
  const names = new JitNames(dumps.flatMap((f) => readJitDumpFile(join(p.dir, f))));
  tallyRun(p.tally, report(data), names, run.requests);
}

function row(label: string, values: number[], width = 44): string {
  const cells = values.map((v) => v.toFixed(3).padStart(8));
  if (values.length === 2) cells.push(`${values[1]! - values[0]! >= 0 ? "+" : ""}${(values[1]! - values[0]!).toFixed(3)}`.padStart(9));
  return `${label.slice(0, width).padEnd(width)}${cells.join(" ")}`;
}

function print(profiled: Profiled[]): void {
  const heads = profiled.map((p, k) => (profiled.length > 1 ? (k === 0 ? "first" : "second") : "µs/req").padStart(8));
  if (profiled.length === 2) heads.push("change".padStart(9));
  for (const [k, p] of profiled.entries()) {
    const what = p.side.settings.length ? p.side.settings.join(" ") : "default settings";
    const requests = p.tally.rounds.reduce((sum, r) => sum + r.requests, 0);
    console.log(`${profiled.length > 1 ? (k === 0 ? "first:  " : "second: ") : ""}${path} with ${what}: ${requests} requests in ${rounds} rounds of ${SECONDS} s`);
  }
  console.log(`\nServer CPU per request, µs (perf cpu-clock at ${FREQUENCY} Hz; medians over rounds):`);
  console.log(`${"".padEnd(44)}${heads.join(" ")}`);
  const groups = ["kernel", "Bun, native code", "libraries (libc, vdso, …)", "JavaScript (JIT code)"];
  for (const g of groups) console.log(row(g, profiled.map((p) => us(p, "groups", g))));
  console.log(row("all", profiled.map((p) => median(p.tally.rounds.map(total)))));
  console.log(`all, each round: ${profiled.map((p) => p.tally.rounds.map((r) => total(r).toFixed(2)).join(" ")).join("  |  ")}`);

  const last = profiled.at(-1)!;
  const fns = new Set(profiled.flatMap((p) => p.tally.rounds.flatMap((r) => [...r.functions.keys()])));
  const change = (fn: string) => us(last, "functions", fn) - (profiled.length > 1 ? us(profiled[0]!, "functions", fn) : 0);
  console.log(`\nJavaScript by function${profiled.length > 1 ? ", largest changes first" : ""}:`);
  for (const fn of [...fns].sort((a, b) => Math.abs(change(b)) - Math.abs(change(a))).slice(0, 12)) {
    console.log(row(fn, profiled.map((p) => us(p, "functions", fn))));
  }
  const jit = us(last, "groups", "JavaScript (JIT code)");
  const places = new Set(last.tally.rounds.flatMap((r) => [...r.instructions.keys()]));
  const busiest = [...places].map((place) => [place, us(last, "instructions", place)] as const).sort((a, b) => b[1] - a[1]);
  console.log(`\nJavaScript's busiest instructions${profiled.length > 1 ? " (second)" : ""}, µs per request and share of its JavaScript time:`);
  for (const [place, v] of busiest.slice(0, 8)) {
    console.log(`${place.slice(0, 52).padEnd(52)}${v.toFixed(3).padStart(8)} ${((v / jit) * 100).toFixed(0).padStart(4)}%`);
  }
  const place = busiest[0] && last.tally.places.get(busiest[0][0]);
  if (place) {
    const code = disassembly(place);
    // A sample names the instruction that waits, the one after the slow one.
    if (code.length) console.log(`\nThe busiest instruction (marked) and the ones before it:\n${code.join("\n")}`);
  }
}

/** The instructions up to the one at `place`, by objdump (x86-64 only); none when it cannot. */
function disassembly(place: JitPlace): string[] {
  if (process.arch !== "x64" || !Bun.which("objdump")) return [];
  const file = join(OUT, "profile-code.bin");
  writeFileSync(file, place.code.bytes);
  const result = Bun.spawnSync(["objdump", "-D", "-b", "binary", "-mi386:x86-64", `--adjust-vma=${place.code.address}`, file], { stdout: "pipe" });
  rmSync(file, { force: true });
  const lines = result.stdout.toString().split("\n").filter((l) => /^\s*[0-9a-f]+:\t/.test(l));
  const target = (place.code.address + place.offset).toString(16);
  const at = lines.findIndex((l) => l.trim().startsWith(`${target}:`));
  if (at === -1) return [];
  return lines.slice(Math.max(0, at - 4), at + 1).map((l, i, all) => `${i === all.length - 1 ? "=>" : "  "} ${l.trim().replace(/\t/g, "  ")}`);
}

if (!Bun.which("perf")) {
  console.error("bench:profile needs perf: apt-get install -y linux-perf (Debian) or linux-tools (Ubuntu).");
  process.exit(1);
}
if (!existsSync(SNAPSHOT)) {
  console.error(`${SNAPSHOT} is missing: run \`bun run bench\` once first.`);
  process.exit(1);
}
const profiled: Profiled[] = [];
try {
  for (const [k, side] of sides.entries()) {
    const dir = join(OUT, `profile-${k}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // JavaScriptCore writes what it compiles, with names, for the profile to read.
    const env = { ...side.env, BUN_JSC_useJITDump: "1", BUN_JSC_jitDumpDirectory: dir };
    const server = await startService(SNAPSHOT, await freePort(), 0, env);
    profiled.push({ side, server, dir, varies: side.env.TRUST_PROXY === "true", tally: { rounds: [], places: new Map() } });
  }
  for (const p of profiled) {
    await runWrk({ url: p.server.url, paths: [path], headers: { ...CLIENT_HEADERS }, connections: 32, seconds: 2, varyForwardedFor: p.varies, cpu: 1, workDir: OUT });
  }
  for (let round = 0; round < rounds; round++) for (const p of profiled) await profileRound(p, round);
  print(profiled);
} finally {
  for (const p of profiled) await p.server.stop();
}
