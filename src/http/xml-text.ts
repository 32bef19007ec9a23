/**
 * Text for an RSS document, whatever the snapshot holds: characters XML 1.0 forbids are dropped
 * (so one bad record cannot make the feed unreadable), and the rest is escaped as HTML, since
 * readers render an item's title and description as HTML. Escaped, the text holds no `>`, so no
 * `]]>` can close the CDATA section the feed library wraps it in.
 */

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

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

/** `text` as HTML that shows it literally, safe inside an XML text node or CDATA section. */
export function feedText(text: string): string {
  return xmlChars(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}
