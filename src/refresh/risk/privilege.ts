/** Rules about privilege and pinning: sudo, privileged or host-mounted containers, runs at @latest. */
import type { LineRule } from "./rule";

export const sudo: LineRule = {
  rule: "sudo",
  hints: ["sudo"],
  codeOnly: true,
  unless: /\b(?:never|don't|do not|must not|avoid)\b/i,
  patterns: [/(?:^|[\s;&|(`"'$])sudo\s{1,4}(?:-[A-Za-z]{1,10}\s{1,4}){0,3}(?!-)[A-Za-z./]/],
};

export const privilegedContainer: LineRule = {
  rule: "privileged-container",
  hints: ["privileged", "docker.sock", "host", "/:/", "cap-add", "unconfined"],
  patterns: [
    /(?:^|[\s"'[,])--privileged\b(?!\s{0,4}=\s{0,4}false)/,
    /(?:^|[\s"'[,=])(?:--pid|--userns|--uts)[=\s]["']?host\b/,
    /(?:(?:-v|--volume)[=\s]{1,4}["']?|(?:source|src)=)\/(?:var\/)?run\/docker\.sock\b|\/(?:var\/)?run\/docker\.sock:\//,
    /(?:-v|--volume)[\s=]{1,4}["']?\/:\/[A-Za-z0-9._/-]{0,40}(?::r[ow])?["'\s,]/,
    /(?:^|[\s"'[,])\/:\/host\b/,
    /--cap-add[=\s]["']?(?:ALL|SYS_ADMIN|SYS_PTRACE|SYS_MODULE)\b/i,
    /--security-opt[=\s]["']?(?:seccomp|apparmor)[=:]unconfined\b/i,
  ],
};

export const unpinnedLatest: LineRule = {
  rule: "unpinned-latest",
  hints: ["latest"],
  patterns: [
    /\b(?:npx|bunx|pnpx|uvx|pnpm\s{1,4}dlx|yarn\s{1,4}dlx|pipx\s{1,4}run|npm\s{1,4}exec)\b[^\n|;&]{0,200}[A-Za-z0-9_/-]@latest\b/,
    /\b(?:docker|podman)\s{1,4}run\b[^\n|;&]{0,300}\s[a-z0-9][a-z0-9._/-]{0,200}:latest\b/,
  ],
};

/** In JSON (`.mcp.json`, server.json, hooks.json), `args` elements stand alone: a quoted `pkg@latest` or `image:latest`. */
export const unpinnedLatestArg: LineRule = {
  rule: "unpinned-latest",
  hints: ["latest"],
  patterns: [
    /"(?:@[a-z0-9][a-z0-9._-]{0,100}\/)?[a-z0-9][a-z0-9._-]{0,100}@latest"|"[a-z0-9][a-z0-9._/-]{0,200}:latest"/,
  ],
  only: ["json"],
};
