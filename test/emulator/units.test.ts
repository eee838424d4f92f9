// Unit tests of the pure helpers behind the DNS rules (no server).
import { describe, expect, it } from "vitest";
import { parseZoneFile } from "../../emulator/src/dns/bind";
import { normalizeRecordName, reverseZonePrefix } from "../../emulator/src/dns/names";
import { normalizeZoneName } from "../../emulator/src/model/names";
import { cidrContains, formatCidr, parseCidr, parseIPv4, parseIPv6 } from "../../emulator/src/util/ip";

describe("ip helpers", () => {
  it("parses IPv4 strictly", () => {
    expect(parseIPv4("192.0.2.1")).toBe(0xc0000201n);
    for (const bad of ["192.0.2", "192.0.2.1.5", "192.0.2.256", "01.2.3.4", "a.b.c.d", ""])
      expect(parseIPv4(bad)).toBeNull();
  });

  it("parses IPv6 including :: and embedded IPv4", () => {
    expect(parseIPv6("::")).toBe(0n);
    expect(parseIPv6("::1")).toBe(1n);
    expect(parseIPv6("2001:db8::1")).toBe((0x20010db8n << 96n) | 1n);
    expect(parseIPv6("::ffff:192.0.2.1")).toBe((0xffffn << 32n) | 0xc0000201n);
    for (const bad of ["1::2::3", "2001:db8::g", "1:2:3:4:5:6:7:8:9", "fe80::1%eth0", "1:2:3:4:5:6:7::8", ":"]) {
      expect(parseIPv6(bad), bad).toBeNull();
    }
  });

  it("handles prefixes", () => {
    const r = parseCidr("2001:DB8:0:0:1::/80");
    expect(r.ok && formatCidr(r.cidr)).toBe("2001:db8:0:0:1::/80");
    const outer = parseCidr("10.0.0.0/8");
    const inner = parseCidr("10.1.0.0/16");
    expect(outer.ok && inner.ok && cidrContains(outer.cidr, inner.cidr)).toBe(true);
    expect(outer.ok && inner.ok && cidrContains(inner.cidr, outer.cidr)).toBe(false);
    expect(parseCidr("10.0.0.1/8")).toEqual({ ok: false, reason: "host bits must be zero" });
    expect(parseCidr("10.0.0.0/33").ok).toBe(false);
  });
});

describe("names", () => {
  it("normalizes zone names", () => {
    expect(normalizeZoneName("Example.COM.")).toBe("example.com");
    expect(normalizeZoneName("xn--bcher-kva.example")).toBe("xn--bcher-kva.example");
    for (const bad of ["com", "example.123", "ex ample.com", "a_b.com", ".example.com"])
      expect(normalizeZoneName(bad)).toBeNull();
  });

  it("normalizes record names", () => {
    expect(normalizeRecordName("@")).toBe("@");
    expect(normalizeRecordName("*.A_b-1")).toBe("*.a_b-1");
    for (const bad of ["a b", "a.", "a*", "**", "a.*"]) expect(normalizeRecordName(bad)).toBeNull();
  });

  it("derives the space of reverse zones", () => {
    const v4 = reverseZonePrefix("2.0.192.in-addr.arpa");
    expect(v4 && formatCidr(v4)).toBe("192.0.2.0/24");
    const v4wide = reverseZonePrefix("10.in-addr.arpa");
    expect(v4wide && formatCidr(v4wide)).toBe("10.0.0.0/8");
    const v6 = reverseZonePrefix("8.b.d.0.1.0.0.2.ip6.arpa");
    expect(v6 && formatCidr(v6)).toBe("2001:db8::/32");
    expect(reverseZonePrefix("example.com")).toBeNull();
    expect(reverseZonePrefix("0/26.2.0.192.in-addr.arpa")).toBeNull();
  });
});

describe("zone-file parser", () => {
  const range = { min: 60, max: 86400 };

  it("understands $TTL units, class/TTL in either order and multi-string TXT", () => {
    const r = parseZoneFile(
      ["$TTL 1h", "a IN 2m A 192.0.2.1", 'b 1d IN TXT "one" "two"', "c CNAME @", "$INCLUDE other.zone"].join("\n"),
      "z.example",
      range,
    );
    expect(r.records.map((x) => [x.name, x.ttl, x.type, x.content])).toEqual([
      ["a", 120, "A", "192.0.2.1"],
      ["b", 86400, "TXT", "onetwo"],
      ["c", 3600, "CNAME", "z.example"],
    ]);
    expect(r.skipped.map((s) => s.entry)).toEqual(["$INCLUDE other.zone (directive not supported)"]);
  });

  it("follows $ORIGIN for sub-names and keeps semicolons inside quotes", () => {
    const r = parseZoneFile('$ORIGIN sub.z.example.\nwww A 192.0.2.1\ntxt TXT "a;b" ; comment', "z.example", range);
    expect(r.records.map((x) => `${x.name}=${x.content}`)).toEqual(["www.sub=192.0.2.1", "txt.sub=a;b"]);
  });

  it("keeps quoted parameters of HTTPS and CAA records whole, quoting only values that need it", () => {
    const r = parseZoneFile('@ HTTPS 1 . alpn="h2,h3" ech="a b"\n@ CAA 0 issue "letsencrypt.org"', "z.example", range);
    expect(r.records.map((x) => x.content)).toEqual(['1 . alpn=h2,h3 ech="a b"', '0 issue "letsencrypt.org"']);
  });

  it("refuses malformed lines with the line number", () => {
    expect(() => parseZoneFile("ok A 192.0.2.1\nbad A", "z.example", range)).toThrow(
      /^text: line 2: A record has no content/,
    );
    expect(() => parseZoneFile("b@d A 192.0.2.1", "z.example", range)).toThrow(/^text: line 1: name b@d/);
    expect(parseZoneFile("x NAME y", "z.example", range).skipped[0]?.entry).toBe("x NAME y (type NAME not supported)");
  });
});
