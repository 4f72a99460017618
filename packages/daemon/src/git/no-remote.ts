import { DaemonErrorCode } from "@coder/protocol";
import { daemonError } from "../rpc/errors";
import type { GitRun, RunGitOptions } from "./run-git";

type RemoteCommand = "fetch" | "pull" | "push";
type Git = (args: string[], more?: Pick<RunGitOptions, "okCodes">) => Promise<GitRun>;

const ADD_ONE = "add one in a terminal (git remote add origin <url>)";

/**
 * Refuses a fetch, pull or push with nothing to talk to before git runs, in a sentence a person
 * can act on (git itself says nothing for a fetch without remotes, and its advice for the others
 * names commands the panel does not offer). `remote`: the one the call names (origin when a push
 * sets its upstream); undefined when git picks, which for a pull means the branch's upstream.
 */
export async function refuseWithoutRemote(git: Git, command: RemoteCommand, remote: string | undefined) {
  const remotes = (await git(["remote"])).stdout.split("\n").filter((name) => name !== "");
  const direction = command === "push" ? "to" : "from";
  const refuse = (sentence: string) => daemonError(DaemonErrorCode.Git, sentence);
  if (remotes.length === 0)
    throw refuse(
      `This repository has no remote to ${command} ${direction}: ${ADD_ONE}, then ${command} again.`,
    );
  if (remote !== undefined && !remotes.includes(remote)) {
    throw refuse(
      `This repository has no remote named ${remote} to ${command} ${direction} (it has ${remotes.join(", ")}).`,
    );
  }
  if (command === "pull" && remote === undefined) {
    const upstream = await git(["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"], {
      okCodes: [0, 128],
    });
    if (upstream.code !== 0) {
      throw refuse(
        "This branch has no upstream to pull from: push it first (Push sets its upstream), or pull a branch by name.",
      );
    }
  }
}
