// Test and bench support: serveLsp behind a bare local WebSocket server (`ws://…/<language>`),
// without the service's authentication in front.
import type { AddressInfo } from "node:net";
import type { LspServerConfig } from "@coder/protocol";
import { WebSocketServer } from "ws";
import type { WorkspaceDriver } from "../../driver/workspace-driver";
import { serveLsp } from "../lsp-socket";

export interface LocalProxy {
  url: string;
  close(): Promise<void>;
}

export async function startLocalProxy(
  driver: WorkspaceDriver,
  workspaceId: string,
  servers: readonly LspServerConfig[],
): Promise<LocalProxy> {
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  wss.on("connection", (ws, req) => {
    void serveLsp(ws, driver, workspaceId, (req.url ?? "").slice(1), () => {}, servers);
  });
  await new Promise((resolve) => wss.once("listening", resolve));
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
}
