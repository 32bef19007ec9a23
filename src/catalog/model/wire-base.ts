/** The building blocks of the wire schemas (wire.ts). */
import { Type as t } from "@sinclair/typebox";

/** A string of a fixed set, as a plain `enum` (TypeBox would write a union of constants). */
export function stringEnum<const V extends readonly string[]>(values: V, options: Record<string, unknown> = {}) {
  return t.Unsafe<V[number]>({ type: "string", enum: [...values], ...options });
}

export const timestamp = (description: string) => t.String({ format: "date-time", description });
export const count = (description: string) => t.Integer({ minimum: 0, description });

/** Closed objects: a field added to a response without its schema fails the tests. */
export function closed<P extends Parameters<typeof t.Object>[0]>(properties: P, description?: string) {
  return t.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });
}
