# Stand-in for redis:7: Debian's Redis 7, run as the redis user in /data, as there. The official
# image builds Redis with protected mode off by default (the container's network is the
# boundary); a wrapper first on PATH does the same for Debian's build.
ARG DEBIAN_IMAGE
FROM ${DEBIAN_IMAGE}
RUN apt-get update && apt-get install -y --no-install-recommends redis-server \
  && rm -rf /var/lib/apt/lists/* && mkdir -p /data && chown redis:redis /data \
  && printf '%s\n' '#!/bin/sh' \
    'case "${1:-}" in -v|--version|-h|--help) exec /usr/bin/redis-server "$@" ;; -*|"") exec /usr/bin/redis-server --protected-mode no "$@" ;; esac' \
    'config="$1"; shift; exec /usr/bin/redis-server "$config" --protected-mode no "$@"' \
    >/usr/local/bin/redis-server \
  && chmod +x /usr/local/bin/redis-server
WORKDIR /data
USER redis
EXPOSE 6379
CMD ["redis-server"]
