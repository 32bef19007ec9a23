/** Rules about running what was downloaded or decoded: pipe into a shell, fetch then execute, decode then execute, eval of remote text. */
import type { LineRule } from "./rule";

/** The programs that fetch a URL, in shells and PowerShell. */
const GET = "(?:curl|wget|irm|iwr|invoke-webrequest|invoke-restmethod)";
/** A shell or interpreter reading a script from its input, optionally under sudo. */
const RUNNER = String.raw`(?:sudo\s{1,4}(?:-[A-Za-z]{1,10}\s{1,4}){0,3})?(?:(?:ba|z|k|da|fi|c|tc)?sh|python[0-9.]{0,4}|node|perl|ruby|php|iex|invoke-expression|pwsh|powershell)\b(?!\s{1,4}(?:-(?:m|c|e|p)\b|[\w./-]{1,200}\.(?:py|js|mjs|cjs|pl|rb|php)\b)|[.-])`;
/** What is fetched: an address, a host name with a path, or a variable holding one (not `curl ... | sh` in prose). */
const SOURCE = String.raw`(?:[a-z][a-z0-9+.-]{0,10}:\/\/|[A-Za-z0-9-]{1,63}\.[A-Za-z]{2,}[/\s"')]|\$\{?[A-Za-z_])`;

export const pipeToShell: LineRule = {
  rule: "pipe-to-shell",
  hints: ["curl", "wget", "irm", "iwr", "invoke-", "webclient"],
  patterns: [
    new RegExp(String.raw`\b${GET}\b[^|\n]{0,200}${SOURCE}[^|\n]{0,300}\|\s{0,8}${RUNNER}`, "i"),
    new RegExp(
      String.raw`\b(?:iex|invoke-expression)\s{0,4}\(?\s{0,4}(?:\(\s{0,4})?(?:${GET}|new-object\s{1,4}(?:system\.)?net\.webclient)`,
      "i",
    ),
  ],
};

export const fetchThenExec: LineRule = {
  rule: "fetch-then-exec",
  hints: ["curl", "wget"],
  patterns: [
    // bash <(curl …), sh -c "$(curl …)", python3 -c "$(wget -O- …)"
    new RegExp(String.raw`\b(?:(?:ba|z|k)?sh|source)\s{1,4}<\(\s{0,4}${GET}\b`, "i"),
    new RegExp(
      String.raw`\b(?:(?:ba|z|k)?sh|python[0-9.]{0,4}|node|perl|ruby)\s{1,4}-c\s{0,4}["']?\s{0,4}\$\(\s{0,4}${GET}\b`,
      "i",
    ),
    // curl -o x … && sh x / chmod +x x && ./x, on one line
    /\b(?:curl|wget)\b[^\n;&|]{0,300}\s(?:-o|-O|--output|--output-document)[=\s]?[^\n]{0,300}(?:&&|;)\s{0,4}(?:sudo\s{1,4})?(?:chmod\s{1,4}(?:[+0-7a-z]{1,6})\s|(?:ba|z)?sh\s|source\s|\.\s{1,4}\S|\.\/|python[0-9.]{0,4}\s|node\s|perl\s)/i,
  ],
};

export const decodeExec: LineRule = {
  rule: "decode-exec",
  hints: ["base64", "b64decode", "atob", "fromhex", "xxd", "buffer.from", "-enc", "codecs.decode", "frombase64"],
  patterns: [
    new RegExp(
      String.raw`\b(?:base64\s{1,4}(?:-d|--decode|-D)|xxd\s{1,4}-r(?:\s{1,4}-p)?|openssl\s{1,4}(?:base64|enc)\s[^|\n]{0,80}-d)\b[^|\n]{0,200}\|\s{0,8}${RUNNER}`,
      "i",
    ),
    /\b(?:eval|exec|source)\b[^\n]{0,20}\$\([^)\n]{0,300}\b(?:base64\s{1,4}(?:-d|--decode|-D)|xxd\s{1,4}-r)/i,
    /\b(?:exec|eval|compile)\s{0,4}\(\s{0,4}(?:base64\.b64decode|codecs\.decode|bytes\.fromhex|zlib\.decompress|marshal\.loads|__import__\(\s{0,4}["'](?:base64|codecs|zlib)["']\))/,
    /\b(?:eval|Function)\s{0,4}\(\s{0,4}(?:atob|Buffer\.from|unescape|decodeURIComponent)\s{0,4}\(/,
    /\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,100}\s-e(?:nc|ncodedcommand)?\s{1,4}[A-Za-z0-9+/=]{24}/i,
    /\b(?:iex|invoke-expression)\s{0,4}[([][^\n]{0,100}frombase64string/i,
  ],
};

export const evalRemote: LineRule = {
  rule: "eval-remote",
  hints: ["eval", "exec", "source", "function", ". <("],
  patterns: [
    new RegExp(String.raw`\beval\b[^\n]{0,20}\$\(\s{0,4}${GET}\b`, "i"),
    new RegExp(String.raw`(?:\bsource|(?:^|[\s;&|])\.)\s{1,4}<\(\s{0,4}${GET}\b`, "i"),
    /\b(?:eval|new\s{1,4}Function)\s{0,4}\([^\n]{0,60}\bfetch\s{0,4}\(/,
    /\b(?:exec|eval)\s{0,4}\([^\n]{0,60}\b(?:requests\.get|urlopen|urllib\.request\.urlopen|httpx\.get)\s{0,4}\(/,
  ],
};
