# The worker with its Python engine. One replica per GPU; scale on queue depth (infra/k8s).
FROM node:20-bookworm-slim AS build
ENV COREPACK_ENABLE_DOWNLOAD_PROMPT=0 COREPACK_INTEGRITY_KEYS=0
WORKDIR /src
COPY . .
RUN corepack pnpm install --frozen-lockfile && corepack pnpm exec turbo run build --filter @studioshot/worker
RUN corepack pnpm --filter @studioshot/worker deploy --prod --legacy /app

FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends python3 python3-venv && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app /app
COPY apps/worker/engine /app/engine
# The engine validates commands against the protocol's JSON Schema (generated from the contracts).
COPY packages/contracts/engine-protocol.schema.json /app/engine/engine-protocol.schema.json
RUN python3 -m venv /app/engine/.venv \
  && /app/engine/.venv/bin/pip install --no-cache-dir -r /app/engine/requirements.lock \
  && /app/engine/.venv/bin/pip install --no-cache-dir --no-deps /app/engine \
  && bash /app/engine/install-models.sh /app/engine/.venv
# A flux worker (--build-arg ENGINE_KIND=flux) also gets the flux engine's own virtualenv (torch,
# diffusers, peft); the worker runs each kind from its own (ENGINE_PYTHON's default). Its weights
# are mounted at ENGINE_FLUX_WEIGHTS_DIR (apps/worker/engine/README.md).
ARG ENGINE_KIND=studio
RUN if [ "$ENGINE_KIND" = flux ]; then \
    python3 -m venv /app/engine/.venv-flux \
    && /app/engine/.venv-flux/bin/pip install --no-cache-dir -r /app/engine/requirements-flux.lock \
    && /app/engine/.venv-flux/bin/pip install --no-cache-dir --no-deps /app/engine; \
  fi
ENV ENGINE_KIND=$ENGINE_KIND \
  ENGINE_PROTOCOL_SCHEMA=/app/engine/engine-protocol.schema.json
USER node
CMD ["node", "dist/main.js"]
