/** Descriptions an attacker chose, by name: every feed format and page must carry them as text. */
const ESC = "\u001b";
/** Each hostile description, by name. */
export const FIXTURES: Record<string, string> = {
  cdataTwice: "ok ]]><item><title>FORGED</title></item><![CDATA[ x ]]><item><title>FORGED</title></item><![CDATA[ end",
  controlCharacters: `a\u0000b\u0007c\u000bd${ESC}[2J${ESC}]0;owned\u0007 e \uFFFE\uFFFF f \uD800 g`,
  script: `<script>alert(document.cookie)</script><img src=x onerror=alert(1)> & "quoted" 'single'`,
  bidi: "safe \u202Egnp.exe\u202C \u2066isolate\u2069 \u200F rtl",
  entities: "&amp; &lt;item&gt; &#x3C; &#0; ]]&gt;",
  lineEnds: "one\r\ntwo\rthree\nfour",
};
