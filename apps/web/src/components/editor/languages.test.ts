import { describe, expect, it } from "vitest";
import { type LanguageId, languageFor, loadLanguageFor } from "./languages";

describe("languageFor", () => {
  it("picks the grammar from the extension", () => {
    const cases: [string, LanguageId][] = [
      ["src/index.ts", "typescript"],
      ["src/App.tsx", "tsx"],
      ["lib/util.mjs", "javascript"],
      ["ui/Button.jsx", "jsx"],
      ["main.py", "python"],
      ["package.json", "json"],
      ["README.md", "markdown"],
      ["index.html", "html"],
      ["style.css", "css"],
      [".github/workflows/ci.yml", "yaml"],
      ["scripts/run.sh", "shell"],
      ["Cargo.toml", "toml"],
      ["main.go", "go"],
      ["lib.rs", "rust"],
    ];
    for (const [path, id] of cases) expect(languageFor(path), path).toBe(id);
  });

  it("ignores the case of the extension", () => {
    expect(languageFor("NOTES.MD")).toBe("markdown");
  });

  it("knows files by their whole name", () => {
    expect(languageFor("Dockerfile")).toBe("dockerfile");
    expect(languageFor("images/Dockerfile.dev")).toBe("dockerfile");
    expect(languageFor("home/.bashrc")).toBe("shell");
    expect(languageFor(".env")).toBe("properties");
    expect(languageFor("CMakeLists.txt")).toBe("cmake");
  });

  it("leaves unknown files, files without an extension and dotfiles as plain text", () => {
    expect(languageFor("notes.txt")).toBeNull();
    expect(languageFor("LICENSE")).toBeNull();
    expect(languageFor(".gitignore")).toBeNull();
  });
});

describe("loadLanguageFor", () => {
  it("loads a highlighting extension for every kind of file it knows", async () => {
    const samples = [
      "a.ts",
      "a.py",
      "a.json",
      "a.md",
      "a.html",
      "a.css",
      "a.yaml",
      "a.sh",
      "a.toml",
      "a.c",
      "a.sql",
    ];
    for (const path of samples) {
      const extension = await loadLanguageFor(path);
      expect(extension, path).not.toEqual([]);
    }
  });

  it("loads nothing for plain text", async () => {
    expect(await loadLanguageFor("notes.txt")).toEqual([]);
  });
});
