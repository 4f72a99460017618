// Test support: an HTTPS proxy on this machine that answers every host git names through it with
// "401, log in", and records which host got which Authorization header. A repository's own
// configuration can send git there (`http.proxy`, `http.sslVerify=false`: the repository's
// author chooses both), so it stands for any server a hostile remote URL names.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { hostAddress } from "../../imports/testing/git-server";

export interface LoginTrap {
  /** `http://<host address>:<port>`: the value for git's `http.proxy`. */
  proxyUrl: string;
  /** The CODER_EGRESS_ALLOW entry that opens the proxy to workspaces. */
  allow: string;
  /** Each request: the host git asked for (through CONNECT) and the Authorization it sent, if any. */
  requests: { host: string; authorization?: string }[];
  close(): Promise<void>;
}

function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "coder-trap-"));
  try {
    const key = path.join(dir, "key.pem");
    const cert = path.join(dir, "cert.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=trap.test",
        "-keyout",
        key,
        "-out",
        cert,
      ],
      { stdio: "ignore" },
    );
    return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startLoginTrap(): Promise<LoginTrap> {
  const requests: LoginTrap["requests"] = [];
  // The host each tunnel was opened for, by the client's end of the connection.
  const tunnelled = new Map<string, string>();
  const peer = (socket: Socket) => `${socket.remoteAddress}:${socket.remotePort}`;
  const inside = https.createServer(selfSignedCertificate(), (req, res) => {
    const host = tunnelled.get(peer(req.socket)) ?? "?";
    const authorization = req.headers.authorization;
    requests.push(authorization ? { host, authorization } : { host });
    res.writeHead(401, { "www-authenticate": 'Basic realm="trap"' }).end();
  });
  const proxy = http.createServer((_req, res) => res.writeHead(405).end());
  const sockets = new Set<Socket>();
  proxy.on("connect", (req: http.IncomingMessage, socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    tunnelled.set(peer(socket), req.url ?? "?");
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n", () => inside.emit("connection", socket));
  });
  const address = hostAddress();
  await new Promise<void>((resolve) => proxy.listen(0, address, resolve));
  const port = (proxy.address() as { port: number }).port;
  return {
    proxyUrl: `http://${address}:${port}`,
    allow: `${address}/32:${port}`,
    requests,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
      inside.close();
    },
  };
}
