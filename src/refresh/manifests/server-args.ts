/**
 * A server.json package's inputs, as every published schema writes them (2025-07-09 snake_case,
 * 2025-09-16 on camelCase): runtime and package arguments, environment variables. An argument
 * becomes words with its value or default filled in; a required value nobody gave becomes a
 * `<NAME>` placeholder; a secret is always a placeholder; an optional argument without a value is left out.
 * Beside the words, each environment variable and each placeholder keeps the words server.json gave
 * to ask a person for it (`promptWords`: its description cleaned like any upstream text, its default
 * and choices only as written and never a secret's, its format), for the MCP registry API to serve.
 */
import type { Install } from "../../catalog/model/details";
import { acceptableEnvName, acceptableEnvValue, ENV_NAME } from "../../catalog/model/install-rules";
import { INPUT_FORMATS, type McpInput } from "../../catalog/model/registry-inputs";
import { cleanText } from "../upstream/gate";
import { isObject, type Json, MAX_TEXT, placeholder, str } from "./manifest-gate";

/** A snake_case member's camelCase name (`is_required` → `isRequired`). */
const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** `value` with every snake_case member also under its camelCase name, one object level and its arrays' objects. */
export function camelCased(value: Json, depth = 3): Json {
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    const inner =
      depth <= 0
        ? v
        : isObject(v)
          ? camelCased(v, depth - 1)
          : Array.isArray(v)
            ? v.map((x) => (isObject(x) ? camelCased(x, depth - 1) : x))
            : v;
    out[key] = inner;
    const name = camel(key);
    if (name !== key && !(name in value)) out[name] = inner;
  }
  return out;
}

/** A value as text: strings as they are, numbers and booleans written out. */
const scalar = (v: unknown): string | null =>
  typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : null;

/**
 * Why an argument cannot be used, or its words (none when it is optional and nobody gave a value)
 * with the inputs its `<NAME>` placeholders stand for.
 */
export type Words = { words: string[]; inputs: McpInput[] } | { refused: string };
type Value = { text: string } | { omit: true } | { refused: string };

/** Text a user can read and a config can hold: printable, the same once cleaned. */
const plain = (text: string) => text.length <= 300 && cleanText(text, 300) === text;

/**
 * The words server.json gives to ask a person for an input: its description cleaned like any
 * upstream text, and (never for a secret) its default and choices only as written, plain text.
 * `fixed` is the value the catalog fills in itself, offered as the default.
 */
export function promptWords(
  input: Json,
  secret: boolean,
  fixed: string | null = null,
): Omit<McpInput, "name" | "secret" | "required"> {
  const words: Omit<McpInput, "name" | "secret" | "required"> = {};
  const description = str(input.description);
  const cleaned = description === null ? null : cleanText(description, MAX_TEXT);
  if (cleaned !== null) words.description = cleaned;
  if (!secret) {
    const fallback = fixed ?? scalar(input.default);
    if (fallback !== null && fallback !== "" && plain(fallback)) words.default = fallback;
    const choices = Array.isArray(input.choices) ? input.choices.map(scalar) : [];
    if (
      choices.length > 0 &&
      choices.length <= 50 &&
      choices.every((c): c is string => c !== null && c !== "" && plain(c))
    )
      words.choices = choices as string[];
  }
  const format = input.format;
  if (typeof format === "string" && (INPUT_FORMATS as readonly string[]).includes(format))
    words.format = format as McpInput["format"];
  return words;
}

/** The input a `<NAME>` placeholder stands for. */
function placeholderInput(input: Json, text: string): McpInput {
  const secret = input.isSecret === true;
  return { name: text.slice(1, -1), secret, required: input.isRequired === true, ...promptWords(input, secret) };
}

/**
 * An input's value: secret → placeholder; given value (its `{variables}` filled); default;
 * required → placeholder. Each placeholder's input is added to `found`.
 */
function inputValue(input: Json, hint: string, found: McpInput[], depth = 0): Value {
  // A secret is never filled in, even from its default: the user types it, or leaves an optional one out.
  if (input.isSecret === true) {
    if (input.isRequired !== true) return { omit: true };
    const text = placeholder(hint);
    found.push(placeholderInput(input, text));
    return { text };
  }
  const given = scalar(input.value);
  if (given !== null && depth > 0) return { text: given };
  if (given !== null) {
    // An optional argument whose template the author left unfilled is left out; a required one is unusable.
    const filled = fill(given, input.variables, found);
    return "refused" in filled && input.isRequired !== true ? { omit: true } : filled;
  }
  const fallback = scalar(input.default);
  if (fallback !== null) return { text: fallback };
  if (input.isRequired !== true) return { omit: true };
  const text = placeholder(hint);
  found.push(placeholderInput(input, text));
  return { text };
}

/** `text` with each `{name}` replaced by its variable's value; an undefined variable is an unfilled template. */
function fill(text: string, variables: unknown, found: McpInput[]): Value {
  let omit = false;
  let refused: string | null = null;
  const out = text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const input = isObject(variables) ? variables[name] : undefined;
    if (!isObject(input)) {
      refused = "argument names a variable it does not define";
      return "";
    }
    const v = inputValue(input, name, found, 1);
    if ("text" in v) return v.text;
    omit = true;
    return "";
  });
  if (refused) return { refused };
  return omit ? { omit: true } : { text: out };
}

/** One argument's words: a positional value, or a named flag with its value. */
function argument(raw: unknown): Words {
  if (!isObject(raw)) return { refused: "argument not an object" };
  const arg = camelCased(raw, 2);
  const found: McpInput[] = [];
  if (arg.type === "positional") {
    const hint = str(arg.valueHint) ?? str(arg.name) ?? "value";
    const v = inputValue(arg, hint, found);
    if ("refused" in v) return v;
    if ("omit" in v) return { words: [], inputs: [] };
    return plain(v.text) ? { words: [v.text], inputs: found } : { refused: "argument value not plain text" };
  }
  if (arg.type === "named") {
    const flag = str(arg.name);
    if (!flag || !/^-{0,2}[A-Za-z0-9][A-Za-z0-9._-]{0,60}$/.test(flag))
      return { refused: "named argument has no usable name" };
    const hasValue = arg.value !== undefined || arg.default !== undefined || arg.isSecret === true;
    if (!hasValue && arg.format === "boolean") return { words: arg.isRequired === true ? [flag] : [], inputs: [] };
    const v = inputValue(arg, flag, found);
    if ("refused" in v) return v;
    if ("omit" in v) return { words: [], inputs: [] };
    return plain(v.text) ? { words: [flag, v.text], inputs: found } : { refused: "argument value not plain text" };
  }
  return { refused: "argument type unknown" };
}

/** The words of a list of arguments and the inputs of their placeholders (each name once), or the first refusal. */
export function argumentWords(list: unknown): Words {
  if (list === undefined) return { words: [], inputs: [] };
  if (!Array.isArray(list) || list.length > 50) return { refused: "arguments not a list" };
  const words: string[] = [];
  const inputs = new Map<string, McpInput>();
  for (const raw of list) {
    const read = argument(raw);
    if ("refused" in read) return read;
    words.push(...read.words);
    for (const input of read.inputs) if (!inputs.has(input.name)) inputs.set(input.name, input);
  }
  return { words, inputs: [...inputs.values()] };
}

export interface EnvRead {
  env: Install["env"];
  /** Required variables with the value to set: the given one, the default, or a `<NAME>` placeholder. */
  set: Array<{ name: string; value: string }>;
  /** Every variable with the words server.json gave to ask for it (the MCP registry API serves them). */
  inputs: McpInput[];
}

/** The package's environment variables, every one checked; a refusal reason when one is not acceptable. */
export function environment(list: unknown): EnvRead | { refused: string } {
  if (list === undefined) return { env: [], set: [], inputs: [] };
  if (!Array.isArray(list) || list.length > 50) return { refused: "environment not accepted" };
  const read: EnvRead = { env: [], set: [], inputs: [] };
  for (const raw of list) {
    const v = isObject(raw) ? camelCased(raw, 2) : null;
    const name = v ? str(v.name) : null;
    if (!v || !name || !ENV_NAME.test(name)) return { refused: "environment variable name not accepted" };
    // A name that changes how the launcher or its runtime behaves refuses this package only.
    if (!acceptableEnvName(name)) return { refused: "environment variable changes the runtime" };
    const required = v.isRequired === true;
    const secret = v.isSecret === true;
    read.env.push({ name, secret, required });
    // A fixed value (not a template) is what a client fills in: offered as the default.
    const value = secret ? null : scalar(v.value);
    const fixed = value !== null && !/[{}]/.test(value) ? value : null;
    read.inputs.push({ name, secret, required, ...promptWords(v, secret, fixed) });
    if (!required) continue;
    const given = secret ? null : (scalar(v.value) ?? scalar(v.default));
    // A value the stored rules would refuse (a space, a quote, a template) is the user's to type.
    read.set.push({ name, value: given !== null && acceptableEnvValue(given) ? given : `<${name}>` });
  }
  return read;
}
