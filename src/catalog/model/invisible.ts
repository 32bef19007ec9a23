/**
 * Invisible characters out of text people and agents read: Unicode's default-ignorable code points
 * (tag characters, zero-width spaces and joiners, word joiners, the byte-order mark, variation
 * selectors, Hangul fillers…) and the interlinear annotation controls show nothing on a page, yet an
 * AI agent reading a description reads them, so they can carry instructions no person sees. What
 * such a character means in writing is kept: a joiner inside an emoji sequence (`👩‍💻`) or between
 * letters of a script that needs one (Arabic, Persian, the Indic scripts), one variation selector
 * after a visible character (`❤️`), and the tags of a subdivision flag (`🏴󠁧󠁢󠁳󠁣󠁴󠁿`). Runs go.
 */

const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\uFFF9-\uFFFB]/u;
const ZWNJ = "\u200C";
const ZWJ = "\u200D";
/** Variation selectors, standard, ideographic and Mongolian: one may follow a visible character. */
const SELECTOR = /^[\uFE00-\uFE0F\u{E0100}-\u{E01EF}\u180B-\u180D\u180F]$/u;
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;
/** What may come just before a joiner inside an emoji sequence. */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: U+FE0F is meant alone here, as one of the choices
const EMOJI_BEFORE = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]$/u;
/** Letters and marks of the scripts whose writing uses ZWJ/ZWNJ to choose a letter's form. */
const JOINING_SCRIPT = new RegExp(
  `^(?=[\\p{L}\\p{M}])[${[
    "Arabic",
    "Syriac",
    "Nko",
    "Mongolian",
    "Devanagari",
    "Bengali",
    "Gurmukhi",
    "Gujarati",
    "Oriya",
    "Tamil",
    "Telugu",
    "Kannada",
    "Malayalam",
    "Sinhala",
    "Khmer",
    "Myanmar",
  ]
    .map((s) => `\\p{Script=${s}}`)
    .join("")}]$`,
  "u",
);
/** A subdivision flag: black flag, two to six tag letters or digits, cancel tag (England is `gbeng`). */
const FLAG_TAGS = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{2,6}\u{E007F}/uy;

function joinerFits(joiner: string, before: string | undefined, after: string | undefined): boolean {
  if (before === undefined || after === undefined) return false;
  if (joiner === ZWJ && EMOJI_BEFORE.test(before) && PICTOGRAPH.test(after)) return true;
  return JOINING_SCRIPT.test(before) && JOINING_SCRIPT.test(after);
}

/** `text` without invisible characters that carry no meaning, and how many were removed. */
export function stripInvisible(text: string): { text: string; removed: number } {
  if (!INVISIBLE.test(text)) return { text, removed: 0 };
  const out: string[] = [];
  let removed = 0;
  let offset = 0;
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; offset += chars[i]!.length, i++) {
    const c = chars[i]!;
    FLAG_TAGS.lastIndex = offset;
    const flag = c === "\u{1F3F4}" ? FLAG_TAGS.exec(text) : null;
    if (flag) {
      const length = Array.from(flag[0]).length;
      out.push(...chars.slice(i, i + length));
      offset += flag[0].length - c.length;
      i += length - 1;
      continue;
    }
    if (!INVISIBLE.test(c)) {
      out.push(c);
      continue;
    }
    const before = out[out.length - 1];
    const visibleBefore = before !== undefined && !INVISIBLE.test(before) && before.trim() !== "";
    const keep = c === ZWJ || c === ZWNJ ? joinerFits(c, before, chars[i + 1]) : SELECTOR.test(c) && visibleBefore;
    if (keep) out.push(c);
    else removed++;
  }
  return { text: out.join(""), removed };
}
