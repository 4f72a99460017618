import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { describe, expect, it } from "vitest";
import { ServiceError, serviceErrorKinds } from "../errors/service-error";
import { UploadTooLargeError } from "../imports/upload-store";
import { trpcCodeOf } from "../trpc/trpc-error-codes";
import { HttpRefusal, httpRefusalOf, httpStatusOf } from "./http-errors";

describe("the HTTP answer of a service error", () => {
  it("has a status for every kind, the same a tRPC call answers it with", () => {
    for (const kind of serviceErrorKinds) {
      const answer = httpRefusalOf(new ServiceError(kind, `a ${kind} refusal`));
      expect(answer, kind).toEqual({ status: httpStatusOf[kind], message: `a ${kind} refusal` });
      expect(answer?.status, kind).toBe(
        getHTTPStatusCodeFromError(new TRPCError({ code: trpcCodeOf[kind] })),
      );
    }
  });

  it("says the edge's own refusals with their status, and leaves unexpected errors to a 500", () => {
    expect(httpRefusalOf(new HttpRefusal(401, "log in first"))).toEqual({
      status: 401,
      message: "log in first",
    });
    expect(httpRefusalOf(new UploadTooLargeError(8 * 2 ** 20))?.status).toBe(413);
    expect(httpRefusalOf(new Error("EACCES /srv/data"))).toBeUndefined();
  });
});
