import { Message } from "vscode-jsonrpc";
import { refusal, viewerMayUse } from "./read-only";
import { rewriteClientMessage } from "./rewrite";
import { ServerRequests } from "./server-requests";
import { configurationAnswer, isConfigurationRequest, isServiceOwned } from "./service-configuration";

/** Where one message goes: on to the server, back to the browser, or nowhere (dropped). */
export type Route = { to: "server" | "browser"; message: Message } | { to: "nowhere" };

const NOWHERE: Route = { to: "nowhere" };

/**
 * Decides, for one language-server socket, where each message goes. From the browser: the
 * service's own configuration rules hold for everyone (service-configuration.ts), a viewer sends
 * only what reads (read-only.ts), a response passes only if it answers one of the server's waiting
 * requests, `initialize` is rebuilt (rewrite.ts). From the server: configuration requests are
 * answered by the service, other requests wait for the browser's answer.
 */
export class LspMessageRouter {
  private readonly serverRequests = new ServerRequests();

  constructor(
    private readonly readOnly: boolean,
    /** The server table's initialization options for this server: the only ones it gets. */
    private readonly serviceOptions?: Record<string, unknown>,
  ) {}

  fromBrowser(message: Message): Route {
    if (Message.isResponse(message)) {
      return this.serverRequests.answered(message.id) ? { to: "server", message } : NOWHERE;
    }
    const request = Message.isRequest(message);
    if (!request && !Message.isNotification(message)) return NOWHERE;
    const { method } = message;
    let why: string | undefined;
    if (isServiceOwned(method)) why = `${method} comes from the service, not from an editor`;
    else if (this.readOnly && !viewerMayUse(method)) why = `read-only: a viewer cannot use ${method}`;
    if (why === undefined)
      return { to: "server", message: rewriteClientMessage(message, this.serviceOptions) };
    return request ? { to: "browser", message: refusal(message, why) } : NOWHERE;
  }

  fromServer(message: Message): Route {
    if (Message.isRequest(message)) {
      if (isConfigurationRequest(message)) return { to: "server", message: configurationAnswer(message) };
      this.serverRequests.sentToBrowser(message.id);
    }
    return { to: "browser", message };
  }
}
