import { DEFAULT_LSP_SERVERS } from "@coder/protocol";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import { connectLsp } from "../src/lsp/testing/lsp-client";
import { startLocalProxy } from "../src/lsp/testing/proxy-server";
import { instanceDriver, startTestService, waitForStatus } from "../src/testing/harness";

const SOURCE =
  'def greet(name: str, times: int = 1) -> str:\n    """Say hello."""\n    return name * times\n\ngreet("a")\n';
const URI = "file:///workspace/greet.py";
const HOVER = { textDocument: { uri: URI }, position: { line: 4, character: 2 } };
const INITIALIZE = { processId: null, rootUri: "file:///workspace", capabilities: {} };
const OPEN = { textDocument: { uri: URI, languageId: "python", version: 1, text: SOURCE } };
const WARMUP = 20;
const ROUNDS = 200;

const now = () => performance.now();

/**
 * The editor's hover through the LSP WebSocket proxy against the same request sent straight to a
 * pylsp started by `docker exec` on the bench's own stdio: two servers in one container, asked in
 * turns so machine noise hits both alike. The difference of the medians is the proxy's cost.
 */
export async function run(): Promise<BenchResult[]> {
  const t = await startTestService();
  try {
    const { id } = await t.api.workspace.create.mutate({ name: "lsp-bench" });
    await waitForStatus(t.api, id, "running");
    await t.api.files.write.mutate({ workspaceId: id, path: "greet.py", content: SOURCE });
    const driver = instanceDriver(t.instance);
    const proxy = await startLocalProxy(driver, id, DEFAULT_LSP_SERVERS);
    const viaProxy = await connectLsp(`${proxy.url}/python`);
    const proc = await driver.exec(id, ["pylsp"]);
    const direct = createMessageConnection(
      new StreamMessageReader(proc.stdout),
      new StreamMessageWriter(proc.stdin),
    );
    direct.listen();
    try {
      await viaProxy.request("initialize", INITIALIZE);
      viaProxy.notify("initialized", {});
      viaProxy.notify("textDocument/didOpen", OPEN);
      await direct.sendRequest("initialize", INITIALIZE);
      await direct.sendNotification("initialized", {});
      await direct.sendNotification("textDocument/didOpen", OPEN);

      const proxied: number[] = [];
      const straight: number[] = [];
      for (let i = 0; i < WARMUP + ROUNDS; i++) {
        let start = now();
        const answer = await viaProxy.request("textDocument/hover", HOVER);
        const proxyMs = now() - start;
        start = now();
        await direct.sendRequest("textDocument/hover", HOVER);
        const directMs = now() - start;
        if (i === 0 && !JSON.stringify(answer.result).includes("greet(")) {
          throw new Error(`pylsp answered the hover without the signature: ${JSON.stringify(answer)}`);
        }
        if (i < WARMUP) continue;
        proxied.push(proxyMs);
        straight.push(directMs);
      }
      const p50Proxy = percentile(proxied, 50);
      const p50Direct = percentile(straight, 50);
      const overhead = round(p50Proxy - p50Direct, 3);
      return [
        {
          name: "LSP hover round trip through the WebSocket proxy p50",
          value: round(p50Proxy, 3),
          unit: "ms",
        },
        { name: "LSP hover round trip over a direct stdio exec p50", value: round(p50Direct, 3), unit: "ms" },
        {
          name: "LSP proxy overhead (difference of the p50s)",
          value: overhead,
          unit: "ms",
          target: "≤ 2 ms",
          pass: overhead <= 2,
          notes: `${ROUNDS} hovers each, interleaved, after ${WARMUP} warm-up rounds`,
        },
      ];
    } finally {
      viaProxy.ws.close();
      direct.dispose();
      proc.close();
      await proxy.close();
    }
  } finally {
    await t.close();
  }
}
