/**
 * Text for XML documents, whatever the snapshot holds: characters XML 1.0 forbids are dropped (so
 * one bad record cannot make a feed or badge unreadable), and markup is escaped by preact's
 * renderer, the one escaper every badge and feed text goes through.
 */
import { Fragment, h, type VNode } from "preact";
import { render } from "preact-render-to-string";

/**
 * `text` without the characters XML 1.0 cannot carry: C0 controls but tab, newline and carriage
 * return, U+FFFE and U+FFFF are dropped; a lone surrogate becomes U+FFFD, as UTF-8 would have it.
 * Line ends are written as XML parsers read them (2.11): CR LF and a lone CR become LF.
 */
export function xmlChars(text: string): string {
  const kept = xmlAllowed(text);
  return kept.includes("\r") ? kept.replace(/\r\n?/g, "\n") : kept;
}

function xmlAllowed(text: string): string {
  const whole = text.toWellFormed();
  let kept = "";
  let from = 0;
  for (let i = 0; i < whole.length; i++) {
    const code = whole.charCodeAt(i);
    if (code >= 0x20 ? code < 0xfffe : code === 0x09 || code === 0x0a || code === 0x0d) continue;
    kept += whole.slice(from, i);
    from = i + 1;
  }
  return from === 0 ? whole : kept + whole.slice(from);
}

/**
 * A preact tree as an XML document. Preact escapes `&`, `<` and `"` in every text and attribute
 * value; the one sequence left that XML forbids in text, `]]>` (2.4), gets its `>` as `&gt;`,
 * which reads the same in an attribute value. The tree holds no CDATA section or comment.
 */
export function renderXml(node: VNode): string {
  return render(node).replaceAll("]]>", "]]&gt;");
}

/**
 * `text` as HTML that shows it literally, safe inside an XML text node or CDATA section: rendered
 * by preact as a text node, so `&`, `<` and `"` are escaped, with every `>` as `&gt;` too. The
 * result holds no `<` and no `>`, so no `]]>` can close the CDATA section the feed library wraps
 * it in, and readers rendering an item's title and description as HTML show the text as written.
 */
export function feedText(text: string): string {
  return render(h(Fragment, null, xmlChars(text))).replaceAll(">", "&gt;");
}
