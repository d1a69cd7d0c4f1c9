/**
 * Which IP addresses an outbound request may reach: public unicast only. Every special-purpose
 * range of the IANA registries (IPv4 and IPv6) is refused, and IPv6 forms that carry an IPv4
 * address (mapped, NAT64, 6to4) are judged by the IPv4 address they carry.
 */
import { BlockList, isIPv4, isIPv6 } from "node:net";

/** The refused IPv4 ranges, named (the table the tests and docs/security.md follow). */
export const forbiddenIpv4: readonly (readonly [network: string, prefix: number, name: string])[] = [
  ["0.0.0.0", 8, "this network / unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared address space (CGNAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local (cloud metadata)"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "IETF protocol assignments"],
  ["192.0.2.0", 24, "documentation (TEST-NET-1)"],
  ["192.31.196.0", 24, "AS112"],
  ["192.52.193.0", 24, "AMT"],
  ["192.88.99.0", 24, "6to4 relay anycast"],
  ["192.168.0.0", 16, "private"],
  ["192.175.48.0", 24, "AS112 direct delegation"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation (TEST-NET-2)"],
  ["203.0.113.0", 24, "documentation (TEST-NET-3)"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved and broadcast"],
];

/**
 * The refused IPv6 ranges inside global unicast (2000::/3); everything outside 2000::/3 is
 * refused as well (unspecified, loopback, IPv4-compatible and -translated, discard-only,
 * unique-local fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8, …),
 * except the forms that carry an IPv4 address, judged by that address.
 */
export const forbiddenIpv6: readonly (readonly [network: string, prefix: number, name: string])[] = [
  ["2001::", 23, "IETF protocol assignments (Teredo, benchmarking, ORCHID)"],
  ["2001:db8::", 32, "documentation"],
  ["3fff::", 20, "documentation"],
];

const v4List = new BlockList();
for (const [network, prefix] of forbiddenIpv4) v4List.addSubnet(network, prefix, "ipv4");
const v6List = new BlockList();
for (const [network, prefix] of forbiddenIpv6) v6List.addSubnet(network, prefix, "ipv6");

/** The eight 16-bit groups of an IPv6 address (a zone id is dropped), or null when it is not one. */
export function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  if (!isIPv6(text)) return null;
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split(".").map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  const head = halves[0] ? halves[0].split(":") : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const fill = halves.length === 2 ? 8 - head.length - rest.length : 0;
  const groups = [...head, ...Array<string>(fill).fill("0"), ...rest].map((group) => Number.parseInt(group, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

const v4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * null when `address` (an IP literal, no brackets) is public unicast; otherwise the reason it is
 * refused. Anything that is not an IP address is refused too.
 */
export function forbiddenAddressReason(address: string): string | null {
  if (isIPv4(address)) {
    if (!v4List.check(address, "ipv4")) return null;
    const [, , name] = forbiddenIpv4.find(([network, prefix]) => inV4(address, network, prefix)) ?? [];
    return name ?? "special-purpose IPv4";
  }
  const g = ipv6Groups(address);
  if (!g) return "not an IP address";
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  // ::ffff:a.b.c.d (IPv4-mapped): the socket reaches a.b.c.d.
  if (zeroTo(5) && g5 === 0xffff) return embedded("IPv4-mapped", v4Of(g6, g7));
  // 64:ff9b::a.b.c.d (NAT64, RFC 6052): the translator reaches a.b.c.d.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return embedded("NAT64", v4Of(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return "local-use NAT64 (64:ff9b:1::/48)";
  // 2002:aabb:ccdd::/48 (6to4): tunnels to aa.bb.cc.dd.
  if (g0 === 0x2002) return embedded("6to4", v4Of(g1, g2));
  if (zeroTo(7) && g7 <= 1) return g7 === 0 ? "unspecified" : "loopback";
  if (zeroTo(6)) return "IPv4-compatible (deprecated)";
  if ((g0 & 0xe000) !== 0x2000) {
    if ((g0 & 0xfe00) === 0xfc00) return "unique-local";
    if ((g0 & 0xffc0) === 0xfe80) return "link-local";
    if ((g0 & 0xffc0) === 0xfec0) return "site-local";
    if ((g0 & 0xff00) === 0xff00) return "multicast";
    return "not global unicast";
  }
  const canonical = g.map((x) => x.toString(16)).join(":");
  if (!v6List.check(canonical, "ipv6")) return null;
  return forbiddenIpv6.find(([network, prefix]) => inV6(g, network, prefix))?.[2] ?? "special-purpose IPv6";
}

export function isForbiddenAddress(address: string): boolean {
  return forbiddenAddressReason(address) !== null;
}

function embedded(form: string, v4: string): string | null {
  const reason = forbiddenAddressReason(v4);
  return reason ? `${form} form of a ${reason} address` : null;
}

function v4Number(address: string): number {
  return address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function inV4(address: string, network: string, prefix: number): boolean {
  const size = 2 ** (32 - prefix);
  return Math.floor(v4Number(address) / size) === Math.floor(v4Number(network) / size);
}

function inV6(groups: number[], network: string, prefix: number): boolean {
  const net = ipv6Groups(network) ?? [];
  for (let bit = 0; bit < prefix; bit += 16) {
    const width = Math.min(16, prefix - bit);
    const mask = (0xffff << (16 - width)) & 0xffff;
    const i = bit / 16;
    if (((groups[i] ?? 0) & mask) !== ((net[i] ?? 0) & mask)) return false;
  }
  return true;
}
