# syntax=docker/dockerfile:1
# Two stages: `build` installs everything and compiles the web app and the server to JavaScript; the
# runtime image holds only what runs (server/dist with the compiled migrations, web/dist and the
# server's production node_modules) and runs it as the unprivileged `node` user, with no TypeScript.

# NODE_IMAGE: where no registry is reachable, a base made from Debian's packages (docs/deploy.md).
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
ENV COREPACK_ENABLE_DOWNLOAD_PROMPT=0 CI=true
RUN corepack enable
# Manifests first: the dependency layer is rebuilt only when one of them or the lockfile changes.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY server/package.json server/
COPY web/package.json web/
COPY shared/package.json shared/
COPY migrations/package.json migrations/
RUN pnpm install --frozen-lockfile
COPY . .
# `deploy --prod` installs the server's dependencies without dev ones (no tsx, esbuild, vite…) into
# /deploy; --legacy because workspace packages are linked, not injected (the bundle holds @porchlight/shared).
RUN pnpm build && pnpm --filter @porchlight/server deploy --prod --legacy /deploy

FROM ${NODE_IMAGE}
WORKDIR /app
ENV HOST=0.0.0.0 PORT=3000 NODE_OPTIONS=--enable-source-maps
# Owned by root and read-only for `node`: the processes write nothing to disk (PostgreSQL and Redis
# hold the state; the worker's heartbeat goes to /tmp).
COPY --from=build /deploy/package.json server/package.json
COPY --from=build /deploy/node_modules server/node_modules
COPY --from=build /src/server/dist server/dist
COPY --from=build /src/web/dist web/dist
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/api/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The API; docker-compose.yml runs server/dist/worker.js and server/dist/migrate.js from the same image.
# Both the API and the worker refuse to start without DATABASE_URL and REDIS_URL. Both start with the
# server's V8 flags (server/src/bin/node-flags.ts): Node takes them on the command line only.
CMD ["node", "--no-memory-reducer", "--max-semi-space-size=32", "server/dist/api.js"]
