# syntax=docker/dockerfile:1
# The site as one image: build with every dependency, run with production dependencies only, as a
# non-root user; the last stage is the app's image. scripts/check-dockerfile.mjs runs these steps in CI
# without a Docker engine, so keep RUN steps plain shell and CMD in exec form.

FROM node:24-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# compose.yaml's proxy: nginx with deploy/nginx.conf and the built client, whose hashed files it sends itself.
FROM nginx:1.27-alpine AS web
COPY --from=build /app/dist/client /srv/site-client
COPY deploy/nginx.conf /etc/nginx/conf.d/default.conf

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/package.json ./package.json
# Read at run time: database migrations and the sample files the first start seeds.
COPY --from=build /app/src/server/db/migrations ./src/server/db/migrations
COPY --from=build /app/src/server/db/seed/files ./src/server/db/seed/files
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# A young generation of 2 x 16 MB whatever the host's memory (decision 0106): node sizes it from the memory
# it may use, up to 2 x 64 MB, which a long broadcast fills.
CMD ["node", "--max-semi-space-size=16", "dist/server/main.js"]
