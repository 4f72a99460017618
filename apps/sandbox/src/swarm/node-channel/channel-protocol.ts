import { z } from "zod";
import { serviceErrorKinds } from "../../errors/service-error";

// What travels on a node channel (node-channel-server.ts): one request per connection naming one
// driver operation on one workspace, then that operation's streams and control messages. Every
// message is validated on arrival: a connection with anything else is dropped.

const workspaceId = z.string().regex(/^[\w-]{1,100}$/);
const arg = z.string().max(64 * 1024);
const cmd = z.array(arg).min(1).max(256);
const env = z.array(z.string().max(16 * 1024)).max(256);
const size = { cols: z.number().int().min(1).max(1000), rows: z.number().int().min(1).max(1000) };

export const channelRequestSchema = z.discriminatedUnion("op", [
  /** The volumes and containers a removed workspace left on the node (its volumes live there). */
  z.strictObject({ op: z.literal("removeLeftovers"), workspaceId }),
  /** The disk images of a workspace with a quota, made or put back on loop devices on its node. */
  z.strictObject({ op: z.literal("disks"), workspaceId, step: z.enum(["create", "attach"]) }),
  /** The egress firewall rules set on the node of a workspace with egress, before it is created or started. */
  z.strictObject({ op: z.literal("egress"), workspaceId }),
  z.strictObject({
    op: z.literal("exec"),
    workspaceId,
    cmd,
    env: env.optional(),
    backpressure: z.boolean().optional(),
  }),
  z.strictObject({ op: z.literal("execTty"), workspaceId, cmd, ...size }),
  z.strictObject({
    op: z.literal("volumeJob"),
    workspaceId,
    spec: z.strictObject({
      image: z.string().min(1).max(512),
      cmd,
      network: z.enum(["none", "egress"]),
      env: env.optional(),
      readOnly: z.boolean().optional(),
    }),
  }),
  z.strictObject({
    op: z.literal("browserJob"),
    workspaceId,
    spec: z.strictObject({
      image: z.string().min(1).max(512),
      args: z.array(arg).max(64),
      timeoutMs: z
        .number()
        .int()
        .min(1)
        .max(10 * 60_000),
      outputLimit: z
        .number()
        .int()
        .min(0)
        .max(16 * 1024 * 1024),
    }),
  }),
]);
export type ChannelRequest = z.infer<typeof channelRequestSchema>;

/** From the instance that asked: a TTY's new size, or the end of the process. */
export const clientControlSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("resize"), ...size }),
  z.strictObject({ type: z.literal("close") }),
]);
export type ClientControl = z.infer<typeof clientControlSchema>;

/** From the instance on the workspace's node. */
export const serverControlSchema = z.discriminatedUnion("type", [
  /** The operation runs: its streams follow. */
  z.strictObject({ type: z.literal("started") }),
  z.strictObject({ type: z.literal("exit"), code: z.number().int().nullable() }),
  /** A browser job's end; its standard output came before as data. */
  z.strictObject({ type: z.literal("result"), exitCode: z.number().int() }),
  z.strictObject({
    type: z.literal("error"),
    kind: z.enum(serviceErrorKinds).optional(),
    message: z.string().max(4096),
  }),
]);
export type ServerControl = z.infer<typeof serverControlSchema>;
