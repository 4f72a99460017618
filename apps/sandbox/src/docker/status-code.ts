/** The HTTP status of a failed Docker API call (404 missing, 304 nothing to do, 409 conflict). */
export function statusCode(err: unknown): number | undefined {
  return typeof err === "object" && err !== null && "statusCode" in err
    ? (err as { statusCode?: number }).statusCode
    : undefined;
}
