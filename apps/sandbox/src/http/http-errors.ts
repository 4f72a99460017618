import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { NameTakenError } from "../auth/share-links";
import { TooManyUploadsError, UploadTooLargeError } from "../imports/upload-store";
import { mappedError } from "../trpc/init";
import { TooManyGuessesError } from "./failure-backoff";

/** A refusal the edge itself decides (no session, wrong role, a malformed body), with its status. */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "HttpRefusal";
  }
}

/**
 * The one place an error becomes an HTTP status: the edge's own refusals, the errors only HTTP
 * routes meet, then every error the tRPC procedures map (trpc/init.ts) with tRPC's status for
 * its code. `undefined` for an unexpected error: the caller logs it and answers 500.
 */
export function httpRefusalOf(err: unknown): { status: number; message: string } | undefined {
  if (err instanceof HttpRefusal) return { status: err.status, message: err.message };
  // The link is right, the name is someone else's: no guess failed.
  if (err instanceof NameTakenError) return { status: 400, message: err.message };
  if (err instanceof UploadTooLargeError) return { status: 413, message: err.message };
  if (err instanceof TooManyUploadsError || err instanceof TooManyGuessesError)
    return { status: 429, message: err.message };
  const mapped = mappedError(err);
  return mapped && { status: getHTTPStatusCodeFromError(mapped), message: mapped.message };
}
