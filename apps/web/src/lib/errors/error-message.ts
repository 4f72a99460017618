/**
 * tRPC errors carry a message written for a person and a machine-readable code in `data.code`.
 * These helpers read both from anything thrown, without depending on the error's class.
 */

export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message.trim() !== "") return error.message;
  if (typeof error === "string" && error.trim() !== "") return error;
  return "Something went wrong. Please try again.";
}

export function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("data" in error)) return undefined;
  const data = (error as { data: unknown }).data;
  if (typeof data !== "object" || data === null || !("code" in data)) return undefined;
  const code = (data as { code: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

export const isConflict = (error: unknown): boolean => errorCode(error) === "CONFLICT";
export const isUnauthorized = (error: unknown): boolean => errorCode(error) === "UNAUTHORIZED";
