/**
 * Text for an RSS document, whatever the snapshot holds: characters XML 1.0 forbids are dropped
 * (so one bad record cannot make the feed unreadable), and the rest is escaped as HTML, since
 * readers render an item's title and description as HTML. Escaped, the text holds no `>`, so no
 * `]]>` can close the CDATA section the feed library wraps it in.
 */

/**
 * Characters outside XML 1.0's Char production: C0 controls but tab, newline and carriage return;
 * lone surrogates; U+FFFE and U+FFFF.
 */
const XML_INVALID = /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `text` without the characters XML 1.0 cannot carry. */
export function xmlChars(text: string): string {
  return text.replace(XML_INVALID, "");
}

/** `text` as HTML that shows it literally, safe inside an XML text node or CDATA section. */
export function feedText(text: string): string {
  return xmlChars(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}
