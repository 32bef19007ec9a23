/**
 * Where an install instruction may point: an https address at a public host, an image from a
 * registry the MCP registry accepts. Part of the stored install rules (install-rules.ts).
 */
import ipaddr from "ipaddr.js";

/** The OCI registries the MCP registry accepts images from; an image naming no registry is docker.io's. */
const OCI_HOSTS = new Set(["docker.io", "registry-1.docker.io", "index.docker.io", "ghcr.io", "mcr.microsoft.com"]);
const OCI_HOST_SUFFIXES = [".pkg.dev", ".azurecr.io"];

/** Docker Hub's names for itself. */
const DOCKER_HUB = new Set(["docker.io", "registry-1.docker.io", "index.docker.io"]);

/**
 * The registry host an image reference names, lower case (`docker.io` for Docker Hub under any of
 * its names, and for a reference naming none); null for a reference that starts with `/`.
 */
export function imageRegistry(image: string): string | null {
  const slash = image.indexOf("/");
  if (slash === 0) return null;
  const first = slash < 0 ? "" : image.slice(0, slash);
  // The first path part names a registry when it has a dot or a port, or is `localhost`.
  if (first === "" || !(first.includes(".") || first.includes(":") || first === "localhost")) return "docker.io";
  const host = first.toLowerCase();
  return DOCKER_HUB.has(host) ? "docker.io" : host;
}

/** Whether an image reference comes from a registry the MCP registry allows. */
export function allowedImage(image: string): boolean {
  const host = imageRegistry(image);
  if (host === null) return false;
  return OCI_HOSTS.has(host) || OCI_HOST_SUFFIXES.some((s) => host.endsWith(s) && host.length > s.length);
}

/** Name suffixes that only resolve inside a network (RFC 6761, 6762, 8375 and the clouds' own). */
const INTERNAL_SUFFIXES = [
  ".localhost",
  ".local",
  ".internal",
  ".intranet",
  ".lan",
  ".home",
  ".corp",
  ".localdomain",
  ".home.arpa",
  ".arpa",
  ".test",
  ".invalid",
  ".example",
  ".onion",
];
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Whether `url` is an https address at a public host: a name of two labels or more outside the
 * internal suffixes, or an IP address in public unicast space. The WHATWG parser first turns the
 * integer, hex and octal spellings of an address (`2130706433`, `0x7f.1`) into dotted ones.
 */
export function publicHttpsUrl(url: string): boolean {
  if (url.length > 500) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== "https:" || parsed.username !== "" || parsed.password !== "") return false;
  const host = parsed.hostname.toLowerCase();
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (ipaddr.isValid(bare)) {
    let address = ipaddr.parse(bare);
    if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress())
      address = (address as ipaddr.IPv6).toIPv4Address();
    return publicRange(address);
  }
  return publicHostName(host);
}

/** Whether `host` is a name of two labels or more outside the internal suffixes (not an address). */
export function publicHostName(host: string): boolean {
  const lower = host.toLowerCase();
  const name = lower.endsWith(".") ? lower.slice(0, -1) : lower;
  const labels = name.split(".");
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return false;
  if (/^\d+$/.test(labels[labels.length - 1]!)) return false;
  return !INTERNAL_SUFFIXES.some((s) => `.${name}`.endsWith(s));
}

/**
 * Whether a resolved address may be connected to: public unicast space only. ipaddr.js names every
 * other range (loopback, private, link-local with the cloud metadata address 169.254.169.254,
 * carrier-grade NAT, multicast, unspecified, reserved, unique-local with fd00:ec2::254, NAT64,
 * 6to4, Teredo); an IPv4-mapped IPv6 address is refused whole, never unwrapped, and so is an
 * IPv4-compatible one (publicRange).
 */
export function publicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return publicRange(ipaddr.parse(address));
}

/**
 * Public unicast space: ipaddr.js's `unicast`, and for IPv6 only the global unicast block
 * 2000::/3 that IANA allocates from. The rest of IPv6 it calls `unicast` holds the deprecated
 * IPv4-compatible addresses (`::7f00:1` is 127.0.0.1, `::a9fe:a9fe` the metadata address), which
 * some stacks still route to IPv4.
 */
function publicRange(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.range() !== "unicast") return false;
  return address.kind() === "ipv4" || ((address as ipaddr.IPv6).parts[0]! & 0xe000) === 0x2000;
}
