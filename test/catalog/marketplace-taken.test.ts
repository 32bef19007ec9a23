/** A marketplace under another owner's marketplace name is flagged `lookalike_of` the one that keeps it. */
import { describe, expect, test } from "bun:test";
import { noDetails, type PluginDetails } from "../../src/catalog/model/details";
import { takenMarketplaces } from "../../src/catalog/model/marketplace-taken";

function market(id: string, stars: number, name: string, refused: string | null = null, created = "2024-01-01") {
  const details: PluginDetails = {
    ...noDetails(),
    contents: {
      skills: [],
      commands: [],
      agents: [],
      hooks: [],
      mcp_servers: [],
      plugins: [],
      marketplace: { name, refused },
      counts: { skills: 0, commands: 0, agents: 0, hooks: 0, mcp_servers: 0, plugins: 1 },
    },
  };
  return { id, stars, created_at: `${created}T00:00:00Z`, details };
}

describe("taken marketplace names", () => {
  test("the most starred keeps the name, case aside; another owner's copy is flagged", () => {
    const taken = takenMarketplaces([
      market("genuine/plugins", 900, "team-tools"),
      market("copy/plugins", 5, "Team-Tools"),
      market("other/plugins", 50, "other-tools"),
    ]);
    expect([...taken]).toEqual([["copy/plugins", "genuine/plugins"]]);
  });

  test("ties go to the earlier created; one owner's two repositories are not each other's copies", () => {
    const tie = takenMarketplaces([
      market("late/m", 10, "same", null, "2025-01-01"),
      market("early/m", 10, "same", null, "2023-01-01"),
    ]);
    expect([...tie]).toEqual([["late/m", "early/m"]]);
    expect(takenMarketplaces([market("acme/a", 10, "x"), market("acme/b", 1, "x")]).size).toBe(0);
  });

  test("a marketplace Claude Code refuses has no line to be confused with, and takes nothing", () => {
    const taken = takenMarketplaces([
      market("genuine/m", 900, "tools"),
      market("bent/m", 5, "tools", "marketplace name not accepted"),
    ]);
    expect(taken.size).toBe(0);
  });
});
