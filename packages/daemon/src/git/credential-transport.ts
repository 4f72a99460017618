import { execFile } from "node:child_process";

/** Where and how the git that asks runs: the same folder and environment, so the same configuration. */
export interface GitPlace {
  root: string;
  env: NodeJS.ProcessEnv;
}

const FALSE = /^(false|no|off|0)$/i;

/**
 * Why the login git asks for must not go out over the transport the repository's configuration
 * sets up for that host, or undefined when it may. The configuration is code its author wrote: TLS
 * verification turned off or a certificate authority of its own would hand the token to whoever
 * answers in the middle (a proxy it names, say), and over plain http a proxy would read it.
 * `git config --get-urlmatch` gives the settings git itself applies to that URL.
 */
export async function transportRefusal(
  place: GitPlace,
  request: { protocol: string; host: string },
): Promise<string | undefined> {
  const url = `${request.protocol}://${request.host}/`;
  const settings = await new Promise<Map<string, string>>((resolve) => {
    execFile(
      "git",
      ["config", "-z", "--get-urlmatch", "http", url],
      { cwd: place.root, env: place.env, maxBuffer: 1024 * 1024 },
      (_error, stdout) => {
        const found = new Map<string, string>();
        for (const entry of String(stdout ?? "").split("\0")) {
          const newline = entry.indexOf("\n");
          if (newline > 0) found.set(entry.slice(0, newline).toLowerCase(), entry.slice(newline + 1));
        }
        resolve(found);
      },
    );
  });
  const verify = settings.get("http.sslverify");
  if (verify !== undefined && FALSE.test(verify.trim())) {
    return "the repository's configuration turns TLS verification off for it";
  }
  if (settings.get("http.sslcainfo") || settings.get("http.sslcapath")) {
    return "the repository's configuration names its own certificate authority for it";
  }
  if (request.protocol === "http" && settings.get("http.proxy")) {
    return "the repository's configuration sends plain http to it through a proxy";
  }
  return undefined;
}
