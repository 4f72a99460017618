/** The HTTP status of an engine API error (404: no such object, 304: nothing to do), if it has one. */
export function statusCode(err: unknown): number | undefined {
  return typeof err === "object" && err !== null && "statusCode" in err
    ? (err as { statusCode?: number }).statusCode
    : undefined;
}
