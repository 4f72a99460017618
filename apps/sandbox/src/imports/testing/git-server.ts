// Test support: a real git server on this machine (git http-backend behind a small HTTP server),
// listening on one of the host's own addresses so that egress workspaces and clone jobs reach it
// once CODER_EGRESS_ALLOW opens that address and port. No test traffic leaves the machine.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { Transform } from "node:stream";

export interface GitServer {
  /** `http://<host address>:<port>`; repositories under it: /public.git, /private.git, ... */
  url: string;
  /** The CODER_EGRESS_ALLOW entry that opens the server (and the silent port) to workspaces. */
  allow: string;
  /** A URL on the same address whose server accepts connections and never answers. */
  silentUrl: string;
  /** The password /private.git wants (any user name); with it, pushes to /private.git are taken. */
  token: string;
  /** The folder of the bare repositories. */
  root: string;
  close(): Promise<void>;
}

/** git on this machine, as the people of an upstream repository run it (no system or user config). */
export function hostGit(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "Test",
      GIT_AUTHOR_EMAIL: "test@example.invalid",
      GIT_COMMITTER_NAME: "Test",
      GIT_COMMITTER_EMAIL: "test@example.invalid",
    },
  }).toString();
}

/** An address of this machine that is not loopback (the egress network cannot reach loopback at all). */
export function hostAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
  if (!address) throw new Error("this machine has no non-loopback IPv4 address for the test git server");
  return address;
}

/**
 * Makes a repository with files on `main`, a branch `feature` with one more file and a tag `v1`
 * on the first commit; `files` adds more to main's second commit.
 */
export function makeRepository(
  root: string,
  name: string,
  files: Record<string, string | Buffer> = {},
): void {
  const work = mkdtempSync(path.join(tmpdir(), "coder-repo-"));
  try {
    hostGit(work, "init", "--quiet", "--initial-branch=main");
    writeFileSync(path.join(work, "README.md"), "first\n");
    hostGit(work, "add", "-A");
    hostGit(work, "commit", "--quiet", "-m", "first");
    hostGit(work, "tag", "v1");
    writeFileSync(path.join(work, "README.md"), "second\n");
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
      writeFileSync(path.join(work, file), content);
    }
    hostGit(work, "add", "-A");
    hostGit(work, "commit", "--quiet", "-m", "second");
    hostGit(work, "checkout", "--quiet", "-b", "feature");
    writeFileSync(path.join(work, "feature.txt"), "on the branch\n");
    hostGit(work, "add", "-A");
    hostGit(work, "commit", "--quiet", "-m", "feature");
    hostGit(work, "checkout", "--quiet", "main");
    hostGit(root, "clone", "--quiet", "--bare", work, `${name}.git`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Passes bytes on at about 512 KB/s, so a clone lasts long enough to watch its progress. */
function throttled(): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      setTimeout(() => done(null, chunk), Math.ceil(chunk.length / 512));
    },
  });
}

/**
 * Answers one request by running git http-backend as a CGI program; `slow` throttles the answer and
 * what is sent (a push's pack). `remoteUser`, the login the request proved, lets it push
 * (http-backend enables receive-pack for an authenticated user).
 */
function serveGit(
  root: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  slow: boolean,
  remoteUser?: string,
): void {
  const url = new URL(req.url ?? "/", "http://x");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: "1",
    REQUEST_METHOD: req.method ?? "GET",
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    CONTENT_TYPE: req.headers["content-type"] ?? "",
    ...(req.headers["content-encoding"] ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] } : {}),
    ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: String(req.headers["git-protocol"]) } : {}),
    REMOTE_ADDR: req.socket.remoteAddress ?? "",
    ...(remoteUser ? { REMOTE_USER: remoteUser } : {}),
  };
  const backend = spawn("git", ["http-backend"], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "ignore"],
  });
  (slow ? req.pipe(throttled()) : req).pipe(backend.stdin);
  const output = slow ? backend.stdout.pipe(throttled()) : backend.stdout;
  let head = Buffer.alloc(0);
  let headersDone = false;
  output.on("data", (chunk: Buffer) => {
    if (headersDone) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end < 0) return;
    headersDone = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString().split("\r\n")) {
      const colon = line.indexOf(":");
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
      else res.setHeader(name, value);
    }
    res.writeHead(status);
    res.write(head.subarray(end + 4));
  });
  output.on("end", () => res.end());
  backend.on("error", () => res.destroy());
}

/**
 * Starts the server with `public` and `private` repositories (see makeRepository) plus any made
 * by `setup(root)`. /private.git wants the token as the password of a Basic login; /redirect/<x>
 * answers 302 to /<x>; /slow/<x> serves /<x> at about 512 KB/s.
 */
export async function startGitServer(setup: (root: string) => void = () => undefined): Promise<GitServer> {
  const root = mkdtempSync(path.join(tmpdir(), "coder-git-server-"));
  makeRepository(root, "public");
  // Big enough that a slow clone of it lasts a few seconds.
  makeRepository(root, "private", { "secret.txt": "private content\n", "noise.bin": randomBytes(1 << 20) });
  setup(root);
  const token = `tok-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const address = hostAddress();
  const server = http.createServer((req, res) => {
    const slow = (req.url ?? "").startsWith("/slow/");
    if (slow) req.url = (req.url ?? "/").slice("/slow".length);
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname.startsWith("/redirect/")) {
      res.writeHead(302, { location: url.pathname.slice("/redirect".length) + url.search }).end();
      return;
    }
    if (url.pathname.startsWith("/private.git")) {
      const [, encoded = ""] = (req.headers.authorization ?? "").split(" ");
      const password = Buffer.from(encoded, "base64").toString().split(":").slice(1).join(":");
      if (password !== token) {
        res.writeHead(401, { "www-authenticate": 'Basic realm="private"' }).end();
        return;
      }
      serveGit(root, req, res, slow, "token-holder");
      return;
    }
    serveGit(root, req, res, slow);
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const port = (server.address() as { port: number }).port;
  // Accepts and then says nothing: a server that does not answer.
  const held: Socket[] = [];
  const silent: Server = createServer((socket) => {
    held.push(socket);
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => silent.listen(0, address, resolve));
  const silentPort = (silent.address() as { port: number }).port;
  return {
    url: `http://${address}:${port}`,
    allow: `${address}/32:${port},${address}/32:${silentPort}`,
    silentUrl: `http://${address}:${silentPort}/public.git`,
    token,
    root,
    async close() {
      for (const socket of held) socket.destroy();
      server.closeAllConnections();
      await Promise.all([
        new Promise((resolve) => server.close(resolve)),
        new Promise((resolve) => silent.close(resolve)),
      ]);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
