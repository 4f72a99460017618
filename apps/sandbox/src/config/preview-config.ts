import { z } from "zod";

/**
 * The parent domain of the preview origins (CODER_PREVIEW_DOMAIN): port 3000 of workspace `abc…`
 * is served at `3000-abc….<domain>`. `localhost` by default: Chromium and Firefox resolve every
 * `*.localhost` name to loopback; elsewhere it needs a wildcard DNS name (and, behind TLS, a
 * wildcard certificate) for `*.<domain>`.
 */
export const previewEnv = {
  CODER_PREVIEW_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .default("localhost")
    .refine(
      (domain) =>
        /^(?=.{1,200}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(domain),
      "must be a DNS name like preview.example.com (no scheme, no port)",
    ),
};
