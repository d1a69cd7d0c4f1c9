import { describe, expect, it } from "vitest";
import { forbiddenAddressReason, ipv6Groups } from "./addresses.ts";

describe("forbiddenAddressReason", () => {
  it("lets public unicast through, in IPv4 and IPv6, and IPv6 forms carrying a public IPv4", () => {
    for (const address of ["8.8.8.8", "1.1.1.1", "2a00:1450:4003:80f::200e", "::ffff:8.8.8.8", "64:ff9b::808:808"]) {
      expect(forbiddenAddressReason(address), address).toBeNull();
    }
    expect(forbiddenAddressReason("2002:808:808::1")).toBeNull();
  });

  it("names the range of what it refuses", () => {
    expect(forbiddenAddressReason("127.0.0.1")).toBe("loopback");
    expect(forbiddenAddressReason("198.19.255.255")).toBe("benchmarking");
    expect(forbiddenAddressReason("100.127.0.1")).toBe("shared address space (CGNAT)");
    expect(forbiddenAddressReason("::ffff:7f00:1")).toBe("IPv4-mapped form of a loopback address");
    expect(forbiddenAddressReason("64:ff9b::a9fe:a9fe")).toBe("NAT64 form of a link-local (cloud metadata) address");
    expect(forbiddenAddressReason("2002:c0a8:101::1")).toBe("6to4 form of a private address");
    expect(forbiddenAddressReason("2001::1")).toBe("IETF protocol assignments (Teredo, benchmarking, ORCHID)");
    expect(forbiddenAddressReason("fe80::1%eth0")).toBe("link-local");
    expect(forbiddenAddressReason("FD12::1")).toBe("unique-local");
    expect(forbiddenAddressReason("::")).toBe("unspecified");
    expect(forbiddenAddressReason("::1")).toBe("loopback");
    expect(forbiddenAddressReason("::7f00:1")).toBe("IPv4-compatible (deprecated)");
    expect(forbiddenAddressReason("example.com")).toBe("not an IP address");
  });

  it("reads every IPv6 spelling to the same groups", () => {
    const loopbackMapped = [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1];
    for (const spelling of ["::ffff:127.0.0.1", "::FFFF:7F00:1", "0:0:0:0:0:ffff:7f00:0001", "::ffff:7f00:1"]) {
      expect(ipv6Groups(spelling), spelling).toEqual(loopbackMapped);
    }
    expect(ipv6Groups("1::2::3")).toBeNull();
  });
});
