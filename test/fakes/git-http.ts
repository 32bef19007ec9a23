/**
 * A git host on 127.0.0.1 speaking git's smart HTTP protocol over https (`git http-backend`, run as
 * CGI), with repositories made from files: what Claude Code clones an https source from in the
 * tests. The client is pointed at it with a `url.<here>.insteadOf https://github.com/` line in its
 * HOME's .gitconfig (gitConfig), so the addresses the catalog serves are the ones cloned, and
 * nothing leaves the machine. Anonymous: no credential is asked or given. https, not http: the
 * client fetches a partial clone's objects (a `git-subdir` source) over https or ssh only.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const GIT_ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "Acme",
  GIT_AUTHOR_EMAIL: "acme@example.org",
  GIT_COMMITTER_NAME: "Acme",
  GIT_COMMITTER_EMAIL: "acme@example.org",
  GIT_AUTHOR_DATE: "2026-08-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-08-01T00:00:00Z",
};

/** A certificate for 127.0.0.1 alone (self-signed, valid until 2126), trusted only by the .gitconfig written beside it. */
const CERT = `-----BEGIN CERTIFICATE-----
MIIBjzCCATagAwIBAgIUYnvpmLlH3rFFAKc3HUBuWclrFy8wCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTIwNzEyNTE1MVoYDzIxMjYxMTEz
MTI1MTUxWjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARVzQWQEOtoq4EhDCGAlLXz9+9o6TWN4WpReAR+ruoyJ/AvLy35qMHc
dzOnEuZWFh5/u//qvdHc6ijeXyM17cdjo2QwYjAdBgNVHQ4EFgQUK+eCmKmKBvxD
PaV5tEEXvfi7AhYwHwYDVR0jBBgwFoAUK+eCmKmKBvxDPaV5tEEXvfi7AhYwDwYD
VR0RBAgwBocEfwAAATAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0cAMEQC
IHyk21fbB+i7g6eDNetsyhuhM4di51VuEp5wukbO5fKkAiB0MwL8MMLd7LYCP59L
l/PX5hPaSgzfL+6hipmlCY4Kbw==
-----END CERTIFICATE-----`;
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgCzlGJMnG+CyMvqkN
AlXlpDO3rdiUdaozliDFclc0RSmhRANCAARVzQWQEOtoq4EhDCGAlLXz9+9o6TWN
4WpReAR+ruoyJ/AvLy35qMHcdzOnEuZWFh5/u//qvdHc6ijeXyM17cdj
-----END PRIVATE KEY-----`;

function git(args: string[], cwd: string, home: string): string {
  const run = Bun.spawnSync(["git", ...args], { cwd, env: { ...GIT_ENV, HOME: home }, stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString().trim();
}

export interface GitHost {
  /** `https://127.0.0.1:<port>/`: where `https://github.com/` is read from. */
  url: string;
  /** The lines of a .gitconfig that send `https://github.com/…` here. */
  gitConfig: string;
  /** Repository `owner/repo` made of `files` (path → text), one commit; answers that commit. */
  repository(id: string, files: Record<string, string>): string;
  /** The paths asked for, in order. */
  asked: string[];
  stop(): Promise<void>;
}

/** Splits a CGI answer into its status, headers and body. */
function cgiResponse(output: Uint8Array): Response {
  const bytes = Buffer.from(output);
  const end = bytes.indexOf("\r\n\r\n");
  const cut = end >= 0 ? end : bytes.indexOf("\n\n");
  const head = bytes.subarray(0, cut).toString("latin1");
  const body = bytes.subarray(cut + (end >= 0 ? 4 : 2));
  const headers = new Headers();
  let status = 200;
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const [name, value] = [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
    if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
    else headers.append(name, value);
  }
  return new Response(body, { status, headers });
}

/** Starts a host serving the repositories made with `repository`. */
export function startGitHost(): GitHost {
  const root = mkdtempSync(join(tmpdir(), "git-host-"));
  const repos = join(root, "repos");
  mkdirSync(repos);
  const asked: string[] = [];
  const ca = join(root, "host.pem");
  writeFileSync(ca, `${CERT}\n`);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: { cert: CERT, key: KEY },
    async fetch(request) {
      const url = new URL(request.url);
      asked.push(url.pathname);
      const proc = Bun.spawn(["git", "http-backend"], {
        env: {
          ...GIT_ENV,
          HOME: root,
          GIT_PROJECT_ROOT: repos,
          GIT_HTTP_EXPORT_ALL: "1",
          PATH_INFO: decodeURIComponent(url.pathname),
          QUERY_STRING: url.search.replace(/^\?/, ""),
          REQUEST_METHOD: request.method,
          CONTENT_TYPE: request.headers.get("content-type") ?? "",
          HTTP_CONTENT_ENCODING: request.headers.get("content-encoding") ?? "",
          GIT_PROTOCOL: request.headers.get("git-protocol") ?? "",
          REMOTE_ADDR: "127.0.0.1",
        },
        stdin: request.body ? new Uint8Array(await request.arrayBuffer()) : "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      const output = new Uint8Array(await new Response(proc.stdout).arrayBuffer());
      await proc.exited;
      return cgiResponse(output);
    },
  });
  const url = `https://127.0.0.1:${server.port}/`;
  return {
    url,
    gitConfig: `[url "${url}"]\n\tinsteadOf = https://github.com/\n[http "${url}"]\n\tsslCAInfo = ${ca}\n`,
    asked,
    repository(id, files) {
      const work = join(root, "work", id);
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(work, path)), { recursive: true });
        writeFileSync(join(work, path), text);
      }
      git(["init", "-q", "-b", "main"], work, root);
      git(["add", "-A"], work, root);
      git(["commit", "-q", "-m", "The plugin"], work, root);
      const bare = join(repos, `${id}.git`);
      mkdirSync(dirname(bare), { recursive: true });
      git(["clone", "-q", "--bare", work, bare], root, root);
      // What a host like GitHub allows: partial clones, and fetching a pinned commit by its id.
      for (const [key, value] of [
        ["uploadpack.allowFilter", "true"],
        ["uploadpack.allowReachableSHA1InWant", "true"],
        ["uploadpack.allowAnySHA1InWant", "true"],
        ["http.receivepack", "false"],
      ])
        git(["config", key!, value!], bare, root);
      return git(["rev-parse", "HEAD"], work, root);
    },
    async stop() {
      await server.stop(true);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
