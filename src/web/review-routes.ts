/**
 * GET /review: what a catalog held to a policy waits on, for its operator (review-page.tsx), read
 * from the served file's `policy_records` once per snapshot. Behind READ_TOKEN when it is set (as
 * every path is); a catalog held to no policy says so.
 */
import { h } from "preact";
import { reviewList } from "../catalog/snapshot/policy-review";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { CatalogStore } from "../catalog/snapshot/store";
import type { Answer } from "../http/answer";
import type { RouteDoc } from "../http/openapi";
import { TextSchema } from "../http/wire-schemas";
import { renderPage } from "./layout";
import { ReviewPage } from "./review-page";

export const reviewDoc: RouteDoc<Snapshot> = {
  tag: "Pages",
  summary: "What a catalog held to a policy waits on (HTML, for its operator)",
  description:
    "Plugins served at their approved commit while their head moved on (each with what the newer reading adds: " +
    "components, install lines and packages, risk notes, context cost), plugins a rule of the policy keeps out " +
    "(with the rule), newcomers under an allowed owner: what `npm run review` prints. Behind `READ_TOKEN` when set; " +
    "a catalog held to no policy says so.",
  body: TextSchema,
  type: "text/html",
  cached: "snapshot",
};

export function reviewHandlers(answer: Answer, store: CatalogStore) {
  return answer.route(
    "review",
    () => undefined,
    (snapshot) => {
      const items = snapshot.underPolicy() ? reviewList(store.path, null) : null;
      return renderPage(h(ReviewPage, { items, snapshotAt: snapshot.snapshotAt }));
    },
  );
}
