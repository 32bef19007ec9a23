/**
 * Who the client is, for the rate limiter and the request log. Behind `hops` trusted proxies the
 * client is the address the outermost of them appended to X-Forwarded-For, counted from the right:
 * everything to its left was written by the client and proves nothing. Addresses are made
 * canonical (one spelling per address) and IPv6 clients are keyed by their /64, the block one
 * subscriber usually holds, so neither a respelling nor the next address escapes the limit.
 */
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** A dotted IPv4 address as proxies write it (no leading zeros) as its 32-bit number, else null. */
export function ipv4Number(text: string): number | null {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 /* . */) {
      if (digits === 0 || ++dots > 3) return null;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57 && !(digits === 1 && octet === 0)) {
      octet = octet * 10 + c - 48;
      if (octet > 255) return null;
      digits++;
    } else {
      return null;
    }
  }
  return dots === 3 && digits > 0 ? value * 256 + octet : null;
}

/** The address in its one canonical spelling (IPv4-mapped IPv6 as IPv4, IPv6 compressed), or null. */
export function canonicalAddress(text: string): string | null {
  const trimmed = text.trim();
  // A dotted IPv4 address is already canonical: ipv4Number takes exactly those isIP calls version 4.
  if (ipv4Number(trimmed) !== null) return trimmed;
  // Bare addresses only, as a proxy writes them: no port, brackets, zone or shorthand IPv4 such as 127.1.
  if (isIP(trimmed) !== 6 || trimmed.includes("%")) return null;
  return ipaddr.process(trimmed).toString();
}

/**
 * The client address: the socket's without trusted proxies; with `hops` of them, the X-Forwarded-For
 * entry `hops` places from the right (or the left-most when fewer were appended), if it is an
 * address; else the socket's. The socket address may be a function, asked only when it is the answer.
 */
export function clientAddress(
  forwardedFor: string | null,
  socketIp: string | null | (() => string | null),
  hops: number,
): string {
  const appended = forwardedAddress(forwardedFor, hops);
  if (appended !== null) return appended;
  const socket = typeof socketIp === "function" ? socketIp() : socketIp;
  return (socket === null ? null : canonicalAddress(socket)) ?? socket ?? "unknown";
}

/**
 * The X-Forwarded-For entry `hops` places from the right (the left-most when fewer were appended)
 * in its canonical spelling; null when no proxy is trusted or the entry is no address.
 */
export function forwardedAddress(forwardedFor: string | null, hops: number): string | null {
  if (hops <= 0 || !forwardedFor) return null;
  let end = forwardedFor.length;
  let start = forwardedFor.lastIndexOf(",") + 1;
  for (let hop = 1; hop < hops && start > 0; hop++) {
    end = start - 1;
    start = end === 0 ? 0 : forwardedFor.lastIndexOf(",", end - 1) + 1;
  }
  return canonicalAddress(forwardedFor.slice(start, end));
}

/** The rate limiter's key of a canonical address: an IPv4 address itself, an IPv6 address's /64. */
export function clientKey(address: string): string {
  if (!address.includes(":") || !ipaddr.IPv6.isValid(address)) return address;
  const parts = ipaddr.IPv6.parse(address).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
