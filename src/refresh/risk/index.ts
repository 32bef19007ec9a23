/**
 * The risk engine: reads one file a plugin ships (a hooks.json, an `.mcp.json`, a server.json, a
 * plugin.json, a SKILL.md) and notes where it does something worth reading before running it.
 * Notes, not verdicts. The work is bounded: at most MAX_LINES lines, each scanned in windows of
 * MAX_WINDOW characters, every rule a substring hint and then bounded expressions (rule.ts).
 */
import { MAX_EXCERPT, MAX_NOTES_PER_FILE, type RiskNote } from "../../catalog/model/risk";
import { cleanText } from "../upstream/gate";
import { credentials, exfiltration, shellStartup } from "./files";
import { privilegedContainer, sudo, unpinnedLatest, unpinnedLatestArg } from "./privilege";
import { type LineRule, matchAt } from "./rule";
import { fetchedThenRun } from "./sequence";
import { decodeExec, evalRemote, fetchThenExec, pipeToShell } from "./shell";

/** Lines read of one file, and characters scanned at a time (windows overlap by WINDOW_OVERLAP). */
export const MAX_LINES = 5000;
export const MAX_WINDOW = 2000;
const WINDOW_OVERLAP = 400;

export const RULES: readonly LineRule[] = [
  pipeToShell,
  fetchThenExec,
  decodeExec,
  evalRemote,
  shellStartup,
  credentials,
  exfiltration,
  sudo,
  privilegedContainer,
  unpinnedLatest,
  unpinnedLatestArg,
];

/** Any rule's hint: a line without one is passed over with a single test. */
const ANY_HINT = new RegExp(
  [...new Set(RULES.flatMap((r) => r.hints))].map((h) => h.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"),
);

type Kind = "json" | "markdown" | "script";
const kindOf = (file: string): Kind =>
  /\.json$/i.test(file) ? "json" : /\.(?:md|markdown)$/i.test(file) ? "markdown" : "script";

/** The inline code spans of a Markdown line, one after another. */
function inlineCode(line: string): string {
  if (!line.includes("`")) return "";
  const spans: string[] = [];
  for (const m of line.matchAll(/`{1,3}([^`\n]{1,500})`{1,3}/g)) spans.push(m[1]!);
  return spans.join(" ; ");
}

/** Up to MAX_EXCERPT characters of `line` around `at`, cleaned like any text. */
function excerpt(line: string, at: number): string {
  const start = Math.max(0, Math.min(at - 40, line.length - MAX_EXCERPT));
  return cleanText(line.slice(start, start + MAX_EXCERPT * 2), MAX_EXCERPT) ?? "";
}

/** The windows a line is scanned in: the whole line when short, overlapping slices otherwise. */
function windows(line: string): Array<[string, number]> {
  if (line.length <= MAX_WINDOW) return [[line, 0]];
  const out: Array<[string, number]> = [];
  for (let start = 0; start < line.length; start += MAX_WINDOW - WINDOW_OVERLAP) {
    out.push([line.slice(start, start + MAX_WINDOW), start]);
    if (start + MAX_WINDOW >= line.length) break;
  }
  return out;
}

/** The risk notes of one file, `file` its path in the repository; at most MAX_NOTES_PER_FILE, one per rule and line. */
export function riskNotes(file: string, text: string): RiskNote[] {
  const kind = kindOf(file);
  const rules = RULES.filter((r) => !r.only || r.only.includes(kind));
  const notes: RiskNote[] = [];
  const seen = new Set<string>();
  const add = (rule: RiskNote["rule"], line: number, content: string, at: number) => {
    const key = `${rule} ${line}`;
    if (seen.has(key) || notes.length >= MAX_NOTES_PER_FILE) return;
    seen.add(key);
    notes.push({ rule, file: file.slice(0, 200), line, excerpt: excerpt(content, at) });
  };
  const lines = text.split("\n", MAX_LINES);
  const sequence = fetchedThenRun();
  let fenced = false;
  for (let i = 0; i < lines.length && notes.length < MAX_NOTES_PER_FILE; i++) {
    const line = lines[i]!.replace(/\r$/, "");
    if (kind === "markdown" && /^\s{0,3}(?:```|~~~)/.test(line)) fenced = !fenced;
    // A script's comment says what code does (or forbids); it runs nothing.
    if (kind === "script" && /^\s*(?:#|\/\/|\/?\*)/.test(line) && i > 0) continue;
    const prose = kind === "markdown" && !fenced;
    const run = sequence(line.slice(0, MAX_WINDOW));
    if (run >= 0) add("fetch-then-exec", i + 1, line, run);
    for (const [part, offset] of windows(line)) {
      const lower = part.toLowerCase();
      if (!ANY_HINT.test(lower)) continue;
      for (const rule of rules) {
        if (rule.unless?.test(part)) continue;
        const text = rule.codeOnly && prose ? inlineCode(part) : part;
        const at = text === "" ? -1 : matchAt(rule, text, text === part ? lower : text.toLowerCase());
        if (at >= 0) add(rule.rule, i + 1, line, text === part ? offset + at : offset + part.indexOf("`"));
      }
    }
  }
  return notes;
}
