/**
 * One query parameter, one declaration: the schema /openapi.json documents and the parser that
 * reads it, with the 400's wording, come from the same few facts (its values, its bounds), so the
 * document allows exactly what the parser accepts. Malformed values become 400s naming the
 * parameter and what is allowed (docs/api.md, *Errors*); an empty value counts as absent.
 */
import { type TOptional, type TSchema, Type as t } from "@sinclair/typebox";
import { badRequest } from "./errors";
import { stringEnum } from "./wire-schemas";

export interface Param<T> {
  readonly name: string;
  /** The documented schema of one value. */
  readonly schema: TSchema;
  /** The parameter's value in `params`; 400 naming it when malformed. */
  read(params: URLSearchParams): T;
}

/** The single value of a parameter; a parameter given twice is ambiguous and refused. */
export function single(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name);
  if (values.length > 1) throw badRequest(name, "give it at most once");
  const value = values[0];
  return value === undefined || value === "" ? null : value;
}

/** A parameter read from its single value (null when absent or empty). */
export function param<T>(name: string, schema: TSchema, parse: (value: string | null) => T): Param<T> {
  return { name, schema, read: (params) => parse(single(params, name)) };
}

/** The same parameter described for another page. */
export function described<T>(p: Param<T>, description: string): Param<T> {
  return { ...p, schema: { ...p.schema, description } };
}

/** One of `values`, `fallback` when absent; 400 with `wording` (the values by default) otherwise. */
export function choice<V extends string, F extends V | null>(
  name: string,
  values: readonly V[],
  options: { description: string; fallback: F; wording?: string },
): Param<V | F> {
  const { description, fallback, wording = `one of ${values.join(", ")}` } = options;
  const schema = stringEnum(values, fallback === null ? { description } : { default: fallback, description });
  return param(name, schema, (value) => {
    if (value === null) return fallback;
    if (!(values as readonly string[]).includes(value)) throw badRequest(name, wording);
    return value as V;
  });
}

/** A switch: `1` or `true` turns it on. */
export function flag(name: string, description: string): Param<boolean> {
  const on = choice(name, ["1", "true"], { description, fallback: null, wording: "1 or true" });
  return { ...on, read: (params) => on.read(params) !== null };
}

/** A comma list of allowed words, each at most once, in the allowed list's order (one spelling of a set). */
export function words<T extends string>(
  name: string,
  allowed: readonly T[],
  options: { description: string; examples: string[] },
): Param<T[]> {
  const one = `(?:${allowed.join("|")})`;
  const schema = t.String({ pattern: `^${one}(?:,${one})*$`, ...options });
  return param(name, schema, (value) => {
    if (value === null) return [];
    const given = value.split(",");
    if (given.some((w) => !(allowed as readonly string[]).includes(w))) {
      throw badRequest(name, `a comma-separated list of ${allowed.join(", ")}`);
    }
    return allowed.filter((word) => given.includes(word));
  });
}

/** A whole number from 1; above `cap` (when given) it is capped rather than refused. */
export function count(
  name: string,
  options: { fallback: number; cap?: number; description: string; extra?: Record<string, unknown> },
): Param<number> {
  const { fallback, cap, description, extra } = options;
  const schema = t.Integer({
    minimum: 1,
    // Larger numbers are refused, not capped: past this one a number is no longer exact.
    maximum: Number.MAX_SAFE_INTEGER,
    default: fallback,
    ...extra,
    description,
  });
  const wording = cap === undefined ? "an integer >= 1" : `an integer >= 1 (values above ${cap} are capped)`;
  return param(name, schema, (raw) => {
    if (raw === null) return fallback;
    const value = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(value) || value < 1) throw badRequest(name, wording);
    return cap === undefined ? value : Math.min(value, cap);
  });
}

/** Free text, trimmed, of at most `maxLength` characters; null when absent or blank. */
export function text(name: string, options: { maxLength: number; description: string }): Param<string | null> {
  const schema = t.String(options);
  return {
    name,
    schema,
    read(params) {
      const values = params.getAll(name);
      if (values.length > 1) throw badRequest(name, "give it at most once");
      const value = values[0]?.trim() || null;
      if (value !== null && [...value].length > options.maxLength) {
        throw badRequest(name, `at most ${options.maxLength} characters`);
      }
      return value;
    },
  };
}

/** Calendar parts as their ranges allow them; the day of the month is left to the `date-time` format. */
const SNAPSHOT_AT = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/** Whether `value` has the form and names a real instant: it round-trips (no Feb 31, hour 24 or second 60). */
function isCalendarTime(value: string): boolean {
  if (!SNAPSHOT_AT.test(value)) return false;
  const ms = Date.parse(value);
  return !Number.isNaN(ms) && new Date(ms).toISOString() === value;
}

/** A snapshot time as the API writes it (`snapshotAt`, `generatedAt`): UTC with milliseconds; null when absent. */
export function snapshotTime(name: string, description: string): Param<string | null> {
  const schema = t.String({
    pattern: SNAPSHOT_AT.source,
    format: "date-time",
    examples: ["2026-08-22T00:00:00.000Z"],
    description: `${description} A value that is not a real calendar time (February 31, hour 24, second 60) is a 400.`,
  });
  return param(name, schema, (value) => {
    if (value !== null && !isCalendarTime(value)) {
      throw badRequest(name, "a snapshotAt as the API gives it, e.g. 2026-01-02T03:04:05.678Z");
    }
    return value;
  });
}

// biome-ignore lint/suspicious/noExplicitAny: a declaration of any value type.
type Params = Record<string, Param<any>>;

/** The declarations as a query schema's properties, each optional. */
export function schemaOf<P extends Params>(params: P): { [K in keyof P]: TOptional<TSchema> } {
  const entries = Object.entries(params).map(([key, p]) => [key, t.Optional(p.schema)]);
  return Object.fromEntries(entries) as { [K in keyof P]: TOptional<TSchema> };
}

/** Every declared parameter's value, read in the declarations' order. */
export function readAll<P extends Params>(
  params: P,
  query: URLSearchParams,
): { [K in keyof P]: ReturnType<P[K]["read"]> } {
  const out: Record<string, unknown> = {};
  for (const [key, p] of Object.entries(params)) out[key] = p.read(query);
  return out as { [K in keyof P]: ReturnType<P[K]["read"]> };
}
