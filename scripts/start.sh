#!/usr/bin/env bash
# `npm start`: provision, migrate, seed, build, then serve API + web + worker on one port.
source "$(dirname "$0")/lib.sh"
provision
cd "$ROOT"
export PORT="${PORT:-8080}"
log "building"
pnpm exec turbo run build --output-logs=errors-only
log "migrating and seeding the database"
node apps/api/dist/migrate.js
node apps/api/dist/seed.js
export WEB_DIST="$ROOT/apps/web/dist"
log "starting API + web on port $PORT and the worker"
exec pnpm exec concurrently --kill-others --names api,worker --prefix-colors magenta,cyan \
  "node apps/api/dist/main.js" "node apps/worker/dist/main.js"
