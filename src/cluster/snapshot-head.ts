/**
 * How a shared snapshot lies in Redis: a small head (`catalog:snapshot:head:<time>`: its time,
 * size, SHA-256 and, with REDIS_SNAPSHOT_KEY, an HMAC over those) and the file in parts of at most
 * PART_BYTES (`catalog:snapshot:file:<time>:<n>`). A follower reads the head first, with a bound
 * on what it reads, and refuses an unsigned, badly signed or oversize snapshot before it fetches
 * a single part; the parts' hash is checked against the signed one off the serving thread.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { RedisLink } from "./redis";

export const CURRENT_KEY = "catalog:snapshot:current";
/** Every part but the last holds exactly this many bytes. */
export const PART_BYTES = 4 * 1024 * 1024;
/** A head is about 250 characters; one longer is not read. */
export const HEAD_MAX_CHARS = 1024;
/** A snapshot time is 24 characters: more of the current value is never read. */
const CURRENT_MAX_CHARS = 64;

export interface SnapshotHead {
  snapshotAt: string;
  bytes: number;
  sha256: string;
  /** HMAC-SHA256 of the three fields above under REDIS_SNAPSHOT_KEY, hex. */
  signature?: string;
}

export function headKey(snapshotAt: string): string {
  return `catalog:snapshot:head:${snapshotAt}`;
}

export function partKey(snapshotAt: string, part: number): string {
  return `catalog:snapshot:file:${snapshotAt}:${part}`;
}

export function partCount(bytes: number): number {
  return Math.ceil(bytes / PART_BYTES);
}

/** How many bytes part `part` of a file of `bytes` holds. */
export function partSize(bytes: number, part: number): number {
  return Math.min(PART_BYTES, bytes - part * PART_BYTES);
}

/** The HMAC-SHA256 of a head's time, size and hash under `key`, hex. */
export function signHead(key: string, head: Omit<SnapshotHead, "signature">): string {
  const text = `catalog snapshot\n${head.snapshotAt}\n${head.bytes}\n${head.sha256}`;
  return createHmac("sha256", key).update(text).digest("hex");
}

export function signatureMatches(key: string, head: SnapshotHead): boolean {
  if (head.signature === undefined) return false;
  const expected = Buffer.from(signHead(key, head), "hex");
  const given = Buffer.from(head.signature, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const HEX64 = /^[0-9a-f]{64}$/;

/** The head of `snapshotAt` read from `text`, or why it cannot be one. */
export function parseHead(text: string, snapshotAt: string): SnapshotHead | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "its head is not JSON";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "its head is not an object";
  const v = value as Record<string, unknown>;
  if (v.snapshotAt !== snapshotAt) return "its head names another snapshot";
  if (typeof v.bytes !== "number" || !Number.isSafeInteger(v.bytes) || v.bytes < 1) return "its head declares no size";
  if (typeof v.sha256 !== "string" || !HEX64.test(v.sha256)) return "its head declares no SHA-256";
  if (v.signature !== undefined && (typeof v.signature !== "string" || !HEX64.test(v.signature)))
    return "its head's signature is not one";
  const head: SnapshotHead = { snapshotAt, bytes: v.bytes, sha256: v.sha256 };
  if (typeof v.signature === "string") head.signature = v.signature;
  return head;
}

/** At most `maxChars` characters of a text value (GETRANGE never reads more); "" when absent. */
function readBounded(link: RedisLink, key: string, maxChars: number): Promise<string> {
  return link.run((c) => c.getrange(key, 0, maxChars - 1));
}

/** The current shared snapshot's time as written (bounded), or null when none is shared. */
export async function readCurrent(link: RedisLink): Promise<string | null> {
  const text = await readBounded(link, CURRENT_KEY, CURRENT_MAX_CHARS);
  return text === "" ? null : text;
}

/** The head of `snapshotAt`, or why it cannot be taken; an oversize head is not read. */
export async function readHead(link: RedisLink, snapshotAt: string): Promise<SnapshotHead | string> {
  const length = await link.run((c) => c.strlen(headKey(snapshotAt)));
  if (length === 0) return "it has no head (shared by an older version, or by no instance)";
  if (length > HEAD_MAX_CHARS) return `its head is ${length} bytes, more than ${HEAD_MAX_CHARS}`;
  return parseHead(await readBounded(link, headKey(snapshotAt), HEAD_MAX_CHARS), snapshotAt);
}
