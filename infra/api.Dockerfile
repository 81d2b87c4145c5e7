# Builds the API (with the web app it serves) from the workspace root.
FROM node:20-bookworm-slim AS build
ENV COREPACK_ENABLE_DOWNLOAD_PROMPT=0 COREPACK_INTEGRITY_KEYS=0
WORKDIR /src
COPY . .
RUN corepack pnpm install --frozen-lockfile && corepack pnpm exec turbo run build --filter @studioshot/api --filter @studioshot/web
RUN corepack pnpm --filter @studioshot/api deploy --prod --legacy /app

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /app /app
COPY --from=build /src/apps/web/dist /app/web
USER node
EXPOSE 8080
# Migrations run before the server starts; they are idempotent.
CMD ["sh", "-c", "node dist/migrate.js && node dist/main.js"]
