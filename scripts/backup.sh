#!/usr/bin/env bash
# Backs up, or restores, a compose deployment's data together: the Postgres database (pg_dump's
# custom format) and the stored objects (the `storage` volume: photos, models, headshots), so that
# every row names objects the backup holds. Redis holds only the queue: jobs running during a
# backup are not in it (a restored training or generation in flight fails and gives back its
# slot or credits when no worker picks it up).
#
#   scripts/backup.sh backup  <folder>   # writes <folder>/postgres.dump and <folder>/storage.tar
#   scripts/backup.sh restore <folder>   # replaces the database and the stored objects with them
#
# Run it where you run compose; COMPOSE is the compose command (default: docker compose) with
# any -p/-f/--env-file arguments your deployment uses. With STORAGE_DRIVER=s3, back up the bucket
# with your provider's tools (versioning or a replica) instead; this script then dumps Postgres.
set -euo pipefail
read -r -a compose <<<"${COMPOSE:-docker compose}"
action="${1:-}"
folder="${2:-}"
[ -n "$folder" ] && { [ "$action" = backup ] || [ "$action" = restore ]; } ||
  { echo "usage: $0 backup|restore <folder>" >&2; exit 2; }
STORAGE=/var/lib/studioshot/storage
psql_user=(-U studioshot -d studioshot)

# A one-off container of the api image with the storage volume mounted (its own user owns it).
storage_shell() {
  "${compose[@]}" run --rm --no-deps -T --entrypoint sh api -c "$1"
}

case "$action" in
  backup)
    mkdir -p "$folder"
    # The database first: objects are written before the rows that name them and never changed,
    # so the copy of the storage taken after it holds everything the dump refers to.
    "${compose[@]}" exec -T postgres pg_dump "${psql_user[@]}" --format=custom >"$folder/postgres.dump.partial"
    mv "$folder/postgres.dump.partial" "$folder/postgres.dump"
    storage_shell "tar -C $STORAGE -cf - ." >"$folder/storage.tar.partial"
    mv "$folder/storage.tar.partial" "$folder/storage.tar"
    echo "backup: $folder/postgres.dump and $folder/storage.tar"
    ;;
  restore)
    for file in postgres.dump storage.tar; do
      [ -s "$folder/$file" ] || { echo "restore: $folder/$file is missing" >&2; exit 1; }
    done
    # Nothing may write while the data is replaced.
    "${compose[@]}" --profile gpu stop web api worker worker-flux
    "${compose[@]}" up --detach --wait postgres redis
    "${compose[@]}" exec -T postgres pg_restore "${psql_user[@]}" --clean --if-exists --no-owner \
      --single-transaction <"$folder/postgres.dump"
    storage_shell "find $STORAGE -mindepth 1 -delete && tar -C $STORAGE -xf -" <"$folder/storage.tar"
    # Jobs queued before the restore name rows that may no longer exist.
    "${compose[@]}" exec -T redis redis-cli FLUSHALL >/dev/null
    "${compose[@]}" up --detach
    echo "restore: done from $folder"
    ;;
esac
