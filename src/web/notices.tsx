/** @jsxImportSource preact */
/** The pages that say what went wrong or where a thing went: not found, bad request, moved. */
import type { ComponentChildren } from "preact";
import type { Rendered } from "../http/cache";
import type { HttpError } from "../http/errors";
import { Page, renderPage } from "./layout";

export const NotFoundPage = ({ title, children }: { title: string; children: ComponentChildren }) => (
  <Page title={`${title} — Plugin Catalog`}>
    <h1>{title}</h1>
    <p>{children}</p>
    <p>
      <a href="/browse">Browse all plugins</a> or <a href="/">go to the home page</a>.
    </p>
  </Page>
);

export const BadRequestPage = ({ error }: { error: HttpError }) => (
  <Page title="Bad request — Plugin Catalog">
    <h1>This address asks for something the catalog cannot show</h1>
    <p>{error.message}</p>
    <p>
      <a href="/browse">Browse all plugins</a>.
    </p>
  </Page>
);

/** A redirect page: 301 to `location`, with a link for a client that does not follow it. */
export function movedTo(location: string, text: string): Rendered {
  const rendered = renderPage(
    <Page title="Moved — Plugin Catalog">
      <h1>Moved</h1>
      <p>
        {text} <a href={location}>Go to its page</a>.
      </p>
    </Page>,
    301,
  );
  rendered.headers.Location = location;
  return rendered;
}
