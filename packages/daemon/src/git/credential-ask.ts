import { daemonRequests } from "@coder/protocol";
import type { MessageConnection } from "vscode-jsonrpc/node";
import type { AskCredential } from "./credential-channel";

/** Asks the service over the daemon's own connection (`credential.get`); the answer is checked. */
export function askThroughConnection(connection: MessageConnection): AskCredential {
  const contract = daemonRequests["credential.get"];
  return async (request) => contract.result.parse(await connection.sendRequest("credential.get", request));
}
