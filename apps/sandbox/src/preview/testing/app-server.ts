/**
 * A web app for the preview tests, run in a workspace with `node -e APP_SERVER <port>` (the image's
 * own node, no packages): `/` says hello, `/headers` echoes the request's headers as JSON,
 * `/drop` closes the connection without answering, `/twice` answers twice (the second for whoever asks next), `/big?mb=N` streams N MB (writing only as fast as it is read; `/progress` says how much it wrote
 * so far), `/chunked` answers in three chunks, `/echo` streams the request's body back, and a
 * WebSocket upgrade echoes each text frame.
 */
export const APP_SERVER = String.raw`
const http = require("http");
const crypto = require("crypto");
let written = 0;
const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://app");
  if (url.pathname === "/headers") {
    res.setHeader("content-type", "application/json");
    return res.end(JSON.stringify(req.headers));
  }
  if (url.pathname === "/progress") return res.end(String(written));
  if (url.pathname === "/drop") return req.socket.destroy();
  if (url.pathname === "/twice") {
    return req.socket.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst" +
      "HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\nsmuggled");
  }
  if (url.pathname === "/echo") return req.pipe(res);
  if (url.pathname === "/chunked") {
    res.write("one,");
    setImmediate(() => { res.write("two,"); setImmediate(() => res.end("three")); });
    return;
  }
  if (url.pathname === "/big") {
    const total = Number(url.searchParams.get("mb")) * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 120);
    written = 0;
    res.setHeader("content-length", String(total));
    const pump = () => {
      while (written < total) {
        written += chunk.length;
        if (!res.write(chunk)) return res.once("drain", pump);
      }
      res.end();
    };
    return pump();
  }
  res.setHeader("content-type", "text/html");
  res.setHeader("set-cookie", ["app=1; Domain=localhost; Path=/", "coder_preview=stolen; Path=/"]);
  res.end("<title>app</title>hello from the app");
});
server.on("upgrade", (req, socket) => {
  const accept = crypto.createHash("sha1")
    .update(req.headers["sec-websocket-key"] + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest("base64");
  socket.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
    "Sec-WebSocket-Accept: " + accept + "\r\n\r\n");
  let buf = Buffer.alloc(0);
  socket.on("data", (data) => {
    buf = Buffer.concat([buf, data]);
    while (buf.length >= 6) {
      const op = buf[0] & 15;
      const len = buf[1] & 127;
      if (len > 125 || buf.length < 6 + len) return;
      const mask = buf.subarray(2, 6);
      const text = Buffer.from(buf.subarray(6, 6 + len).map((b, i) => b ^ mask[i % 4]));
      buf = buf.subarray(6 + len);
      if (op === 8) return socket.end();
      socket.write(Buffer.concat([Buffer.from([129, text.length]), text]));
    }
  });
  socket.on("error", () => {});
});
server.listen(Number(process.argv[1]), "127.0.0.1");
`;
