import { DaemonErrorCode } from "@coder/protocol";
import { daemonError } from "../rpc/errors";
import { type RunGitOptions, runGit } from "./run-git";

/**
 * The paths a patch touches, as git itself reads it (`git apply --numstat -z`): a rename names
 * both its source and its destination.
 */
async function touchedPaths(patch: string, options: RunGitOptions): Promise<string[]> {
  const { stdout } = await runGit(["apply", "--numstat", "-z", "-"], { ...options, input: patch });
  const fields = stdout.split("\0");
  fields.pop();
  const paths: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const [, , name] = (fields[i] as string).split("\t");
    // A rename's record has an empty name, then its source and destination as fields of their own.
    if (name === "") {
      paths.push(fields[i + 1] ?? "", fields[i + 2] ?? "");
      i += 2;
    } else if (name !== undefined) paths.push(name);
  }
  return paths;
}

/**
 * Refuses a patch that touches anything but `paths` (the files the person chose hunks of), so a
 * caller naming one file cannot slip changes to another into the index.
 */
export async function checkPatchPaths(
  patch: string,
  paths: readonly string[],
  options: RunGitOptions,
): Promise<void> {
  const allowed = new Set(paths.map((p) => p.replace(/^\.\//, "")));
  const touched = await touchedPaths(patch, options);
  if (touched.length === 0) throw daemonError(DaemonErrorCode.Git, "the patch changes no file");
  const other = touched.find((p) => !allowed.has(p));
  if (other !== undefined) {
    throw daemonError(
      DaemonErrorCode.PathDenied,
      `the patch changes ${JSON.stringify(other)}, which was not named`,
    );
  }
}
