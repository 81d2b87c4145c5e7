#!/usr/bin/env bash
# Provisioning shared by `npm start` and `npm test`: installs what is missing, starts local
# Postgres and Redis when no DATABASE_URL / REDIS_URL is given, and exports the environment.
# Everything it creates lives under .local/ (git-ignored). Safe to run again: it reuses what exists.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOCAL="$ROOT/.local"
ENGINE_DIR="$ROOT/apps/worker/engine"
PG_PORT="${STUDIOSHOT_PG_PORT:-55432}"
REDIS_PORT="${STUDIOSHOT_REDIS_PORT:-56379}"
# Corepack 0.34 cannot verify newer pnpm signatures; the npm registry itself is trusted here.
export COREPACK_ENABLE_DOWNLOAD_PROMPT=0 COREPACK_INTEGRITY_KEYS=0
export NEXT_TELEMETRY_DISABLED=1 TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
mkdir -p "$LOCAL"
# The local services this shell started (not those it found running): stop_started_services
# stops exactly these, so `npm start` and `npm test` leave the machine as they found it.
STARTED_SERVICES=()

log() { printf '\033[1;35m[studioshot]\033[0m %s\n' "$*"; }
die() {
  printf '\033[1;31m[studioshot] %s\033[0m\n' "$*" >&2
  exit 1
}
is_root() { [ "$(id -u)" = 0 ]; }

# Stops a process by the id in its pid file, waiting (up to 30 s) until it is gone.
stop_pid_file() {
  local pid
  pid="$(cat "$1" 2>/dev/null)" || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}
port_free() { ! (: <"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

APT_UPDATED=0
apt_install() {
  is_root && command -v apt-get >/dev/null || return 1
  if [ "$APT_UPDATED" = 0 ]; then
    log "apt-get update"
    apt-get update -qq >/dev/null
    APT_UPDATED=1
  fi
  log "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# A pnpm on PATH for tools that look for one (turbo); it defers to corepack's pinned version.
mkdir -p "$LOCAL/bin"
# Written aside and moved into place: another shell of the same run (a background build) may be
# running it at that moment.
printf '#!/bin/sh\nexec corepack pnpm "$@"\n' >"$LOCAL/bin/pnpm.$$"
chmod +x "$LOCAL/bin/pnpm.$$"
mv -f "$LOCAL/bin/pnpm.$$" "$LOCAL/bin/pnpm"
export PATH="$LOCAL/bin:$PATH"

ensure_node() {
  command -v node >/dev/null || die "Node.js 20.19 or newer is required: https://nodejs.org"
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' ||
    die "Node.js 20.19 or newer is required (found $(node --version))"
  command -v corepack >/dev/null || die "corepack is missing: install it with 'npm install -g corepack'"
}

ensure_workspace() {
  log "installing workspace dependencies (pnpm)"
  local flags=(--prefer-offline)
  [ -n "${CI:-}" ] && flags+=(--frozen-lockfile)
  (cd "$ROOT" && pnpm install "${flags[@]}" --reporter=silent) || die "pnpm install failed"
}

# The Python engine gets its own virtualenv, rebuilt only when its pinned requirements or its
# model files (apps/worker/engine/install-models.sh) change.
ensure_engine() {
  local venv="$ENGINE_DIR/.venv" stamp
  command -v python3 >/dev/null || die "Python 3.11 is required (python3 not found)"
  stamp="$({ cat "$ENGINE_DIR/requirements.lock" "$ENGINE_DIR/pyproject.toml"; bash "$ENGINE_DIR/install-models.sh" "$venv" --describe; } | sha256sum | cut -c1-16)"
  if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.stamp" 2>/dev/null)" = "$stamp" ]; then return; fi
  log "creating the engine's Python virtualenv"
  if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then
    apt_install python3-venv || die "python3 venv support is missing: apt-get install python3-venv"
  fi
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$ENGINE_DIR/requirements.lock"
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps -e "$ENGINE_DIR"
  log "installing the engine's model files"
  bash "$ENGINE_DIR/install-models.sh" "$venv" ||
    die "installing the engine's model files failed (apps/worker/engine/install-models.sh)"
  echo "$stamp" >"$venv/.stamp"
}
export ENGINE_PYTHON="$ENGINE_DIR/.venv/bin/python"

# uv, pinned, in a bootstrap virtualenv of its own: it installs the flux engine's dependencies.
UV_VERSION="0.13.8"
ensure_uv() {
  local venv="$LOCAL/uv"
  UV="$venv/bin/uv"
  # `uv --version` prints "uv 0.13.8 (x86_64-unknown-linux-gnu)".
  if [ -x "$UV" ] && [[ "$("$UV" --version 2>/dev/null)" == "uv $UV_VERSION "* ]]; then return; fi
  log "installing uv $UV_VERSION into .local/uv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "uv==$UV_VERSION" || die "installing uv failed"
}

# The flux engine (torch, diffusers, peft: several GB with torch's CUDA libraries) gets a
# virtualenv of its own, made only where it is needed: `npm test` (its tests) and a worker with
# ENGINE_KIND=flux, never a studio-only `npm start`. uv installs it from its cache in
# .local/uv-cache, hard-linking each file into the venv, so only the first install downloads and a
# rebuild takes seconds. Rebuilt when its lock or the engine's pyproject.toml changes.
ensure_flux_engine() {
  local venv="$ENGINE_DIR/.venv-flux" stamp
  command -v python3 >/dev/null || die "Python 3.11 is required (python3 not found)"
  stamp="$(cat "$ENGINE_DIR/requirements-flux.lock" "$ENGINE_DIR/requirements-dev.lock" "$ENGINE_DIR/pyproject.toml" | sha256sum | cut -c1-16)"
  if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.stamp" 2>/dev/null)" = "$stamp" ]; then return; fi
  ensure_uv
  log "creating the flux engine's Python virtualenv (torch, diffusers, peft)"
  # uv verifies TLS with the system's certificates (as pip does here), and caches in .local.
  export UV_CACHE_DIR="${UV_CACHE_DIR:-$LOCAL/uv-cache}" UV_NATIVE_TLS=1
  rm -rf "$venv"
  "$UV" venv -q --python "$(command -v python3)" "$venv"
  # With the engine's checks (ruff, mypy: requirements-dev.lock), so that mypy sees torch's types.
  VIRTUAL_ENV="$venv" "$UV" pip sync -q "$ENGINE_DIR/requirements-flux.lock" "$ENGINE_DIR/requirements-dev.lock" ||
    die "installing the flux engine's dependencies failed (apps/worker/engine/requirements-flux.lock, requirements-dev.lock)"
  VIRTUAL_ENV="$venv" "$UV" pip install -q --no-deps -e "$ENGINE_DIR" ||
    die "installing the engine package into the flux virtualenv failed"
  echo "$stamp" >"$venv/.stamp"
}
export FLUX_ENGINE_PYTHON="$ENGINE_DIR/.venv-flux/bin/python"

pg_bindir() {
  local d
  d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  # `return 0`, not `return`: called from an EXIT trap, a bare return answers the status the
  # shell was exiting with.
  if [ -n "$d" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
  command -v pg_ctl >/dev/null && dirname "$(command -v pg_ctl)" && return 0
  return 1
}

# Runs a Postgres binary as the postgres system user when we are root (Postgres refuses root).
as_pg() {
  if is_root; then runuser -u postgres -- "$@"; else "$@"; fi
}

ensure_postgres() {
  if [ -n "${DATABASE_URL:-}" ]; then
    log "using DATABASE_URL from the environment"
    return
  fi
  local bin data="$LOCAL/postgres" socket="$LOCAL/postgres-run"
  if ! bin="$(pg_bindir)"; then
    apt_install postgresql postgresql-client ||
      die "PostgreSQL is not installed. Install it (Debian: sudo apt-get install postgresql) or set DATABASE_URL."
    bin="$(pg_bindir)" || die "PostgreSQL installed but pg_ctl was not found"
  fi
  mkdir -p "$socket"
  if is_root; then
    chown postgres:postgres "$socket"
    runuser -u postgres -- test -w "$socket" ||
      die "the postgres user cannot write to $socket: move the project to a directory it can traverse, or set DATABASE_URL"
  fi
  if [ ! -f "$data/PG_VERSION" ]; then
    log "initialising a local Postgres cluster in .local/postgres"
    mkdir -p "$data"
    is_root && chown postgres:postgres "$data"
    as_pg "$bin/initdb" -D "$data" -U studioshot -A trust -E UTF8 --no-locale >/dev/null
  fi
  if ! as_pg "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    port_free "$PG_PORT" || die "port $PG_PORT is taken by another program: stop it, or choose another port with STUDIOSHOT_PG_PORT"
    log "starting Postgres on 127.0.0.1:$PG_PORT"
    as_pg "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 \
      -o "-p $PG_PORT -k $socket -c listen_addresses=127.0.0.1 -c max_connections=300" start >/dev/null ||
      die "Postgres did not start; see .local/postgres/server.log"
    STARTED_SERVICES+=(postgres)
  fi
  if ! "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U studioshot -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname = 'studioshot'" | grep -q 1; then
    "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U studioshot -d postgres -qc "CREATE DATABASE studioshot" >/dev/null
  fi
  export DATABASE_URL="postgres://studioshot@127.0.0.1:$PG_PORT/studioshot"
  # Tests create and drop their own databases through the maintenance database.
  export STUDIOSHOT_PG_ADMIN_URL="postgres://studioshot@127.0.0.1:$PG_PORT/postgres"
}

ensure_redis() {
  if [ -n "${REDIS_URL:-}" ]; then
    log "using REDIS_URL from the environment"
    return
  fi
  if ! command -v redis-server >/dev/null; then
    apt_install redis-server ||
      die "Redis is not installed. Install it (Debian: sudo apt-get install redis-server) or set REDIS_URL."
  fi
  local dir="$LOCAL/redis"
  mkdir -p "$dir"
  # Reuse only our own server (its pid file is alive); anything else on the port is a conflict.
  if ! { kill -0 "$(cat "$dir/redis.pid" 2>/dev/null)" 2>/dev/null && redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; }; then
    port_free "$REDIS_PORT" || die "port $REDIS_PORT is taken by another program: stop it, or choose another port with STUDIOSHOT_REDIS_PORT"
    log "starting Redis on 127.0.0.1:$REDIS_PORT"
    # Append-only file: queued jobs survive a Redis restart.
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$dir" --daemonize yes \
      --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --appendonly yes \
      --appendfsync everysec --maxmemory-policy noeviction >/dev/null
    for _ in $(seq 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
    redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 || die "Redis did not start; see .local/redis/redis.log"
    STARTED_SERVICES+=(redis)
  fi
  export REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
}

# Secrets for local use, generated once and kept in .local so sessions survive restarts.
ensure_local_secrets() {
  local file="$LOCAL/secrets.env"
  if [ ! -f "$file" ]; then
    # Only this file is private: a umask left on the shell would make every later file (a test's
    # temporary web root, say) unreadable to other users.
    (
      umask 077
      printf 'JWT_SECRET=%s\n' "$(node -e 'console.log(require("crypto").randomBytes(48).toString("base64url"))')" >"$file"
    )
  fi
  set -a
  # shellcheck disable=SC1090
  source "$file"
  set +a
}

export_version() {
  APP_VERSION="$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
  export APP_VERSION
}

provision() {
  ensure_node
  ensure_workspace
  ensure_engine
  # A flux worker runs in the flux engine's virtualenv; a studio one never installs it.
  if [ "${ENGINE_KIND:-studio}" = flux ]; then
    ensure_flux_engine
    export ENGINE_PYTHON="$FLUX_ENGINE_PYTHON"
  fi
  ensure_postgres
  ensure_redis
  ensure_local_secrets
  export_version
}

# An S3-compatible server for the storage tests (`npm test` only): moto's server mode, from PyPI,
# in its own virtualenv under .local/s3-test, listening on 127.0.0.1 (STUDIOSHOT_S3_TEST_PORT,
# default 59000). Exports S3_TEST_ENDPOINT; one given in the environment is used as it is.
# Objects live in the server's memory; each test run makes its own bucket and removes it.
ensure_s3_test_server() {
  if [ -n "${S3_TEST_ENDPOINT:-}" ]; then
    log "using S3_TEST_ENDPOINT from the environment"
    return
  fi
  local dir="$LOCAL/s3-test" port="${STUDIOSHOT_S3_TEST_PORT:-59000}"
  local venv="$LOCAL/s3-test/venv" stamp
  local reqs=("moto[s3]==5.2.5" "flask==3.1.3" "flask-cors==6.0.5")
  command -v python3 >/dev/null || die "Python 3.11 is required (python3 not found)"
  stamp="$(printf '%s\n' "${reqs[@]}" | sha256sum | cut -c1-16)"
  if ! [ -x "$venv/bin/moto_server" ] || [ "$(cat "$venv/.stamp" 2>/dev/null)" != "$stamp" ]; then
    log "installing the S3 test server (moto) into .local/s3-test"
    if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then
      apt_install python3-venv || die "python3 venv support is missing: apt-get install python3-venv"
    fi
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "${reqs[@]}" ||
      die "installing moto (the S3 test server) failed"
    echo "$stamp" >"$venv/.stamp"
  fi
  local url="http://127.0.0.1:$port"
  # As S3 does, the server answers a page's cross-origin requests only as the bucket's CORS rule
  # says (moto's default allows every origin), so a browser test sees a bucket without the rule.
  local settings="MOTO_DISABLE_GLOBAL_CORS=true"
  s3_test_up() { "$venv/bin/python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' "$url/moto-api/" >/dev/null 2>&1; }
  # Reuse only our own server (its pid file is alive), restarted if it was started with other
  # settings; anything else on the port is a conflict.
  if kill -0 "$(cat "$dir/server.pid" 2>/dev/null)" 2>/dev/null && s3_test_up &&
    [ "$(cat "$dir/server.settings" 2>/dev/null)" != "$settings" ]; then
    log "restarting the S3 test server with $settings"
    stop_pid_file "$dir/server.pid"
  fi
  if ! { kill -0 "$(cat "$dir/server.pid" 2>/dev/null)" 2>/dev/null && s3_test_up; }; then
    port_free "$port" || die "port $port is taken by another program: stop it, or choose another port with STUDIOSHOT_S3_TEST_PORT"
    log "starting the S3 test server on 127.0.0.1:$port"
    env "$settings" nohup "$venv/bin/moto_server" -H 127.0.0.1 -p "$port" >"$dir/server.log" 2>&1 </dev/null &
    echo $! >"$dir/server.pid"
    echo "$settings" >"$dir/server.settings"
    for _ in $(seq 100); do s3_test_up && break; sleep 0.1; done
    s3_test_up || die "the S3 test server did not start; see .local/s3-test/server.log"
    STARTED_SERVICES+=(s3-test)
  fi
  export S3_TEST_ENDPOINT="$url"
}

# schemathesis, the property-based API fuzzer the API's fuzz test runs (`npm test` only;
# apps/api/test/fuzz.test.ts): a virtualenv of its own in .local/schemathesis from the pinned,
# hashed apps/api/test/fuzz/requirements.lock, installed with uv (pinned, .local/uv) from its cache
# in .local/uv-cache. Rebuilt only when the lock changes. Exports SCHEMATHESIS, its command.
ensure_schemathesis() {
  local venv="$LOCAL/schemathesis" lock="$ROOT/apps/api/test/fuzz/requirements.lock" stamp
  command -v python3 >/dev/null || die "Python 3.11 is required (python3 not found)"
  stamp="$(sha256sum "$lock" | cut -c1-16)"
  if ! [ -x "$venv/bin/schemathesis" ] || [ "$(cat "$venv/.stamp" 2>/dev/null)" != "$stamp" ]; then
    ensure_uv
    log "installing schemathesis (the API fuzzer) into .local/schemathesis"
    export UV_CACHE_DIR="${UV_CACHE_DIR:-$LOCAL/uv-cache}" UV_NATIVE_TLS=1
    rm -rf "$venv"
    "$UV" venv -q --python "$(command -v python3)" "$venv"
    VIRTUAL_ENV="$venv" "$UV" pip sync -q "$lock" ||
      die "installing schemathesis failed (apps/api/test/fuzz/requirements.lock)"
    echo "$stamp" >"$venv/.stamp"
  fi
  export SCHEMATHESIS="$venv/bin/schemathesis"
}

# The offline check of infra/k8s (`npm test` only; infra/k8s/test/validate.py): kustomize builds
# every overlay, kubernetes-validate checks each object against the schemas of the oldest
# Kubernetes the README supports, and KEDA's own ScaledObject CRD, taken from KEDA's Go module,
# checks the ScaledObjects. Everything is pinned and kept in .local (the venv, the kustomize binary,
# the CRD file), so only the first run downloads: about 40 MB, and a one-off build of kustomize.
K8S_OLDEST_VERSION="1.33.0"
KEDA_VERSION="v2.20.2"
KUSTOMIZE_VERSION="v5.7.1"
ensure_k8s_validation() {
  local venv="$LOCAL/k8s-validate" lock="$ROOT/infra/k8s/test/requirements.lock" stamp
  command -v python3 >/dev/null || die "Python 3.11 is required (python3 not found)"
  stamp="$(sha256sum "$lock" | cut -c1-16)"
  if ! [ -x "$venv/bin/python" ] || [ "$(cat "$venv/.stamp" 2>/dev/null)" != "$stamp" ]; then
    ensure_uv
    log "installing kubernetes-validate into .local/k8s-validate"
    export UV_CACHE_DIR="${UV_CACHE_DIR:-$LOCAL/uv-cache}" UV_NATIVE_TLS=1
    rm -rf "$venv"
    "$UV" venv -q --python "$(command -v python3)" "$venv"
    VIRTUAL_ENV="$venv" "$UV" pip sync -q "$lock" ||
      die "installing kubernetes-validate failed (infra/k8s/test/requirements.lock): PyPI is needed once"
    echo "$stamp" >"$venv/.stamp"
  fi
  go_install_pinned kustomize sigs.k8s.io/kustomize/kustomize/v5 "$KUSTOMIZE_VERSION" go1.22.7
  local dir="$LOCAL/kustomize" go_cmd
  local keda="$LOCAL/keda" crd="$LOCAL/keda/keda.sh_scaledobjects-$KEDA_VERSION.yaml" module
  if ! [ -f "$crd" ]; then
    log "fetching KEDA $KEDA_VERSION's ScaledObject CRD into .local/keda (its Go module)"
    go_cmd="$(go_at_least go1.22.7 go1.22.12 "$keda" "KEDA's CRD")"
    mkdir -p "$keda"
    module="$(GOTOOLCHAIN=local GOPATH="$keda/go" GOFLAGS=-modcacherw \
      "$go_cmd" mod download -json "github.com/kedacore/keda/v2@$KEDA_VERSION" |
      sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
    [ -n "$module" ] && [ -f "$module/config/crd/bases/keda.sh_scaledobjects.yaml" ] ||
      die "fetching github.com/kedacore/keda/v2@$KEDA_VERSION failed: the Go module proxy is needed once (offline?)"
    cp "$module/config/crd/bases/keda.sh_scaledobjects.yaml" "$crd.tmp" && mv "$crd.tmp" "$crd"
    rm -rf "$keda/go"
  fi
  export KUSTOMIZE="$dir/bin/kustomize" KEDA_SCALEDOBJECT_CRD="$crd"
  export K8S_VALIDATE_PYTHON="$venv/bin/python"
}

# nginx, for the API test that runs the shipped infra/nginx.conf (apps/api/test/metrics-private):
# Debian's, the same 1.22 as docker-compose.yml's image. Only the binary is used; no service runs.
ensure_nginx() {
  [ -x "${NGINX_PATH:-/usr/sbin/nginx}" ] && return
  apt_install nginx || die "nginx is needed for the API's tests. Install it (Debian: sudo apt-get install nginx) or set NGINX_PATH."
}

# promtool, Prometheus's rule checker, for the alerts' test (apps/api/test/alerts.test.ts): Debian's
# prometheus package carries it (no Prometheus server is started). Exports PROMTOOL.
ensure_promtool() {
  if [ -z "${PROMTOOL:-}" ]; then
    command -v promtool >/dev/null || apt_install prometheus ||
      die "promtool is needed for the alerts' test. Install it (Debian: sudo apt-get install prometheus) or set PROMTOOL."
    PROMTOOL="$(command -v promtool)"
  fi
  export PROMTOOL
}

# stripe-mock, Stripe's own stand-in for its API (a Go program), for the Stripe-mode tests
# (`npm test` only): built with `go install` from the Go module proxy into .local/stripe-mock,
# pinned, and rebuilt only when the pin changes. Listens on 127.0.0.1 (STUDIOSHOT_STRIPE_MOCK_PORT,
# default 59200; its HTTPS side on a socket in that folder). Exports STRIPE_MOCK_URL; one given in
# the environment is used as it is. stripe-mock keeps no state: the tests replay signed webhook
# events for what happens after a call.
STRIPE_MOCK_VERSION="v0.203.0"
# The Go that builds it when the machine's own is missing or too old (stripe-mock needs 1.22):
# Go's toolchains are modules on the same proxy.
STRIPE_MOCK_GO_TOOLCHAIN="go1.22.12"

# A Go command of at least version $1 (go1.22), printed; installs Debian's golang-go when there is
# none, and fetches toolchain $2 into folder $3 when the one found is older. $4 names what needs it.
go_at_least() {
  local minimum="$1" wanted="$2" dir="$3" purpose="$4" go_cmd version toolchain
  go_cmd="$(command -v go || true)"
  [ -z "$go_cmd" ] && [ -x /usr/local/go/bin/go ] && go_cmd=/usr/local/go/bin/go
  if [ -z "$go_cmd" ]; then
    apt_install golang-go >&2 || die "Go is needed to build $purpose: install it (https://go.dev/dl, Debian: apt-get install golang-go)"
    go_cmd="$(command -v go)"
  fi
  # `go version` prints "go version go1.26.8 linux/amd64".
  version="$("$go_cmd" version | awk '{print $3}')"
  if printf '%s\n%s\n' "$minimum" "$version" | sort -V -C; then
    echo "$go_cmd"
    return
  fi
  # An older Go (Debian 12 has 1.19) cannot read newer go.mod files, but can fetch a newer Go.
  toolchain="golang.org/toolchain@v0.0.1-$wanted.linux-$("$go_cmd" env GOARCH)"
  log "fetching Go $wanted (found $version) to build $purpose" >&2
  local root
  root="$(GOPATH="$dir/go" GOFLAGS=-modcacherw "$go_cmd" mod download -json "$toolchain" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
  [ -n "$root" ] || die "fetching $toolchain from the Go module proxy failed"
  # Module files come without execute bits; the go command restores them for its toolchains.
  chmod +x "$root/bin/"* "$root/pkg/tool/"*/*
  echo "$root/bin/go"
}

# Go program $1, the package $2 at version $3, built with `go install` from the Go module proxy into
# .local/$1/bin unless that version is there already (.local/$1/.stamp); $4 is the oldest Go that
# builds it. Its own module and build caches are deleted afterwards: only the binary is kept.
go_install_pinned() {
  local name="$1" package="$2" version="$3" minimum="$4" dir="$LOCAL/$1" go_cmd
  [ -x "$dir/bin/$name" ] && [ "$(cat "$dir/.stamp" 2>/dev/null)" = "$version" ] && return
  log "installing $name $version into .local/$name (go install)"
  go_cmd="$(go_at_least "$minimum" go1.22.12 "$dir" "$name")"
  rm -rf "$dir/bin" "$dir/.stamp"
  mkdir -p "$dir"
  GOTOOLCHAIN=local GOBIN="$dir/bin" GOPATH="$dir/go" GOCACHE="$dir/go-build" GOFLAGS=-modcacherw \
    "$go_cmd" install "$package@$version" ||
    die "installing $name failed (go install $package@$version): the Go module proxy is needed once"
  rm -rf "$dir/go" "$dir/go-build"
  echo "$version" >"$dir/.stamp"
}

# vegeta, a constant-rate HTTP load generator (a Go program), for the profile bench's paced runs
# (bench/run.sh only), pinned. Exports VEGETA, the binary; one given in the environment is used as
# it is.
VEGETA_VERSION="v12.12.0"
ensure_vegeta() {
  if [ -z "${VEGETA:-}" ]; then
    go_install_pinned vegeta github.com/tsenart/vegeta/v12 "$VEGETA_VERSION" go1.22
    VEGETA="$LOCAL/vegeta/bin/vegeta"
  fi
  export VEGETA
}

ensure_stripe_mock() {
  if [ -n "${STRIPE_MOCK_URL:-}" ]; then
    log "using STRIPE_MOCK_URL from the environment"
    return
  fi
  local dir="$LOCAL/stripe-mock" port="${STUDIOSHOT_STRIPE_MOCK_PORT:-59200}"
  local bin="$LOCAL/stripe-mock/bin/stripe-mock" fixtures="$LOCAL/stripe-mock/fixtures.json"
  if ! [ -x "$bin" ] || ! [ -f "$fixtures" ] || [ "$(cat "$dir/.stamp" 2>/dev/null)" != "$STRIPE_MOCK_VERSION" ]; then
    log "installing stripe-mock $STRIPE_MOCK_VERSION into .local/stripe-mock (go install)"
    local go_cmd module
    go_cmd="$(go_at_least go1.22 "$STRIPE_MOCK_GO_TOOLCHAIN" "$dir" stripe-mock)"
    rm -rf "$dir/bin" "$dir/.stamp"
    mkdir -p "$dir"
    # Its own module and build caches, deleted afterwards: only the binary and fixtures are kept.
    GOTOOLCHAIN=local GOBIN="$dir/bin" GOPATH="$dir/go" GOCACHE="$dir/go-build" GOFLAGS=-modcacherw \
      "$go_cmd" install "github.com/stripe/stripe-mock@$STRIPE_MOCK_VERSION" ||
      die "installing stripe-mock failed (go install github.com/stripe/stripe-mock@$STRIPE_MOCK_VERSION)"
    module="$dir/go/pkg/mod/github.com/stripe/stripe-mock@$STRIPE_MOCK_VERSION"
    # The bundled sample objects, plus what Stripe adds to an invoice when asked to expand
    # `confirmation_secret` (the client secret of the invoice's PaymentIntent), which the bundled
    # invoice lacks: a subscription's first payment is confirmed in the browser with it.
    node -e '
      const fs = require("fs");
      const f = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
      f.resources.invoice.confirmation_secret = {
        client_secret: f.resources.payment_intent.client_secret,
        type: "payment_intent",
      };
      fs.writeFileSync(process.argv[2], JSON.stringify(f));
    ' "$module/embedded/openapi/fixtures3.json" "$fixtures" || die "preparing stripe-mock's fixtures failed"
    rm -rf "$dir/go" "$dir/go-build"
    echo "$STRIPE_MOCK_VERSION" >"$dir/.stamp"
  fi
  local url="http://127.0.0.1:$port"
  stripe_mock_up() {
    node -e 'fetch(process.argv[1] + "/v1/balance", { headers: { Authorization: "Bearer sk_test_provisioning" } }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$url"
  }
  # Reuse only our own server (its pid file is alive); anything else on the port is a conflict.
  if ! { kill -0 "$(cat "$dir/server.pid" 2>/dev/null)" 2>/dev/null && stripe_mock_up; }; then
    port_free "$port" || die "port $port is taken by another program: stop it, or choose another port with STUDIOSHOT_STRIPE_MOCK_PORT"
    log "starting stripe-mock on 127.0.0.1:$port"
    rm -f "$dir/https.sock"
    nohup "$bin" -http-addr "127.0.0.1:$port" -https-unix "$dir/https.sock" -fixtures "$fixtures" \
      >"$dir/server.log" 2>&1 </dev/null &
    echo $! >"$dir/server.pid"
    for _ in $(seq 100); do stripe_mock_up && break; sleep 0.1; done
    stripe_mock_up || die "stripe-mock did not start; see .local/stripe-mock/server.log"
    STARTED_SERVICES+=(stripe-mock)
  fi
  export STRIPE_MOCK_URL="$url"
}

# Docker for the container test (`npm test` only; e2e/containers): the images are built from
# infra/Dockerfile and run with docker-compose.yml. Where DOCKER_HOST names a daemon (a CI job
# container given the runner's socket), that daemon is used and left running. Otherwise, as root
# with apt: Debian's docker.io, a dockerd of our own with its data (the layer cache) in one fixed
# folder outside the clone, and Compose v2 built from its Go module (Debian's 1.29 cannot read the
# compose file's top-level `name:`). Exports STUDIOSHOT_DOCKER and STUDIOSHOT_COMPOSE, the
# commands to run; or STUDIOSHOT_CONTAINER_TEST_SKIP with the reason there is no Docker.
STUDIOSHOT_DOCKER_DIR="${STUDIOSHOT_DOCKER_DIR:-/var/lib/studioshot-docker}"
COMPOSE_VERSION="v2.40.3"
COMPOSE_GO_TOOLCHAIN="go1.24.9"
# What a cold build needs in the folder's file system: the base images, the build stage, the
# images and a layer cache (about 6 GB measured), with room to spare.
DOCKER_DISK_NEEDED_GB=12
STARTED_DOCKERD=""

# `npm test` starts the Compose build at its beginning, in the background at the lowest CPU
# priority: the module download and much of the compiling overlap the other suites, on the CPU
# they leave idle, and the container step waits for whatever is left. Only where the container
# test will run (as ensure_docker decides) and a Go is at hand (installing one would hold apt's
# lock, which the foreground needs). Stopped with the run's services if the run ends first.
COMPOSE_BUILD_PID=""
start_compose_build() {
  [ -x "$STUDIOSHOT_DOCKER_DIR/tools/docker-compose-$COMPOSE_VERSION" ] && return 0
  [ -n "${DOCKER_HOST:-}" ] || { is_root && command -v apt-get >/dev/null; } || return 0
  command -v go >/dev/null || [ -x /usr/local/go/bin/go ] || return 0
  mkdir -p "$STUDIOSHOT_DOCKER_DIR/tools"
  log "building Docker Compose $COMPOSE_VERSION in the background ($STUDIOSHOT_DOCKER_DIR/tools/build.log)"
  # Its own process group, so that stopping it stops the compilers it runs too.
  setsid nice -n 19 bash -c 'source "$1/scripts/lib.sh" && ensure_compose' compose-build "$ROOT" \
    >"$STUDIOSHOT_DOCKER_DIR/tools/build.log" 2>&1 </dev/null &
  COMPOSE_BUILD_PID=$!
}

stop_compose_build() {
  [ -n "$COMPOSE_BUILD_PID" ] || return 0
  if kill -0 "$COMPOSE_BUILD_PID" 2>/dev/null; then
    log "stopping the Docker Compose build started in the background"
    kill -- "-$COMPOSE_BUILD_PID" 2>/dev/null || kill "$COMPOSE_BUILD_PID" 2>/dev/null || true
  fi
  wait "$COMPOSE_BUILD_PID" 2>/dev/null || true
  COMPOSE_BUILD_PID=""
}

ensure_compose() {
  local tools="$STUDIOSHOT_DOCKER_DIR/tools" go_cmd module
  local bin="$tools/docker-compose-$COMPOSE_VERSION"
  if [ -n "$COMPOSE_BUILD_PID" ]; then
    log "waiting for the Docker Compose build started in the background"
    # Now nothing else runs: what is left of it builds at the usual priority (root may raise it).
    renice -n 0 -g "$COMPOSE_BUILD_PID" >/dev/null 2>&1 || true
    # Should it have failed, the build below runs again in the foreground and shows why.
    wait "$COMPOSE_BUILD_PID" || log "the background build of Docker Compose failed; building it again"
    COMPOSE_BUILD_PID=""
  fi
  if ! [ -x "$bin" ]; then
    log "building Docker Compose $COMPOSE_VERSION into $tools (go build, once)"
    go_cmd="$(go_at_least go1.24 "$COMPOSE_GO_TOOLCHAIN" "$tools" "Docker Compose")"
    module="$(GOTOOLCHAIN=local GOPATH="$tools/go" GOFLAGS=-modcacherw "$go_cmd" mod download -json \
      "github.com/docker/compose/v2@$COMPOSE_VERSION" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
    [ -n "$module" ] || die "fetching github.com/docker/compose/v2@$COMPOSE_VERSION failed"
    # `go install` refuses the module (its go.mod has replace directives): build a copy of it.
    rm -rf "$tools/src"
    cp -r "$module" "$tools/src"
    chmod -R u+w "$tools/src"
    # As Compose's own release build: no cgo, no symbol tables or debug information (a smaller
    # binary, linked sooner), and the version it reports.
    (cd "$tools/src" && CGO_ENABLED=0 GOTOOLCHAIN=local GOPATH="$tools/go" GOCACHE="$tools/go-build" GOFLAGS=-modcacherw \
      "$go_cmd" build -trimpath -ldflags "-s -w -X github.com/docker/compose/v2/internal.Version=$COMPOSE_VERSION" \
      -o "$bin.partial" ./cmd) || die "building Docker Compose failed"
    mv "$bin.partial" "$bin"
    rm -rf "$tools/src" "$tools/go" "$tools/go-build"
  fi
  STUDIOSHOT_COMPOSE="$bin"
}

stop_dockerd() {
  [ -n "$STARTED_DOCKERD" ] || return 0
  log "stopping the Docker daemon the container test started"
  kill "$STARTED_DOCKERD" 2>/dev/null || true
  for _ in $(seq 300); do kill -0 "$STARTED_DOCKERD" 2>/dev/null || break; sleep 0.1; done
  STARTED_DOCKERD=""
}

ensure_docker() {
  unset STUDIOSHOT_CONTAINER_TEST_SKIP
  if [ -n "${DOCKER_HOST:-}" ]; then
    log "using the Docker daemon at DOCKER_HOST ($DOCKER_HOST)"
    [ -x /usr/bin/docker ] || apt_install docker.io || true
    STUDIOSHOT_DOCKER=/usr/bin/docker
    [ -x "$STUDIOSHOT_DOCKER" ] || STUDIOSHOT_DOCKER="$(command -v docker || true)"
  else
    if ! is_root || ! command -v apt-get >/dev/null; then
      STUDIOSHOT_CONTAINER_TEST_SKIP="installing and starting Docker needs root and apt-get (or set DOCKER_HOST to a running daemon)"
      export STUDIOSHOT_CONTAINER_TEST_SKIP
      log "container test: $STUDIOSHOT_CONTAINER_TEST_SKIP"
      return
    fi
    # Debian's client: another `docker` earlier on PATH may have no daemon or plugins.
    [ -x /usr/sbin/dockerd ] && [ -x /usr/bin/docker ] || apt_install docker.io || die "installing docker.io failed"
    command -v debootstrap >/dev/null || apt_install debootstrap || die "installing debootstrap failed"
    STUDIOSHOT_DOCKER=/usr/bin/docker
    mkdir -p "$STUDIOSHOT_DOCKER_DIR/data"
    local free_gb
    free_gb="$(df -P -BG "$STUDIOSHOT_DOCKER_DIR" | awk 'NR==2 {print int($4)}')"
    [ "$free_gb" -ge "$DOCKER_DISK_NEEDED_GB" ] ||
      die "the container test needs ${DOCKER_DISK_NEEDED_GB} GB free for Docker's data in $STUDIOSHOT_DOCKER_DIR; ${free_gb} GB are free (set STUDIOSHOT_DOCKER_DIR elsewhere, or free space)"
    local run=/run/studioshot-docker
    export DOCKER_HOST="unix://$run/docker.sock"
    mkdir -p "$run"
    if ! "$STUDIOSHOT_DOCKER" version >/dev/null 2>&1; then
      log "starting a Docker daemon (data in $STUDIOSHOT_DOCKER_DIR/data)"
      rm -f "$run/docker.sock" "$run/dockerd.pid"
      nohup /usr/sbin/dockerd --data-root "$STUDIOSHOT_DOCKER_DIR/data" --exec-root "$run/exec" \
        --pidfile "$run/dockerd.pid" -H "$DOCKER_HOST" >"$STUDIOSHOT_DOCKER_DIR/dockerd.log" 2>&1 </dev/null &
      STARTED_DOCKERD=$!
      for _ in $(seq 300); do "$STUDIOSHOT_DOCKER" version >/dev/null 2>&1 && break; sleep 0.1; done
      "$STUDIOSHOT_DOCKER" version >/dev/null 2>&1 || die "dockerd did not start; see $STUDIOSHOT_DOCKER_DIR/dockerd.log"
    fi
  fi
  [ -n "$STUDIOSHOT_DOCKER" ] || die "DOCKER_HOST is set but there is no docker client on PATH"
  ensure_compose
  # Compose builds with the daemon's own BuildKit (no buildx plugin here).
  export STUDIOSHOT_DOCKER STUDIOSHOT_COMPOSE DOCKER_HOST COMPOSE_BAKE=false
}

stop_started_services() {
  local i service bin
  # A second Ctrl-C (or the caller's SIGTERM) must not cut a stop short: ignored here, and by the
  # stop commands, which inherit it.
  trap '' INT TERM
  for ((i = ${#STARTED_SERVICES[@]} - 1; i >= 0; i--)); do
    service="${STARTED_SERVICES[$i]}"
    log "stopping $service (started by this run)"
    case "$service" in
      postgres)
        bin="$(pg_bindir)" && as_pg "$bin/pg_ctl" -D "$LOCAL/postgres" -m fast -w stop >/dev/null ;;
      redis) stop_pid_file "$LOCAL/redis/redis.pid" ;;
      s3-test) stop_pid_file "$LOCAL/s3-test/server.pid" ;;
      stripe-mock) stop_pid_file "$LOCAL/stripe-mock/server.pid" ;;
    esac
  done
  STARTED_SERVICES=()
  stop_compose_build
  stop_dockerd
}
