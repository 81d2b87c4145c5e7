#!/usr/bin/env bash
# Makes local stand-ins for the official base images the Dockerfiles and compose file name, for a
# machine that cannot reach a container registry: a Debian bookworm root made with debootstrap
# (needs root), then the same Node, PostgreSQL, Redis and nginx major versions on top of it,
# tagged studioshot-stand-in/<official name>:<tag>. Images already present are kept.
#
#   DOCKER="docker -H unix:///path/to.sock" bash infra/stand-ins/make-stand-ins.sh
#
# STAND_IN_DEBIAN_FROM=debian:bookworm takes the Debian base from a registry instead.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
read -r -a docker <<<"${DOCKER:-docker}"
PREFIX=studioshot-stand-in
DEBIAN_IMAGE="$PREFIX/debian:bookworm"
# Node 20 as node:20-bookworm-slim carries it, with the corepack release the Dockerfiles run.
NODE_VERSION=20.20.2
COREPACK_VERSION=0.34.0

has_image() { "${docker[@]}" image inspect "$1" >/dev/null 2>&1; }

if ! has_image "$DEBIAN_IMAGE" && [ -n "${STAND_IN_DEBIAN_FROM:-}" ]; then
  # Where a registry is reachable (a CI runner), Debian's own image is the same bookworm.
  echo "stand-ins: $STAND_IN_DEBIAN_FROM as the Debian base"
  "${docker[@]}" pull -q "$STAND_IN_DEBIAN_FROM" >/dev/null
  "${docker[@]}" tag "$STAND_IN_DEBIAN_FROM" "$DEBIAN_IMAGE"
fi
if ! has_image "$DEBIAN_IMAGE"; then
  command -v debootstrap >/dev/null || { echo "debootstrap is required (apt-get install debootstrap)" >&2; exit 1; }
  rootfs="$(mktemp -d)"
  trap 'rm -rf "$rootfs"' EXIT
  echo "stand-ins: debootstrap bookworm (minbase)"
  debootstrap --variant=minbase bookworm "$rootfs" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >/dev/null
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  # The builds inside reach the npm registry and PyPI through whatever this machine does: a
  # TLS-inspecting proxy's certificate authority, if it trusts one, is trusted there too.
  trust=()
  if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
    mkdir -p "$rootfs/etc/ssl/certs" "$rootfs/usr/local/share/ca-certificates"
    cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
    cp -r /usr/local/share/ca-certificates/. "$rootfs/usr/local/share/ca-certificates/" 2>/dev/null || true
    for name in NODE_EXTRA_CA_CERTS PIP_CERT SSL_CERT_FILE REQUESTS_CA_BUNDLE; do
      trust+=(--change "ENV $name=/etc/ssl/certs/ca-certificates.crt")
    done
  fi
  tar -C "$rootfs" -c . | "${docker[@]}" import "${trust[@]}" --change 'CMD ["bash"]' - "$DEBIAN_IMAGE" >/dev/null
  rm -rf "$rootfs"
  trap - EXIT
fi

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
pids=()
names=()
build() {
  local name="$1" dockerfile="$2"
  shift 2
  has_image "$PREFIX/$name" && return
  echo "stand-ins: building $PREFIX/$name"
  # The builds mostly wait on Debian's mirror: all at once.
  "${docker[@]}" build -q -t "$PREFIX/$name" -f "$here/$dockerfile" \
    --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE" "$@" "$here" >"$logs/${#names[@]}.log" 2>&1 &
  pids+=($!)
  names+=("$name")
}
build node:20-bookworm-slim node.Dockerfile \
  --build-arg "NODE_VERSION=$NODE_VERSION" --build-arg "COREPACK_VERSION=$COREPACK_VERSION"
build postgres:15 postgres.Dockerfile
build redis:7 redis.Dockerfile
build nginx:1.22 nginx.Dockerfile
failed=0
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    echo "stand-ins: building $PREFIX/${names[$i]} failed:" >&2
    cat "$logs/$i.log" >&2
    failed=1
  fi
done
exit "$failed"
