import { describe, expect, it } from "vitest";
import { aptMirror } from "./base-image.mjs";

describe("aptMirror", () => {
  it("takes the bookworm mirror from a deb822 .sources file", () => {
    const sources = [
      "Types: deb",
      "# http://snapshot.debian.org/archive/debian/20250520T000000Z",
      "URIs: http://mirror.example/debian/",
      "Suites: bookworm bookworm-updates",
      "Components: main",
      "",
      "Types: deb",
      "URIs: http://mirror.example/debian-security",
      "Suites: bookworm-security",
    ].join("\n");
    expect(aptMirror([sources])).toBe("http://mirror.example/debian");
  });

  it("takes the bookworm mirror from a one-line sources.list", () => {
    const list = [
      "# deb http://commented.example/debian bookworm main",
      "deb http://security.example/debian-security bookworm-security main",
      "deb [arch=amd64 signed-by=/k.gpg] https://mirror.example/debian bookworm main contrib",
    ].join("\n");
    expect(aptMirror([list])).toBe("https://mirror.example/debian");
  });

  it("skips other distributions, disabled entries and non-HTTP sources", () => {
    const others = [
      "Types: deb\nURIs: https://deb.nodesource.com/node_20.x\nSuites: nodistro\n",
      "Types: deb\nURIs: http://disabled.example/debian\nSuites: bookworm\nEnabled: no\n",
      "deb cdrom:[Debian GNU/Linux 12]/ bookworm main\n",
    ];
    expect(aptMirror(others)).toBe("http://deb.debian.org/debian");
  });

  it("falls back to Debian's default mirror when there are no sources", () => {
    expect(aptMirror([])).toBe("http://deb.debian.org/debian");
  });
});
