import { DaemonErrorCode } from "@coder/protocol";
import { ToolError } from "@coder/tools";
import { ErrorCodes, ResponseError } from "vscode-jsonrpc/node";

/** A failure the client should see as-is: a daemon error code and a message for a person. */
export function daemonError(code: number, message: string): ResponseError<void> {
  return new ResponseError(code, message);
}

/** What Node reports for a failed file-system call (`code` such as ENOENT). */
function errnoCode(error: unknown): string | undefined {
  if (error instanceof Error && "code" in error && typeof error.code === "string") return error.code;
  return undefined;
}

/**
 * Turns anything a handler threw into a JSON-RPC error. `subject` is the workspace path the
 * operation was about, so the message can name it ("a.txt does not exist").
 */
export function toResponseError(error: unknown, subject?: string): ResponseError<void> {
  if (error instanceof ResponseError) return error;
  if (error instanceof ToolError) {
    const code = error.code === "permission_denied" ? DaemonErrorCode.PathDenied : ErrorCodes.InvalidParams;
    return daemonError(code, error.message);
  }
  const name = subject ?? "the path";
  switch (errnoCode(error)) {
    case "ENOENT":
      return daemonError(DaemonErrorCode.NotFound, `${name} does not exist`);
    case "EISDIR":
      return daemonError(DaemonErrorCode.IsDirectory, `${name} is a folder`);
    case "ENOTDIR":
      return daemonError(DaemonErrorCode.NotDirectory, `part of ${name} is a file, not a folder`);
    case "EEXIST":
    case "ENOTEMPTY":
      return daemonError(DaemonErrorCode.Exists, `${name} already exists`);
    case "EACCES":
    case "EPERM":
      return daemonError(DaemonErrorCode.Io, `the workspace user may not access ${name}`);
    case "ENOSPC":
    case "EDQUOT":
      return daemonError(DaemonErrorCode.Io, "the workspace disk is full");
    case "ELOOP":
      return daemonError(DaemonErrorCode.Io, `${name} has too many levels of symbolic links`);
    case "ENAMETOOLONG":
      return daemonError(DaemonErrorCode.Io, `${name} is too long a name`);
  }
  const detail = error instanceof Error ? error.message : String(error);
  return daemonError(DaemonErrorCode.Io, subject === undefined ? detail : `${subject}: ${detail}`);
}
