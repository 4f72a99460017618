import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { ServiceError, serviceErrorKinds } from "../errors/service-error";
import { WorkspaceError } from "../workspaces/workspace-error";
import { mappedError, trpcCodeOf } from "./trpc-error-codes";

describe("the tRPC answer of a service error", () => {
  it("has a code for every kind, none of them the internal error", () => {
    for (const kind of serviceErrorKinds) {
      const answer = mappedError(new ServiceError(kind, `a ${kind} refusal`));
      expect(answer, kind).toBeInstanceOf(TRPCError);
      expect(answer?.code).toBe(trpcCodeOf[kind]);
      expect(answer?.code).not.toBe("INTERNAL_SERVER_ERROR");
    }
  });

  it("keeps the domain error's sentence and the error itself as its cause", () => {
    const stopped = new WorkspaceError("precondition", 'workspace "demo" is stopped; start it first');
    const answer = mappedError(stopped);
    expect(answer).toMatchObject({ code: "PRECONDITION_FAILED", message: stopped.message });
    expect(answer?.cause).toBe(stopped);
  });

  it("leaves an unexpected error to the internal answer", () => {
    expect(mappedError(new Error("ENOENT /home/service/secret"))).toBeUndefined();
    expect(mappedError({ code: 4413 })).toBeUndefined();
  });
});
