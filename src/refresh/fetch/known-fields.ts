/**
 * What the batch and its earlier follow-up rounds already brought of a repository, by field: a
 * later round asks only for the fields not yet known (per path and shape, whatever alias it had),
 * and none at all when nothing is missing. A field is one line of a selection,
 * `alias: object(expression: "HEAD:path") { … }`; the same text after the alias asks the same
 * thing, so its answer stands for it. Any other line is always asked.
 */
import type { GitHub } from "../github/client";
import { askRepositories, type RepositoryAsk } from "./repository-query";

type Json = Record<string, unknown>;

const FIELD = /^(\w+): (object\(expression: .+)$/;

const fields = (selection: string) =>
  selection
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/** One repository's fields already answered, by what they ask. */
export class KnownFields {
  private readonly answers = new Map<string, unknown>();

  /** Takes a query's answer `node` (null when none came) to `selection`: each field that came is known. */
  learn(selection: string, node: Json | null | undefined): void {
    if (!node) return;
    for (const line of fields(selection)) {
      const field = FIELD.exec(line);
      if (field && Object.hasOwn(node, field[1]!)) this.answers.set(field[2]!, node[field[1]!]);
    }
  }

  /** The fields of `selection` still to ask, and the answers of the others under their aliases in it. */
  split(selection: string): { ask: string; known: Json } {
    const ask: string[] = [];
    const known: Json = {};
    for (const line of fields(selection)) {
      const field = FIELD.exec(line);
      if (field && this.answers.has(field[2]!)) known[field[1]!] = this.answers.get(field[2]!);
      else ask.push(line);
    }
    return { ask: ask.join("\n  "), known };
  }
}

/** A repository's ask in a follow-up round, with what is known of it already. */
export interface FollowUpAsk extends RepositoryAsk {
  known?: KnownFields;
}

/**
 * Asks query `name` of each repository only the fields its `known` lacks (no query when none
 * lacks any). Each answer in order: the known fields with the asked ones, null where the asked
 * answer did not come. What came is learnt. `asked` says whether a query was sent.
 */
export async function askMissing(
  gh: GitHub,
  name: string,
  asks: readonly FollowUpAsk[],
  commit?: string,
): Promise<{ answers: Array<Json | null>; asked: boolean }> {
  const parts = asks.map((a) => (a.known ? a.known.split(a.selection) : { ask: a.selection, known: {} }));
  const asking = asks.flatMap((a, i) => (parts[i]!.ask ? [{ id: a.id, selection: parts[i]!.ask, i }] : []));
  const got = asking.length > 0 ? await askRepositories(gh, name, asking, commit) : [];
  const answers = parts.map((p): Json | null => ({ ...p.known }));
  asking.forEach((a, j) => {
    const answer = got[j] ?? null;
    answers[a.i] = answer === null ? null : { ...parts[a.i]!.known, ...answer };
  });
  for (const [i, a] of asks.entries()) a.known?.learn(a.selection, answers[i]);
  return { answers, asked: asking.length > 0 };
}
