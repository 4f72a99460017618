import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { egressAllowSchema } from "./egress-allow-list";

describe("CODER_EGRESS_ALLOW", () => {
  it("reads CIDRs, bare addresses (as /32) and optional ports, ignoring blanks and spaces", () => {
    expect(egressAllowSchema.parse(" 10.1.0.0/16, 192.168.1.5:443 ,,172.16.0.9/32:22 ")).toEqual([
      { cidr: "10.1.0.0/16" },
      { cidr: "192.168.1.5/32", port: 443 },
      { cidr: "172.16.0.9/32", port: 22 },
    ]);
    expect(egressAllowSchema.parse("")).toEqual([]);
  });

  it.each([
    ["mirror.local", /not an IPv4 address or CIDR/],
    ["fd00::1", /not an IPv4 address or CIDR/],
    ["10.0.0.300", /not an IPv4 address or CIDR/],
    ["10.0.0.0/33", /prefix length over 32/],
    ["10.0.0.1:0", /port outside 1-65535/],
    ["10.0.0.1:70000", /port outside 1-65535/],
    ["10.0.0.1:22:23", /not an IPv4 address or CIDR/],
  ])("refuses %s with a message that says why", (entry, message) => {
    const result = egressAllowSchema.safeParse(`10.0.0.0/8,${entry}`);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message).join("\n")).toMatch(message);
  });

  it("stops the service at start with the variable and the faulty entry named", () => {
    expect(() => loadConfig({ CODER_IMAGE: "img", CODER_EGRESS_ALLOW: "10.0.0.0/8, gitserver:22" })).toThrow(
      /CODER_EGRESS_ALLOW[^\n]*"gitserver:22" is not an IPv4 address or CIDR/,
    );
    expect(loadConfig({ CODER_IMAGE: "img" }).egressAllow).toEqual([]);
  });
});
