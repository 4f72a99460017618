# The web UI and the sandbox service for docker-compose.yml, as two targets of one build that
# share the install of the sources. Build from the repository root:
#   docker build --target sandbox .
#   docker build --target web .
ARG NODE_IMAGE=node:20-bookworm-slim

# The lockfile and every package's manifest: all the installs below depend on, so they are
# rebuilt only when one of these changes.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/protocol/package.json packages/protocol/
COPY packages/tools/package.json packages/tools/
COPY packages/daemon/package.json packages/daemon/
COPY apps/sandbox/package.json apps/sandbox/
COPY apps/web/package.json apps/web/

# Sources with every package, install scripts skipped: enough to bundle the service and build the UI.
# npm install --no-save: the locked versions, for a lockfile that npm ci refuses because it lacks
# other platforms' optional packages (see scripts/lib/node-modules.mjs).
FROM manifests AS sources
RUN npm ci --ignore-scripts --no-audit --no-fund \
 || npm install --no-save --ignore-scripts --no-audit --no-fund
COPY . .

FROM sources AS sandbox-build
RUN node --input-type=module -e 'await (await import("./scripts/lib/bundle.mjs")).bundleSandbox()'

FROM sources AS web-build
ENV NEXT_TELEMETRY_DISABLED=1
RUN npm run build -w @coder/web

# The service's production dependencies only, with the compiler better-sqlite3 builds with when no
# prebuilt binary can be downloaded (installed before the manifests come in, so it stays cached).
FROM ${NODE_IMAGE} AS sandbox-dependencies
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY --from=manifests /app /app
WORKDIR /app
RUN npm ci --omit=dev --workspace=@coder/sandbox --no-audit --no-fund \
 || npm install --no-save --omit=dev --workspace=@coder/sandbox --no-audit --no-fund

# The UI's production dependencies only.
FROM manifests AS web-dependencies
RUN npm ci --omit=dev --workspace=@coder/web --ignore-scripts --no-audit --no-fund \
 || npm install --no-save --omit=dev --workspace=@coder/web --ignore-scripts --no-audit --no-fund

FROM ${NODE_IMAGE} AS web
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1
COPY --from=web-dependencies /app/node_modules node_modules
COPY --from=web-build /app/packages/protocol packages/protocol
COPY --from=web-build /app/apps/web apps/web
USER node
WORKDIR /app/apps/web
EXPOSE 3000
# Reached only through the sandbox service, which proxies the UI (see docker-compose.yml).
CMD ["node", "/app/node_modules/next/dist/bin/next", "start", "-H", "0.0.0.0", "-p", "3000"]

FROM ${NODE_IMAGE} AS sandbox
WORKDIR /app
ENV NODE_ENV=production \
    CODER_HOST=0.0.0.0 \
    CODER_PORT=7070 \
    CODER_DATA_DIR=/data
COPY --from=sandbox-dependencies /app/node_modules node_modules
COPY --from=sandbox-build /app/apps/sandbox/dist apps/sandbox/dist
VOLUME /data
EXPOSE 7070
# Runs as root: it holds the Docker socket, which is root on the host whoever uses it.
CMD ["node", "--enable-source-maps", "apps/sandbox/dist/main.mjs"]
