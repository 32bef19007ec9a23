/** How bench:cost asks the service: each request from a client address of its own, timed to its first byte and its end. */

export const GZIP = { "accept-encoding": "gzip" };
export const PLAIN = { "accept-encoding": "identity" };

let address = 0;
/** A distinct client address per request (the service trusts X-Forwarded-For in the bench). */
export function nextAddress(): string {
  address++;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
}

export interface Sample {
  ms: number;
  /** Until the status and headers arrived: the server's own time before it sends. */
  firstMs: number;
  bytes: number;
  status: number;
}

export async function ask(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<Sample> {
  const started = performance.now();
  const res = await fetch(url, {
    method,
    headers: { "x-forwarded-for": nextAddress(), ...headers },
    decompress: false,
  });
  const firstMs = performance.now() - started;
  const bytes = (await res.arrayBuffer()).byteLength;
  return { ms: performance.now() - started, firstMs, bytes, status: res.status };
}

/** The ETag of catalog.json without gzip, for the requests that revalidate it. */
export async function catalogEtag(url: string): Promise<string> {
  return (await fetch(`${url}/market/v1/catalog.json`, { method: "HEAD", headers: PLAIN })).headers.get("etag")!;
}

/** Four words no plugin has, fresh for each call: a search that every category must correct. */
let unknown = 0;
export function unknownWords(): string {
  unknown++;
  return ["zqvx", "blorptan", "qwyxel", "vortrunk"].map((w) => `${w}${unknown}`).join(" ");
}
