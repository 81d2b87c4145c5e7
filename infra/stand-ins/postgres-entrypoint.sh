#!/bin/sh
# What the official image's entrypoint does for our compose file: a first start creates the
# cluster with POSTGRES_USER's password and POSTGRES_DB, open to the compose network by password.
set -eu
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
# Only a server start initialises (not `postgres --version`), as in the official image.
if [ "${1:-}" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ] && ! printf '%s\n' "$@" | grep -qxE -- '--version|-V|--help|-\?'; then
  pwfile="$(mktemp)"
  printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" >"$pwfile"
  # Trust on the local socket and loopback, a password from anywhere else, as there.
  initdb -D "$PGDATA" -U "${POSTGRES_USER:-postgres}" --pwfile="$pwfile" -E UTF8 --no-locale >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.auto.conf"
  # POSTGRES_DB defaults to the user's name; initdb makes only `postgres`.
  db="${POSTGRES_DB:-${POSTGRES_USER:-postgres}}"
  if [ "$db" != postgres ]; then
    echo "CREATE DATABASE \"$db\";" | postgres --single -D "$PGDATA" postgres >/dev/null
  fi
fi
exec "$@"
