/**
 * The one gate every manifest byte passes: text within its cap, strict JSON, names checked
 * against the forms their tools accept, and an instruction checked once more as a whole (no shell
 * metacharacter, no unpinned version, no secret: a `<NAME>` placeholder stands for each value).
 * What fails is counted under `manifest <file>: <reason>` in the listing decision and yields nothing.
 */
import { type Install, installProblem } from "../../catalog/model/details";
import { SAFE_COMMAND } from "../../catalog/model/install-rules";

import type { GateCounts } from "../upstream/gate";

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** A GraphQL Blob as the batch brings it. */
export interface Blob {
  byteSize?: unknown;
  isTruncated?: unknown;
  text?: unknown;
}

/** Bytes read of one manifest; a marketplace may list hundreds of plugins, so it gets more. */
export const MAX_MANIFEST_BYTES = 256 * 1024;
export const MAX_MARKETPLACE_BYTES = 1024 * 1024;
/** Entries of one list read at most (a marketplace's plugins, a folder's files): past it the rest is only counted. */
export const MAX_ENTRIES = 1000;
/** Characters kept of a description. */
export const MAX_TEXT = 300;

export const PLUGIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const ENTRY_NAME = /^[A-Za-z0-9_][A-Za-z0-9._ -]{0,99}$/;

/** `NAME` as a placeholder's name: letters, digits and `_`, upper case, never empty. */
export function placeholder(hint: string): string {
  const name = hint
    .replace(/^-+/, "")
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase()
    .slice(0, 60);
  return `<${/^[A-Z_]/.test(name) ? name : `V_${name}`}>`.replace("<V_>", "<VALUE>");
}

/** Counts refusals for the listing decision and checks instructions; shared by every kind's reader. */
export class Gate {
  constructor(private readonly counts: GateCounts) {}

  /** Counts `reason` for `file` of repository `id`; returns null so a reader can `return gate.refuse(…)`. */
  refuse(file: string, reason: string, id: string): null {
    this.counts.leaveOut(`manifest ${file}: ${reason}`, id);
    return null;
  }

  /** As `refuse`, for readers that answer a list of instructions. */
  none(file: string, reason: string, id: string): Install[] {
    this.refuse(file, reason, id);
    return [];
  }

  /** A blob's text within `cap`, or null (counted when it is there but unusable). */
  text(blob: unknown, file: string, cap: number, id: string): string | null {
    if (!isObject(blob)) return null;
    const b = blob as Blob;
    if (b.isTruncated === true) return this.refuse(file, "too large", id);
    if (typeof b.byteSize === "number" && b.byteSize > cap) return this.refuse(file, "too large", id);
    if (typeof b.text !== "string") return this.refuse(file, "not text", id);
    if (b.text.length > cap) return this.refuse(file, "too large", id);
    return b.text;
  }

  /** A JSON object from `text`, or null (counted). */
  json(text: string | null, file: string, id: string): Json | null {
    if (text === null) return null;
    try {
      const value: unknown = JSON.parse(text);
      return isObject(value) ? value : this.refuse(file, "not a JSON object", id);
    } catch {
      return this.refuse(file, "invalid JSON", id);
    }
  }

  /**
   * The instruction if it passes the stored record's own rules (install-rules.ts); null otherwise
   * (counted). Checked here, one instruction at a time, so a bent one costs only itself, never the
   * whole record's check.
   */
  instruction(id: string, instruction: Install): Install | null {
    if (instruction.command !== undefined && !SAFE_COMMAND.test(instruction.command))
      return this.refuse(instruction.from, "instruction not safe", id);
    const problem = installProblem(instruction);
    return problem === null ? instruction : this.refuse(instruction.from, `instruction not safe: ${problem}`, id);
  }

  /** The instructions that pass the last check. */
  instructions(id: string, list: Install[]): Install[] {
    return list.map((i) => this.instruction(id, i)).filter((i): i is Install => i !== null);
  }
}
