/**
 * Headers every response carries. They are written into each response where it is built (the
 * prepared headers of a cached page, an error, a preflight, a health answer) rather than by a hook
 * per request: a cached page then costs no header work at all.
 */

/** The API is public and read-only: any origin may read it, none may frame it. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "Referrer-Policy": "no-referrer",
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers":
    "ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Search-Corrected",
});

/** `headers` with the security headers before them. */
export function secured(headers: Record<string, string>): Record<string, string> {
  return { ...SECURITY_HEADERS, ...headers };
}

/**
 * The policy of the HTML pages: scripts, styles and requests from this service only, so a page
 * loads nothing from another host; inline styles for the pages' own small stylesheets.
 */
export const HTML_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The policy of the catalog's own pages (/, /browse, category and plugin pages): their stylesheet
 * and script from this service only, no inline code, requests to this service only, and forms
 * that submit only here.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
