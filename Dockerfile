# The API as a container image: `docker build -t nordic-company-data .` (compose.yaml builds it).
# Stage 1 installs production dependencies from the lockfile; stage 2 copies them beside the
# sources and runs as the unprivileged `node` user. The server runs from one bundle that esbuild
# builds from the sources (bin/serve.mjs), here at image time, since /app is not writable by that
# user; the CLI runs its TypeScript through tsx. NODE_IMAGE lets CI use a locally built base image.
# It needs Node.js 20.19 or newer (`engines`: >=20.19.0); node:20 images carry the latest 20.x.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json LICENSE ./
COPY bin ./bin
COPY reference ./reference
COPY src ./src
# `ncd enrich` runs on the typed client's sources.
COPY clients/js/src ./clients/js/src
COPY docker/entrypoint.sh ./docker/entrypoint.sh
RUN node bin/serve.mjs --build
# The embedded database, the generated secret and sync downloads live in /data: a volume, owned
# by the user the server runs as.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/app/docker/entrypoint.sh"]
CMD ["serve"]
