import { type ImageResult, MAX_IMAGE_BYTES } from "@coder/protocol";
import type { DaemonConnection } from "../daemon/daemon-connection";
import { imageTypeOf } from "./image-type";

/** A workspace image for the viewer: its bytes and type, or why it is not shown. */
export async function readImage(
  daemon: Pick<DaemonConnection, "request">,
  path: string,
): Promise<ImageResult> {
  const file = await daemon.request("fs.readBytes", { path, maxBytes: MAX_IMAGE_BYTES });
  if (file.kind === "too_large") return { kind: "too_large", path: file.path, size: file.size };
  // The type shows in the first bytes (4096 base64 characters hold 3 KB of them).
  const mime = imageTypeOf(file.path, Buffer.from(file.base64.slice(0, 8192), "base64"));
  if (!mime) return { kind: "not_an_image", path: file.path, size: file.size };
  return { kind: "image", path: file.path, size: file.size, mime, base64: file.base64 };
}
