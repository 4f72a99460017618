import path from "node:path";
import { type LspServerConfig, parseLspServers } from "@coder/protocol";
import { z } from "zod";
import { defaultLimitsSchema, type Limits } from "./config/limits";
import { type OidcConfig, oidcConfig, oidcEnv, requireCompleteOidc } from "./config/oidc-config";
import { previewEnv } from "./config/preview-config";
import { secretKeySchema } from "./config/secret-key";
import {
  requireSwarmTls,
  type SwarmNodesConfig,
  swarmNodesConfig,
  swarmNodesEnv,
} from "./config/swarm-nodes-config";
import { type EgressAllowEntry, egressAllowSchema } from "./net/egress-allow-list";

/** true/false, 1/0, yes/no, on/off in any case; anything else stops the start with the variable's name. */
const bool = z.stringbool();
const text = z.string().trim().min(1).optional();

/** Everything the service reads from its environment, validated once at start. */
const envSchema = z
  .object({
    CODER_PORT: z.coerce.number().int().min(0).max(65535).default(7070),
    CODER_HOST: z.string().default("127.0.0.1"),
    CODER_DATA_DIR: z.string().default(path.resolve(".data")),
    /**
     * How previews reach a workspace's ports: `namespace` (a process of the service enters the
     * workspace's network namespace and hands the service the app's sockets; needs root on the
     * engine's host, and is the default for a root service) or `container` (a relay container beside
     * each workspace, reached over a unix socket: for a service in a container, as Compose runs it).
     */
    CODER_PREVIEW_RELAY: z.enum(["namespace", "container"]).optional(),
    /**
     * Host folder of the relay containers' sockets: the engine bind-mounts it into each relay, so it
     * must be the same path for the service and the engine (docker-compose.yml binds it so).
     */
    CODER_TUNNEL_DIR: z.string().min(1).optional(),
    /** A PostgreSQL database to run on instead of SQLite in the data folder. */
    CODER_DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL (postgres://user:password@host:port/database)")
      .optional(),
    /**
     * A Redis server the service instances share live documents through (typing, cursors, one
     * writer per document); unset: each document lives in one instance.
     */
    CODER_REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, "must be a redis:// URL (redis://[:password@]host:port[/db])")
      .optional(),
    /** off: each live-document update leaves as a frame of its own (to compare; the load bench sets it). */
    CODER_COLLAB_BATCHING: z.enum(["on", "off"]).default("on"),
    CODER_IMAGE: z.string().min(1, "CODER_IMAGE must name the workspace image (npm start sets it)"),
    /** The image of the agent's `preview` browser (images/browser; `npm start` builds and sets it). */
    CODER_BROWSER_IMAGE: z.string().min(1).default("coder-browser:latest"),
    CODER_WEB_UPSTREAM: z.string().url().optional(),
    CODER_RUNTIME: z.enum(["runc", "runsc"]).default("runc"),
    /** Where workspaces run: the Docker engine of DOCKER_HOST, or a Docker Swarm it manages. */
    CODER_DRIVER: z.enum(["docker", "swarm"]).default("docker"),
    /** Swarm constraint expressions (comma-separated) every workspace is placed by, e.g. node.labels.coder==yes. */
    CODER_SWARM_CONSTRAINTS: z
      .string()
      .default("")
      .transform((v) =>
        v
          .split(",")
          .map((c) => c.trim())
          .filter(Boolean),
      )
      .pipe(
        z.array(z.string().regex(/^[\w.-]+\s*(==|!=)\s*[^\s,]+$/, "must be like node.labels.coder==yes")),
      ),
    /**
     * Under CODER_RUNTIME=runsc, the constraint naming the nodes whose engine's default runtime is
     * runsc (a Swarm service cannot name a runtime); label those nodes to match.
     */
    CODER_SWARM_GVISOR_CONSTRAINT: z
      .string()
      .regex(/^[\w.-]+\s*==\s*[^\s,]+$/, "must be like node.labels.coder.runtime==runsc")
      .default("node.labels.coder.runtime==runsc"),
    /** What Swarm sets aside on a node for each workspace when it places it. */
    CODER_SWARM_RESERVE_MEMORY_MB: z.coerce.number().int().min(0).default(256),
    CODER_SWARM_RESERVE_CPUS: z.coerce.number().min(0).max(64).default(0.25),
    /** How often an instance asks again whether its node meets the constraints (a node relabelled). */
    CODER_SWARM_RECHECK_SECONDS: z.coerce.number().min(0.5).max(3600).default(30),
    /**
     * Origins allowed besides the service's own (comma-separated), e.g. a reverse proxy's public URL;
     * their host names join the names the service answers to.
     */
    CODER_ALLOWED_ORIGINS: z
      .string()
      .default("")
      .transform((list, ctx) => {
        const origins: URL[] = [];
        for (const entry of list.split(",").map((s) => s.trim())) {
          if (!entry) continue;
          const url = URL.canParse(entry) ? new URL(entry) : undefined;
          if (url?.protocol !== "http:" && url?.protocol !== "https:") {
            ctx.addIssue({
              code: "custom",
              message: `${entry} is not an http(s) origin like https://ide.example`,
            });
            return z.NEVER;
          }
          origins.push(url);
        }
        return origins;
      }),
    /** Separates several services on one engine (tests); containers carry it as a label. */
    CODER_INSTANCE: z
      .string()
      .regex(/^[a-z0-9-]{1,32}$/)
      .default("default"),
    CODER_MEMORY_MB: z.coerce.number().int().min(64).default(2048),
    CODER_CPUS: z.coerce.number().min(0.1).max(64).default(2),
    CODER_PIDS_LIMIT: z.coerce.number().int().min(16).default(512),
    /** Bound of each workspace's /workspace in MB; 0 gives new workspaces unbounded plain volumes. */
    CODER_DISK_MB: z.coerce
      .number()
      .int()
      .refine((mb) => mb === 0 || mb >= 64, "must be 0 (no quota) or at least 64")
      .default(10240),
    /** Bound of the snapshot store in MB; default a quarter of CODER_DISK_MB, 16 to 1024. */
    CODER_STATE_DISK_MB: z.coerce.number().int().min(16).optional(),
    /** Host folder of the disk images, as the engine sees it; default `<engine data root>/coder-disks`. */
    CODER_DISK_DIR: z.string().startsWith("/", "must be an absolute path").optional(),
    /** What each person may hold (config/limits.ts), unless an admin gives them their own. */
    CODER_DEFAULT_LIMITS: defaultLimitsSchema,
    /** Workspaces made ahead so a create answers at once (workspaces/warm-pool.ts); 0: none. */
    CODER_WARM_POOL: z.coerce.number().int().min(0).max(32).default(2),
    /** A workspace nothing has used for this long is stopped (workspaces/idle-stopper.ts); 0: never. */
    CODER_IDLE_STOP_SECONDS: z.coerce.number().int().min(0).default(1800),
    CODER_SECURE_COOKIES: bool.default(false),
    /**
     * New requests and sockets are refused (503, try again) while the service's event loop ran this
     * many ms late in the last 2 s (http/busy-shedding.ts); 0: never.
     */
    CODER_BUSY_LAG_MS: z.coerce.number().int().min(0).default(1000),
    /** How long the audit trail keeps an entry (audit/retention-purge.ts), in days. */
    /** Seals git credentials at rest; unset: a key made into the data folder at first start. */
    CODER_SECRET_KEY: secretKeySchema.optional(),
    CODER_AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).default(365),
    /** The most a git import or an upload may bring in (the archive, and what it unpacks to), in MB. */
    CODER_IMPORT_MAX_MB: z.coerce.number().int().min(1).default(1024),
    /** How long one import (clone or unpack) may take, in seconds. */
    CODER_IMPORT_TIMEOUT_S: z.coerce.number().int().min(1).default(900),
    /** Non-public destinations egress workspaces may reach anyway: a private mirror or git server. */
    CODER_EGRESS_ALLOW: egressAllowSchema.default([]),
    /** JSON list of language servers (language, command, extensions, install) added to or replacing the defaults. */
    CODER_LSP_SERVERS: z
      .string()
      .optional()
      .transform((json, ctx) => {
        try {
          return parseLspServers(json);
        } catch (e) {
          ctx.addIssue({ code: "custom", message: (e as Error).message });
          return z.NEVER;
        }
      }),
    /** The agent's model settings over its optional JSON file (see agent/config/agent-config.ts). */
    CODER_AGENT_CONFIG: z.string().min(1).optional(),
    CODER_OPENAI_COMPATIBLE_BASE_URL: z
      .string()
      .refine(
        (url) => /^https?:\/\//.test(url) && URL.canParse(url),
        "is not a URL (write it as http://host:port/v1)",
      )
      .optional(),
    CODER_OPENAI_COMPATIBLE_API_KEY: text,
    ANTHROPIC_API_KEY: text,
    OPENAI_API_KEY: text,
    /** Models offered, comma-separated (`name` for the OpenAI-compatible provider, `anthropic/x`, `openai/x`). */
    CODER_MODELS: z
      .string()
      .default("")
      .transform((list) =>
        list
          .split(",")
          .map((m) => m.trim())
          .filter(Boolean),
      ),
    CODER_DEFAULT_MODEL: text,
    CODER_WEBSEARCH_API_KEY: text,
    CODER_EXPERIMENTAL_BATCH_TOOL: bool.optional(),
    CODER_EXPERIMENTAL_WEBSEARCH: bool.optional(),
    /** The service's address as people reach it (https://ide.example): OIDC's redirect URI. */
    CODER_PUBLIC_URL: z
      .string()
      .refine(
        (url) => /^https?:\/\/[^/]+\/?$/.test(url) && URL.canParse(url),
        "is not an origin like https://ide.example",
      )
      .transform((url) => new URL(url).origin)
      .optional(),
    ...oidcEnv,
    ...previewEnv,
    ...swarmNodesEnv,
  })
  .superRefine(requireCompleteOidc)
  .superRefine(requireSwarmTls);

/** The agent's settings from the environment; unset ones leave the agent's file (or defaults) in charge. */
export interface AgentEnv {
  /** The agent's JSON file, instead of agent.json in the data folder. */
  configFile?: string;
  openAiCompatible: { baseURL?: string; apiKey?: string };
  anthropicApiKey?: string;
  openAiApiKey?: string;
  models: string[];
  defaultModel?: string;
  websearchApiKey?: string;
  experimental: { batch_tool?: boolean; websearch?: boolean };
}

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /**
   * How previews reach ports on a local engine: a process of the service in the workspace's network
   * namespace (docker/namespace-relays.ts; needs root on the engine's host, the default there), or a
   * relay container (docker/port-relay.ts; a service in a container, as Compose runs it).
   */
  previewRelay: "namespace" | "container";
  /** Host folder of the relay containers' sockets (docker/port-relay.ts). */
  tunnelDir: string;
  /** Set: the database is this PostgreSQL one; unset: SQLite in `dataDir`. */
  databaseUrl?: string;
  /** Set: live documents are shared with the other instances through this Redis server. */
  redisUrl?: string;
  /** Live-document updates leave merged once per event-loop turn (CODER_COLLAB_BATCHING). */
  collabBatching: boolean;
  image: string;
  /** The image of the browser job the `preview` tool loads pages in. */
  browserImage: string;
  webUpstream?: string;
  runtime: "runc" | "runsc";
  driver: "docker" | "swarm";
  /** The Swarm driver's placement: constraints and per-workspace reservations. */
  swarm: {
    constraints: string[];
    gvisorConstraint: string;
    reservations: { memoryBytes: number; nanoCpus: number };
    /** How often the warm pool asks again whether this instance's node takes workspaces. */
    recheckMs: number;
  };
  /** How the instances of a swarm reach a manager and each other. */
  swarmNodes: SwarmNodesConfig;
  allowedOrigins: string[];
  /** Host names (lowercase, IPv6 in brackets) the service answers to; any other Host is refused. */
  allowedHosts: string[];
  instance: string;
  limits: { memoryBytes: number; nanoCpus: number; pidsLimit: number };
  /** Sizes in MB (workspaceMb 0: no quota) and the host folder of the images. */
  disk: { workspaceMb: number; stateMb: number; dir?: string };
  /** What each person may hold unless an admin set their own limits. */
  defaultLimits: Limits;
  /** How many spare workspaces the warm pool keeps ready. */
  warmPool: number;
  /** Seconds without use after which a workspace is stopped; 0: never. */
  idleStopSeconds: number;
  secureCookies: boolean;
  /** How late (ms in the last 2 s) the event loop may run before new work is refused; 0: never. */
  busyLagMs: number;
  /** Days an audit entry is kept. */
  auditRetentionDays: number;
  /** CODER_SECRET_KEY (256 bits), when set; otherwise the data folder's own key is used. */
  secretKey?: Buffer;
  egressAllow: readonly EgressAllowEntry[];
  /** Bounds of one import: what it may bring in, and how long it may take. */
  imports: { maxBytes: number; timeoutMs: number };
  lspServers: readonly LspServerConfig[];
  agent: AgentEnv;
  /** The service's public origin (CODER_PUBLIC_URL), when it runs behind a proxy. */
  publicUrl?: string;
  /** Signing in with OpenID Connect; unset: off. */
  oidc?: OidcConfig;
  /** The parent domain of the preview origins (`<port>-<workspace>.<previewDomain>`). */
  previewDomain: string;
};

/** Names a browser on this machine may use for a service on loopback. */
const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"];

/** Loopback, the bind address (unless it is every address) and the allowed origins' host names. */
function allowedHosts(bind: string, origins: URL[]): string[] {
  const names = new Set(LOOPBACK_HOSTS);
  const bindUrl = `http://${bind.includes(":") ? `[${bind}]` : bind}`;
  // An unparsable bind address adds nothing here; `listen` refuses it with its own message.
  if (bind !== "0.0.0.0" && bind !== "::" && URL.canParse(bindUrl)) names.add(new URL(bindUrl).hostname);
  for (const origin of origins) names.add(origin.hostname);
  return [...names];
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const oidc = oidcConfig(e);
  return {
    port: e.CODER_PORT,
    host: e.CODER_HOST,
    dataDir: path.resolve(e.CODER_DATA_DIR),
    previewRelay: e.CODER_PREVIEW_RELAY ?? (process.getuid?.() === 0 ? "namespace" : "container"),
    tunnelDir: path.resolve(e.CODER_TUNNEL_DIR ?? path.join(e.CODER_DATA_DIR, "tunnels")),
    ...(e.CODER_DATABASE_URL ? { databaseUrl: e.CODER_DATABASE_URL } : {}),
    ...(e.CODER_REDIS_URL ? { redisUrl: e.CODER_REDIS_URL } : {}),
    collabBatching: e.CODER_COLLAB_BATCHING === "on",
    image: e.CODER_IMAGE,
    browserImage: e.CODER_BROWSER_IMAGE,
    webUpstream: e.CODER_WEB_UPSTREAM,
    runtime: e.CODER_RUNTIME,
    driver: e.CODER_DRIVER,
    swarm: {
      constraints: e.CODER_SWARM_CONSTRAINTS,
      gvisorConstraint: e.CODER_SWARM_GVISOR_CONSTRAINT,
      reservations: {
        memoryBytes: e.CODER_SWARM_RESERVE_MEMORY_MB * 1024 * 1024,
        nanoCpus: Math.round(e.CODER_SWARM_RESERVE_CPUS * 1e9),
      },
      recheckMs: e.CODER_SWARM_RECHECK_SECONDS * 1000,
    },
    swarmNodes: swarmNodesConfig(e),
    allowedOrigins: e.CODER_ALLOWED_ORIGINS.map((url) => url.origin),
    allowedHosts: allowedHosts(e.CODER_HOST, e.CODER_ALLOWED_ORIGINS),
    instance: e.CODER_INSTANCE,
    limits: {
      memoryBytes: e.CODER_MEMORY_MB * 1024 * 1024,
      nanoCpus: Math.round(e.CODER_CPUS * 1e9),
      pidsLimit: e.CODER_PIDS_LIMIT,
    },
    disk: {
      workspaceMb: e.CODER_DISK_MB,
      stateMb: e.CODER_STATE_DISK_MB ?? Math.min(1024, Math.max(16, Math.floor(e.CODER_DISK_MB / 4))),
      dir: e.CODER_DISK_DIR,
    },
    defaultLimits: e.CODER_DEFAULT_LIMITS,
    warmPool: e.CODER_WARM_POOL,
    idleStopSeconds: e.CODER_IDLE_STOP_SECONDS,
    secureCookies: e.CODER_SECURE_COOKIES,
    busyLagMs: e.CODER_BUSY_LAG_MS,
    auditRetentionDays: e.CODER_AUDIT_RETENTION_DAYS,
    ...(e.CODER_SECRET_KEY ? { secretKey: e.CODER_SECRET_KEY } : {}),
    egressAllow: e.CODER_EGRESS_ALLOW,
    imports: { maxBytes: e.CODER_IMPORT_MAX_MB * 1024 * 1024, timeoutMs: e.CODER_IMPORT_TIMEOUT_S * 1000 },
    lspServers: e.CODER_LSP_SERVERS,
    agent: {
      ...(e.CODER_AGENT_CONFIG ? { configFile: path.resolve(e.CODER_AGENT_CONFIG) } : {}),
      openAiCompatible: {
        ...(e.CODER_OPENAI_COMPATIBLE_BASE_URL ? { baseURL: e.CODER_OPENAI_COMPATIBLE_BASE_URL } : {}),
        ...(e.CODER_OPENAI_COMPATIBLE_API_KEY ? { apiKey: e.CODER_OPENAI_COMPATIBLE_API_KEY } : {}),
      },
      ...(e.ANTHROPIC_API_KEY ? { anthropicApiKey: e.ANTHROPIC_API_KEY } : {}),
      ...(e.OPENAI_API_KEY ? { openAiApiKey: e.OPENAI_API_KEY } : {}),
      models: e.CODER_MODELS,
      ...(e.CODER_DEFAULT_MODEL ? { defaultModel: e.CODER_DEFAULT_MODEL } : {}),
      ...(e.CODER_WEBSEARCH_API_KEY ? { websearchApiKey: e.CODER_WEBSEARCH_API_KEY } : {}),
      experimental: {
        ...(e.CODER_EXPERIMENTAL_BATCH_TOOL !== undefined
          ? { batch_tool: e.CODER_EXPERIMENTAL_BATCH_TOOL }
          : {}),
        ...(e.CODER_EXPERIMENTAL_WEBSEARCH !== undefined
          ? { websearch: e.CODER_EXPERIMENTAL_WEBSEARCH }
          : {}),
      },
    },
    ...(e.CODER_PUBLIC_URL ? { publicUrl: e.CODER_PUBLIC_URL } : {}),
    ...(oidc ? { oidc } : {}),
    previewDomain: e.CODER_PREVIEW_DOMAIN,
  };
}
