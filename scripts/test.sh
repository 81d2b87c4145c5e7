#!/usr/bin/env bash
# `npm test`: the same provisioning as `npm start`, then every suite: lint, types, unit and
# integration tests (real Postgres, Redis, Python engine), pytest, and browser tests in Chromium.
source "$(dirname "$0")/lib.sh"
# Whatever happens, every service this run started is stopped at the end (ones it found running
# are left alone): Postgres, Redis, the S3 test server, stripe-mock and the Docker daemon.
trap stop_started_services EXIT
# The container test's Compose, built once per version, overlapping the suites before it.
start_compose_build
provision
ensure_s3_test_server
# The flux engine's tests (pytest and the worker's) run on a CPU in its own virtualenv.
ensure_flux_engine
# The API's fuzz test (apps/api/test/fuzz.test.ts) runs schemathesis from its own virtualenv.
ensure_schemathesis
# The API's metrics test runs the shipped nginx configuration; its alerts test, promtool.
ensure_nginx
ensure_promtool
# The Stripe-mode tests drive the stripe SDK against stripe-mock (apps/api/test/stripe-*.test.ts).
ensure_stripe_mock
cd "$ROOT"

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  apt_install chromium fonts-liberation ||
    die "Chromium is needed for the browser tests. Install it (Debian: sudo apt-get install chromium) or set CHROMIUM_PATH."
fi

export NODE_ENV=test
step() { log "── $* ──"; }

step "lint"
pnpm exec eslint . --max-warnings 0
pnpm exec prettier --check . --log-level warn
# Import cycles over the apps and packages, type imports included (.dependency-cruiser.cjs).
pnpm exec depcruise apps packages --config .dependency-cruiser.cjs --output-type err
# The engine's Python: ruff and mypy (pyproject.toml's settings), from its dev lock.
"$ENGINE_DIR/.venv-flux/bin/ruff" check --quiet apps/worker/engine
"$ENGINE_DIR/.venv-flux/bin/ruff" format --check --quiet apps/worker/engine
(cd apps/worker/engine && .venv-flux/bin/mypy studioshot_engine)
# Copy-paste over the shipped sources (jscpd): no more clones than the committed baseline.
node scripts/check-copies.mjs
# ARCHITECTURE.md stays a one-page map; no file points outside the repository.
node scripts/check-docs.mjs

# infra/k8s: every overlay built offline and every object validated strictly (scripts/lib.sh).
step "kubernetes manifests"
ensure_k8s_validation
"$K8S_VALIDATE_PYTHON" infra/k8s/test/validate.py "$KUSTOMIZE" "$KEDA_SCALEDOBJECT_CRD" "$K8S_OLDEST_VERSION"

step "build and typecheck"
pnpm exec turbo run build typecheck --output-logs=errors-only

step "unit and integration tests"
pnpm exec turbo run test --concurrency=1 --output-logs=full

# 2 APIs and 3 workers of the built apps, killed and drained at random (README: Deploy: a fleet).
step "fleet simulation"
pnpm --filter @studioshot/e2e fleet

step "browser tests"
pnpm --filter @studioshot/e2e e2e

# The images built from infra/Dockerfile, run with docker-compose.yml (e2e/containers).
step "container test"
ensure_docker
pnpm --filter @studioshot/e2e containers

log "all test suites passed"
