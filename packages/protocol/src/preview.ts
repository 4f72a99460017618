import { z } from "zod";

/**
 * Previews (issue 21): each listening port of a workspace is served at its own origin,
 * `http://<port>-<workspaceId>.<CODER_PREVIEW_DOMAIN>:<port of the IDE>/`, through the service.
 */

/** Who may open a port's preview: `private` owner and editors, `workspace` any role there, `public` anyone. */
export const previewVisibility = z.enum(["private", "workspace", "public"]);
export type PreviewVisibility = z.infer<typeof previewVisibility>;

/** The daemon reports at most this many listening ports at once. */
export const MAX_LISTENING_PORTS = 256;

export const portNumber = z.number().int().min(1).max(65535);

/** A TCP port something listens on inside the workspace, with the name of the process when known. */
export const listeningPort = z.object({ port: portNumber, process: z.string().max(256).nullable() });
export type ListeningPort = z.infer<typeof listeningPort>;

/** A listening port as the IDE shows it: with who may open it and its origin's root (no token). */
export const previewPort = listeningPort.extend({ visibility: previewVisibility, url: z.string().max(2048) });
export type PreviewPort = z.infer<typeof previewPort>;

/** A path of the app to open, starting at its root. */
export const previewPath = z
  .string()
  .max(2048, "a preview path is at most 2048 characters")
  .regex(/^\/[^\s]*$/, "a preview path starts with / and has no spaces");

export const previewListResult = z.object({ ports: z.array(previewPort).max(MAX_LISTENING_PORTS) });

/** `preview.open`: a one-time URL (its token is valid 60 s) that lets the caller into the port's origin. */
export const previewOpenInput = z.object({ port: portNumber, path: previewPath.optional() });
export const previewOpenResult = z.object({ url: z.string().max(4096) });

/** `preview.setVisibility` (owner only). */
export const previewVisibilityInput = z.object({ port: portNumber, visibility: previewVisibility });
