/**
 * A client that keeps an exact copy of the catalog: one download of /market/v1/catalog.json, then
 * one request per snapshot to /market/v1/changes. It honours 429 (Retry-After), 410 (download the
 * catalog again) and 409 (a pinned page of a snapshot no longer served: start paging again).
 * No dependencies: run it with `bun examples/mirror.ts http://localhost:3000 [state.json]`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";

/** A plugin as catalog.json and changes give it: at least an id; every other field is kept as it came. */
export interface CatalogItem {
  id: string;
  [field: string]: unknown;
}

export interface MirrorState {
  snapshotAt: string | null;
  /** By lowercased id: the platform's ids compare case-insensitively. */
  items: Record<string, CatalogItem>;
}

interface Changes {
  snapshotAt: string;
  added: CatalogItem[];
  updated: CatalogItem[];
  removed: string[];
  renamed: Array<{ from: string; to: string }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Mirror {
  state: MirrorState = { snapshotAt: null, items: {} };
  /** Requests made, by what they answered: a client's own cost. */
  readonly calls = { catalog: 0, changes: 0, pages: 0, waited429: 0, restarted409: 0, gone410: 0 };

  constructor(
    readonly baseUrl: string,
    private readonly maxRetries = 10,
  ) {}

  /** GET with the service's rate limit honoured: a 429 waits its Retry-After and asks again. */
  private async get(path: string): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${this.baseUrl}${path}`, { redirect: "manual" });
      if (response.status !== 429 || attempt >= this.maxRetries) return response;
      this.calls.waited429++;
      await sleep(Number(response.headers.get("retry-after") ?? "1") * 1000);
    }
  }

  /** Replaces the copy with the whole current catalog. */
  async download(): Promise<void> {
    this.calls.catalog++;
    const response = await this.get("/market/v1/catalog.json");
    if (response.status !== 200) throw new Error(`catalog.json answered ${response.status}`);
    const catalog = (await response.json()) as { snapshotAt: string; items: CatalogItem[] };
    const items: Record<string, CatalogItem> = {};
    for (const item of catalog.items) items[item.id.toLowerCase()] = item;
    this.state = { snapshotAt: catalog.snapshotAt, items };
  }

  /** Brings the copy to the current snapshot: the changes since the one held, or the whole catalog. */
  async sync(): Promise<"downloaded" | "changed" | "current"> {
    if (this.state.snapshotAt === null) {
      await this.download();
      return "downloaded";
    }
    this.calls.changes++;
    const response = await this.get(`/market/v1/changes?since=${encodeURIComponent(this.state.snapshotAt)}`);
    if (response.status === 410) {
      this.calls.gone410++;
      await this.download();
      return "downloaded";
    }
    if (response.status !== 200) throw new Error(`changes answered ${response.status}`);
    const changes = (await response.json()) as Changes;
    if (changes.snapshotAt === this.state.snapshotAt) return "current";
    // Drops first, then the new and changed records (a renamed plugin's record comes under its new id).
    for (const id of changes.removed) delete this.state.items[id.toLowerCase()];
    for (const { from } of changes.renamed) delete this.state.items[from.toLowerCase()];
    for (const item of [...changes.added, ...changes.updated]) this.state.items[item.id.toLowerCase()] = item;
    this.state.snapshotAt = changes.snapshotAt;
    return "changed";
  }

  /**
   * Every plugin of one snapshot through the paged list, pinned to that snapshot: when the catalog
   * changes in between (409), paging starts again from page 1 of the new snapshot.
   */
  async pagedList(pageSize = 50, onPage?: (page: number) => Promise<void>): Promise<CatalogItem[]> {
    for (;;) {
      let pinned = "";
      const items: CatalogItem[] = [];
      let restarted = false;
      for (let page = 1; ; page++) {
        const pin = pinned ? `&snapshot=${encodeURIComponent(pinned)}` : "";
        this.calls.pages++;
        const response = await this.get(`/api/v1/plugins?sort=stars&page=${page}&pageSize=${pageSize}${pin}`);
        if (response.status === 409) {
          this.calls.restarted409++;
          restarted = true;
          break;
        }
        if (response.status !== 200) throw new Error(`page ${page} answered ${response.status}`);
        const { data } = (await response.json()) as {
          data: { items: CatalogItem[]; total: number; generatedAt: string };
        };
        pinned ||= data.generatedAt;
        items.push(...data.items);
        await onPage?.(page);
        if (items.length >= data.total || data.items.length === 0) break;
      }
      if (!restarted) return items;
    }
  }
}

if (import.meta.main) {
  const [baseUrl = "http://localhost:3000", statePath] = process.argv.slice(2);
  const mirror = new Mirror(baseUrl.replace(/\/$/, ""));
  if (statePath && existsSync(statePath)) mirror.state = JSON.parse(readFileSync(statePath, "utf8")) as MirrorState;
  const outcome = await mirror.sync();
  if (statePath) writeFileSync(statePath, JSON.stringify(mirror.state));
  const count = Object.keys(mirror.state.items).length;
  console.log(`${outcome}: ${count} plugins at ${mirror.state.snapshotAt} (${JSON.stringify(mirror.calls)})`);
}
