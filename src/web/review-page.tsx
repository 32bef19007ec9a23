/** @jsxImportSource preact */
/**
 * The operator's review page of a catalog held to a policy (review-routes.ts): the list
 * `npm run review` prints (catalog/snapshot/policy-review.ts), each waiting plugin with what its
 * newer reading adds (update-panel.tsx).
 */
import type { ReviewItem } from "../catalog/snapshot/policy-review";
import { pluginPath } from "../http/paths";
import { Page } from "./layout";
import { UpdateChanges } from "./update-panel";

const Commit = ({ sha }: { sha: string | null }) => <code>{sha === null ? "unknown" : sha.slice(0, 12)}</code>;

function Row({ item }: { item: ReviewItem }) {
  const what =
    item.kind === "waiting" ? (
      <>
        served at <Commit sha={item.approved} />, head at <Commit sha={item.head} />
        {item.diff ? <UpdateChanges update={item.diff} /> : <p>Nothing the diff shows changed.</p>}
        {item.diff?.version_unchanged ? (
          <p>
            <span class="flag">same version</span> The content changed while the declared version did not move.
          </p>
        ) : null}
      </>
    ) : item.kind === "kept_out" ? (
      <>{item.rule}</>
    ) : (
      <>
        new at <Commit sha={item.commit} />, served: its owner is allowed
      </>
    );
  const approve = item.kind === "waiting" ? `npm run review approve ${item.id}@${item.head}` : null;
  return (
    <tr>
      <td>{{ waiting: "waiting", kept_out: "kept out", new: "new" }[item.kind]}</td>
      <td>{item.kind === "kept_out" ? item.id : <a href={pluginPath(item.id)}>{item.id}</a>}</td>
      <td>{what}</td>
      <td>{approve === null ? null : <code>{approve}</code>}</td>
    </tr>
  );
}

/** The review, or (`items` null) the word that the catalog is held to no policy. */
export function ReviewPage({ items, snapshotAt }: { items: ReviewItem[] | null; snapshotAt: string }) {
  if (items === null) {
    return (
      <Page title="Review — Plugin Catalog">
        <h1>Review</h1>
        <p>This catalog is held to no policy: it serves every plugin the public rules list, and nothing waits.</p>
      </Page>
    );
  }
  return (
    <Page title="Review — Plugin Catalog">
      <h1>Review</h1>
      <p>
        What the policy's catalog waits on, as of the snapshot of {snapshotAt}: {items.length} to review.
      </p>
      <table class="review">
        <thead>
          <tr>
            <th>State</th>
            <th>Plugin</th>
            <th>Why</th>
            <th>To approve</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <Row item={item} />
          ))}
        </tbody>
      </table>
    </Page>
  );
}
