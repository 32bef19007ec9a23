/** One skill of a plugin's contents, as stored and served (details.ts `contents.skills`). */
import { type Static, Type } from "@sinclair/typebox";

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Text = Type.Union([Type.String({ maxLength: 300 }), Type.Null()]);

export const REPO_ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}$";

/** One skill: its name and description, where it lives, its folder's tree id, and what the catalog says of it. */
export const SkillSchema = Type.Object(
  {
    name: Name,
    description: Text,
    path: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        pattern: "^[A-Za-z0-9._@+ -]+(?:/[A-Za-z0-9._@+ -]+)*$",
        description:
          "The skill's folder in the repository (`skills/pdf`, `.claude/skills/pdf`, `plugins/docs/skills/pdf`).",
      }),
    ),
    tree: Type.Optional(
      Type.String({
        pattern: "^[0-9a-f]{40}$",
        description: "The git tree id of the skill's folder: equal ids, equal files.",
      }),
    ),
    copy_of: Type.Optional(
      Type.String({
        pattern: REPO_ID_PATTERN,
        description:
          "An earlier-created other repository holding a skill folder with the same tree id: this one is its copy.",
      }),
    ),
    no_install: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          "Why the skill has no install instruction of its own (its name declared twice, the installer not reaching it).",
      }),
    ),
  },
  { additionalProperties: false },
);
export type SkillEntry = Static<typeof SkillSchema>;
