/**
 * A skill's or command's description and `when_to_use` as Claude Code lists them (and so as
 * `claude plugin details` counts them; an agent's are counted as written): terminal escapes
 * stripped, each run of control, format, private-use, unassigned and default-ignorable characters
 * one space (an emoji sequence keeps its joiners and selectors), and `<`, `>` written `&lt;`, `&gt;`.
 */

/** The characters the client blanks: its `\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}`, line separators, default-ignorables, U+2800. */
const BLANKED = new RegExp(
  `[\\p{Cc}\\p{Cf}\\p{Cs}\\p{Co}\\p{Cn}\\u2028\\u2029${[
    [0xad, 0xad],
    [0x34f, 0x34f],
    [0x61c, 0x61c],
    [0x115f, 0x1160],
    [0x17b4, 0x17b5],
    [0x180b, 0x180f],
    [0x200b, 0x200f],
    [0x202a, 0x202e],
    [0x2060, 0x206f],
    [0x3164, 0x3164],
    [0xfe00, 0xfe0f],
    [0xfeff, 0xfeff],
    [0xffa0, 0xffa0],
    [0xfff0, 0xfffb],
    [0x1107f, 0x1107f],
    [0x13430, 0x1343f],
    [0x16fe4, 0x16fe4],
    [0x1bca0, 0x1bca3],
    [0x1d173, 0x1d17a],
    [0xe0000, 0xe0fff],
  ]
    .map(([a, b]) => (a === b ? `\\u{${a!.toString(16)}}` : `\\u{${a!.toString(16)}}-\\u{${b!.toString(16)}}`))
    .join("")}\\u2800]+`,
  "gu",
);
/** Characters an emoji sequence may hold that the client would otherwise blank. */
const JOINERS = /\u200C|\u200D|\uFE0F|\u{E007F}/u;
const EMOJI = /\p{RGI_Emoji}/gv;
/** Past this length the client no longer looks for emoji sequences: their joiners are blanked too. */
const EMOJI_SCAN_MAX = 4096;

/** The offsets of `text` inside emoji sequences, whose characters stay as written. */
function inEmoji(text: string): Set<number> {
  const kept = new Set<number>();
  if (text.length > EMOJI_SCAN_MAX || !JOINERS.test(text)) return kept;
  for (const { index, 0: seq } of text.matchAll(EMOJI)) for (let i = index; i < index + seq.length; i++) kept.add(i);
  return kept;
}

/** `text` as the client shows a skill's or command's description. */
export function listingText(text: string): string {
  const plain = Bun.stripANSI(text);
  const kept = inEmoji(plain);
  const blanked = plain.replace(BLANKED, (run, at: number) => {
    let out = "";
    for (let i = 0; i < run.length; i++) out += kept.has(at + i) ? run.charAt(i) : out.endsWith(" ") ? "" : " ";
    return out;
  });
  return blanked.replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
