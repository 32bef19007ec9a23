/** Text helpers shared by the catalog's build, search and classification. */

/** ASCII letters to lowercase, others left alone: how FTS5's tokenizer and SQLite's NOCASE fold. */
export function foldAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** `text` matched literally inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
