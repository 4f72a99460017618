import { randomBytes } from "node:crypto";

/** A new id with a readable prefix (`ses_`, `msg_`, `prt_`, `trn_`, `req_`) and 96 random bits. */
export function newId(prefix: "ses" | "msg" | "prt" | "trn" | "req"): string {
  return `${prefix}_${randomBytes(12).toString("base64url")}`;
}
