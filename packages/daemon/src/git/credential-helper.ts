import { connect } from "node:net";

/** What one answer may hold: a user name and a token on two lines. */
const MAX_ANSWER_CHARS = 16 * 1024;

function readRequest(input: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    input.setEncoding("utf8");
    input.on("data", (chunk: string) => {
      text += chunk;
      const end = text.indexOf("\n\n");
      if (end >= 0 || text.length > MAX_ANSWER_CHARS) resolve(text.slice(0, end >= 0 ? end + 2 : 0));
    });
    input.on("end", () => resolve(text.endsWith("\n") ? `${text}\n` : `${text}\n\n`));
  });
}

/**
 * The credential helper git in a terminal or the agent's bash runs (`daemon.mjs git-credential
 * <action>`, named by the image's /etc/gitconfig): for `get` it asks the daemon's socket and prints
 * its answer for git; `store` and `erase` do nothing (the service keeps the tokens). Without a
 * daemon, or when the service gives nothing, git hears nothing and goes on to ask elsewhere.
 */
export async function runCredentialHelper(
  action: string | undefined,
  socketPath: string,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): Promise<void> {
  if (action !== "get") return;
  const request = await readRequest(input);
  if (!request.includes("host=")) return;
  const answer = await new Promise<string>((resolve) => {
    let text = "";
    const socket = connect(socketPath);
    socket.setEncoding("utf8");
    socket.setTimeout(30_000, () => socket.destroy());
    socket.on("connect", () => socket.write(request));
    socket.on("data", (chunk: string) => {
      text += chunk;
      // The answer ends with a blank line; "no login" is that line alone.
      if (/(^|\n)\n/.test(text) || text.length > MAX_ANSWER_CHARS) socket.end();
    });
    socket.on("close", () => resolve(text));
    socket.on("error", () => resolve(""));
  });
  const end = answer.indexOf("\n\n");
  if (end > 0) output.write(answer.slice(0, end + 1));
}
