/** Rules about files a plugin should not touch: shell start-up files, credential stores, and sending either away. */
import type { LineRule } from "./rule";

const HOME = String.raw`(?<![\w/.-])(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE|/root|/home/[A-Za-z0-9._-]{1,32})`;
const STARTUP = String.raw`(?:${HOME}/\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|config/fish/config\.fish)|/etc/(?:profile|bash\.bashrc|zshrc|zsh/zshrc|environment)|/etc/profile\.d/)`;
const STARTUP_NAME = String.raw`\.(?:bashrc|bash_profile|zshrc|zprofile|zshenv|profile)\b`;
const SECRET_PATH = String.raw`(?:${HOME}[/\\]\.(?:ssh(?![/\\][\w.-]{1,80}\.pub\b|[/\\]known_hosts\b)|aws|gnupg|kube|azure|netrc|git-credentials|npmrc|pypirc|docker[/\\]config\.json|config[/\\](?:gcloud|gh)\b)|\bid_(?:rsa|ed25519|ecdsa|dsa)\b(?!\.pub)|(?<![\w/.-])/etc/shadow\b)`;

export const shellStartup: LineRule = {
  rule: "shell-startup",
  hints: ["bashrc", "bash_login", "profile", "zshrc", "zshenv", "zlogin", "config.fish", "/etc/environment"],
  patterns: [
    new RegExp(
      String.raw`(?:>>?|\btee\s{1,4}(?:-a\s{1,4})?|\bsed\s{1,4}-i\b[^\n]{0,200}\s|\b(?:cp|mv|ln\s{1,4}-s[f]?)\s[^\n]{0,200}\s)\s{0,4}["']?${STARTUP}`,
      "i",
    ),
    new RegExp(
      String.raw`\b(?:appendFileSync|appendFile|writeFileSync|writeFile|write_text|Add-Content|Set-Content|Out-File)\b[^\n]{0,120}${STARTUP_NAME}`,
    ),
    new RegExp(String.raw`\bopen\s{0,4}\([^\n]{0,120}${STARTUP_NAME}[^\n]{0,40},\s{0,4}["'][aw]`),
  ],
};

export const credentials: LineRule = {
  rule: "credentials",
  hints: [
    ".ssh",
    ".aws",
    ".gnupg",
    ".kube",
    ".azure",
    ".netrc",
    "credentials",
    ".npmrc",
    ".pypirc",
    ".docker",
    "gcloud",
    "/gh",
    "id_rsa",
    "id_ed25519",
    "id_ecdsa",
    "id_dsa",
    "shadow",
  ],
  patterns: [
    new RegExp(
      String.raw`\b(?:cat|cp|scp|rsync|tar|zip|base64|xxd|head|tail|less|more|mv|rm|chmod|chown|ssh-add|gpg|type|Get-Content|readFileSync|readFile|read_text|read_bytes|open)(?:\s|\()[^\n|;&]{0,100}${SECRET_PATH}`,
      "i",
    ),
    new RegExp(String.raw`(?:>>?|\btee\s{1,4}(?:-a\s{1,4})?)\s{0,4}["']?${SECRET_PATH}`, "i"),
  ],
};

export const exfiltration: LineRule = {
  rule: "exfiltration",
  hints: ["curl", "wget", "nc ", "ncat", "netcat", "fetch", "requests.", "httpx", "invoke-"],
  patterns: [
    /\b(?:env|printenv|set|export\s{1,4}-p)\s{0,4}\|[^\n]{0,100}\b(?:curl|wget|nc|ncat|netcat|socat)\b/i,
    new RegExp(
      String.raw`\b(?:curl|wget)\b[^\n]{0,300}\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file|--post-file|--body-file)[=\s]\s{0,4}["']?(?:[A-Za-z0-9_-]{1,40}=)?@?(?:${SECRET_PATH}|\.env\b|${HOME}/\.env\b)`,
      "i",
    ),
    new RegExp(
      String.raw`\b(?:curl|wget)\b[^\n]{0,300}\$\(\s{0,4}(?:env|printenv|cat\s[^)\n]{0,100}(?:${SECRET_PATH}|\.env\b))`,
      "i",
    ),
    new RegExp(String.raw`\b(?:nc|ncat|netcat|socat)\b[^\n<]{0,100}<\s{0,4}["']?(?:${SECRET_PATH}|\.env\b)`, "i"),
    /\bfetch\s{0,4}\([^\n]{0,200}\b(?:JSON\.stringify\(\s{0,4}process\.env\s{0,4}\)|body\s{0,4}:\s{0,4}process\.env\b)/,
    /\b(?:requests|httpx)\.(?:post|put)\s{0,4}\([^\n]{0,200}\b(?:data|json)\s{0,4}=\s{0,4}(?:dict\(\s{0,4})?os\.environ\b(?![.[])/,
  ],
};
