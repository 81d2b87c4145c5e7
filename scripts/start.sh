#!/usr/bin/env bash
# `npm start`: provision, migrate, seed, build, then serve API + web + worker on one port.
source "$(dirname "$0")/lib.sh"
# Ctrl-C (or SIGTERM) stops the app, then the Postgres and Redis this run started; ones that were
# already running are left running. The next `npm start` starts them again from their data.
trap stop_started_services EXIT
provision
cd "$ROOT"
export PORT="${PORT:-8080}"
log "building"
pnpm exec turbo run build --output-logs=errors-only
log "migrating and seeding the database"
node apps/api/dist/migrate.js
node apps/api/dist/seed.js
export WEB_DIST="$ROOT/apps/web/dist"
# One machine: the worker takes every queue of its engine kind and the photo checks.
export WORKER_POOL="${WORKER_POOL:-all}"
log "starting API + web on port $PORT and the worker"
# In the background, so this shell's traps run: Ctrl-C reaches the app through them.
# concurrently itself (not through pnpm, which may exit first), so the wait below ends only once
# the API and the worker have.
node_modules/.bin/concurrently --kill-others --names api,worker --prefix-colors magenta,cyan \
  "node apps/api/dist/main.js" "node apps/worker/dist/main.js" &
app=$!
trap 'kill -TERM "$app" 2>/dev/null' INT TERM
status=0
# `wait` returns early when a signal arrives; wait again for the app to finish stopping.
while kill -0 "$app" 2>/dev/null; do wait "$app" || status=$?; done
exit "$status"
