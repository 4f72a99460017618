import { describe, expect, it } from "vitest";
import { languageLabel, serverForFile } from "./server-for-file";

describe("serverForFile", () => {
  it("finds the Python and bash servers by extension", () => {
    expect(serverForFile("src/app.py")).toEqual({
      language: "python",
      languageId: "python",
      install: "pip install python-lsp-server",
    });
    expect(serverForFile("scripts/run.SH")).toMatchObject({ language: "bash", languageId: "shellscript" });
  });

  it("finds the TypeScript server for TypeScript and JavaScript files, with each file's dialect", () => {
    expect(serverForFile("src/main.ts")).toMatchObject({ language: "typescript", languageId: "typescript" });
    expect(serverForFile("src/App.tsx")).toMatchObject({
      language: "typescript",
      languageId: "typescriptreact",
    });
    expect(serverForFile("index.mjs")).toMatchObject({ language: "typescript", languageId: "javascript" });
    expect(serverForFile("src/App.jsx")).toMatchObject({
      language: "typescript",
      languageId: "javascriptreact",
    });
  });

  it("leaves files without a server alone", () => {
    expect(serverForFile("README.md")).toBeNull();
    expect(serverForFile("Makefile")).toBeNull();
  });

  it("uses a configured server table", () => {
    const servers = [{ language: "rust", command: ["rust-analyzer"], extensions: ["rs"], install: "rustup" }];
    expect(serverForFile("lib.rs", servers)).toEqual({
      language: "rust",
      languageId: "rust",
      install: "rustup",
    });
    expect(serverForFile("a.py", servers)).toBeNull();
  });
});

describe("languageLabel", () => {
  it("capitalises the language for messages", () => {
    expect(languageLabel("python")).toBe("Python");
    expect(languageLabel("typescript")).toBe("TypeScript");
  });
});
