// A language server in a workspace floods the service through the LSP bridge: the service must
// stay small and close that one editor socket with a code; other workspaces do not notice.
import { LspCloseCode, type LspServerConfig } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectLsp } from "../../apps/sandbox/src/lsp/testing/lsp-client";
import {
  execIn,
  startTestService,
  type TestService,
  waitForStatus,
} from "../../apps/sandbox/src/testing/harness";
import { keepCalling } from "../support/keep-calling";
import { rssGrowthDuring } from "../support/memory";

const GB = 1024 * 1024 * 1024;
const MAX_GROWTH_MB = 64;

/** "Language servers" that answer nothing and flood their stdout with 1 GB instead. */
const FLOODERS: LspServerConfig[] = [
  {
    language: "hugeframe",
    command: ["sh", "-c", `printf 'Content-Length: 99999999999\\r\\n\\r\\n'; exec head -c ${GB} /dev/zero`],
    extensions: ["hugeframe"],
    install: "none",
  },
  {
    language: "noheader",
    command: ["sh", "-c", `exec head -c ${GB} /dev/zero`],
    extensions: ["noheader"],
    install: "none",
  },
];

describe("a language server flooding the LSP bridge", () => {
  let t: TestService;
  let a: string;
  let b: string;
  const log: string[] = [];

  beforeAll(async () => {
    t = await startTestService({}, { CODER_LSP_SERVERS: JSON.stringify(FLOODERS) }, (line) => log.push(line));
    a = (await t.api.workspace.create.mutate({ name: "attacker" })).id;
    b = (await t.api.workspace.create.mutate({ name: "bystander" })).id;
    await Promise.all([waitForStatus(t.api, a, "running"), waitForStatus(t.api, b, "running")]);
  });
  afterAll(async () => {
    await t?.close();
  });

  for (const [language, code, why] of [
    ["hugeframe", LspCloseCode.TooBig, "a message announced 99999999999 bytes, more than 4 MB"],
    ["noheader", LspCloseCode.ServerError, "a message header ran past 8 KB without ending"],
  ] as const) {
    it(`closes the socket with ${code} when the server floods 1 GB (${language})`, async () => {
      const url = `${t.url.replace("http", "ws")}/lsp/${a}/${language}`;
      const client = await connectLsp(url, { cookie: t.cookie, origin: t.url });
      const stopFlood = () => {
        execIn(t.instance, a, ["sh", "-c", "pkill -f '[h]ead -c'"]).catch(() => undefined);
      };
      const flood = rssGrowthDuring(() => client.closed, { abortAboveMb: 512, onRunaway: stopFlood });
      const bCalls = await keepCalling(() => t.api.files.tree.query({ workspaceId: b }), flood);
      const { outcome, growthMb } = await flood;
      console.log(`service RSS growth during the ${language} LSP flood: ${growthMb} MB`);

      expect(outcome).toMatchObject({
        status: "fulfilled",
        value: { code, reason: expect.stringContaining("the language server broke the protocol") },
      });
      expect(growthMb).toBeLessThanOrEqual(MAX_GROWTH_MB);
      expect(bCalls.filter((c) => c.status === "rejected")).toEqual([]);
      expect(log.filter((line) => line.startsWith(`lsp ${a}/${language}:`))).toEqual([
        `lsp ${a}/${language}: the language server broke the protocol: ${why}; ending it`,
      ]);
    });
  }
});
