/**
 * Risk notes: places in the files a plugin ships (hooks, MCP server commands, SKILL.md bodies)
 * that do something a person should look at before running it. Notes, not verdicts: each says
 * which rule matched where, and the catalog never adds them up into a score. The refresh finds
 * them (src/refresh/risk/); the stored schema here bounds what a record may hold.
 */
import { type Static, Type } from "@sinclair/typebox";

/** Rule ids, with what each notes. */
export const RISK_RULE_TEXT = {
  "pipe-to-shell": "a download piped straight into a shell or interpreter",
  "fetch-then-exec": "a download saved and then executed, or run through process substitution",
  "decode-exec": "decoded (base64, hex) text executed",
  "eval-remote": "eval of text fetched from the network",
  "shell-startup": "a write to a shell start-up file (~/.bashrc, ~/.zshrc, ~/.profile …)",
  credentials: "reads or writes ~/.ssh, ~/.aws or other credential stores",
  exfiltration: "the environment or a credential file sent over the network",
  sudo: "a command run with sudo",
  "privileged-container": "a container run privileged, with the host's root, Docker socket or namespaces",
  "unpinned-latest": "a package or image run at @latest / :latest",
} as const;
export type RiskRule = keyof typeof RISK_RULE_TEXT;
export const RISK_RULES = Object.keys(RISK_RULE_TEXT) as RiskRule[];
/** Values of the `risk=` filter: `none` (no note), or a rule. */
export const RISK_FILTERS = ["none", ...RISK_RULES] as const;

/** Notes kept per plugin, and per file. */
export const MAX_RISK_NOTES = 50;
export const MAX_NOTES_PER_FILE = 10;
/** Characters of an excerpt. */
export const MAX_EXCERPT = 160;

export const RiskNoteSchema = Type.Object(
  {
    rule: Type.Union(RISK_RULES.map((r) => Type.Literal(r))),
    file: Type.String({ minLength: 1, maxLength: 200, description: "Path of the file in the repository." }),
    line: Type.Integer({ minimum: 1, maximum: 1_000_000, description: "1-based line of the file." }),
    excerpt: Type.String({ maxLength: MAX_EXCERPT, description: "The line around the match, cleaned like any text." }),
  },
  { additionalProperties: false },
);
export type RiskNote = Static<typeof RiskNoteSchema>;

export const RiskNotesSchema = Type.Array(RiskNoteSchema, {
  maxItems: MAX_RISK_NOTES,
  description:
    "Places in the hooks, MCP server commands and SKILL.md files a person should look at: notes, not a verdict.",
});
