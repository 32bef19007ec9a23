/** A Gemini CLI extension's `gemini-extension.json`: its servers and the `gemini extensions install` line. */
import type { Install } from "../../catalog/model/details";
import { type Gate, isObject, type Json, PLUGIN_NAME, str } from "./manifest-gate";
import { serverNames } from "./mcp";
import { MANIFEST_FILES } from "./selection";

export function readGemini(
  gate: Gate,
  manifest: Json,
  id: string,
): { mcpServers: string[]; install: Install[] } | null {
  const file = MANIFEST_FILES.gemini;
  const name = str(manifest.name);
  if (!name || !PLUGIN_NAME.test(name)) return gate.refuse(file, "name not accepted", id);
  const mcpServers = isObject(manifest.mcpServers) ? serverNames(gate, manifest.mcpServers, file, id) : [];
  const install = gate.instructions(id, [
    {
      harness: "gemini-cli",
      kind: "extension",
      command: `gemini extensions install https://github.com/${id}`,
      env: [],
      from: file,
    },
  ]);
  return { mcpServers, install };
}
