# Stand-in for nginx:1.22: Debian's nginx 1.22 with the official image's layout (the `nginx`
# user, uid 101; /etc/nginx/mime.types; /usr/share/nginx/html).
ARG DEBIAN_IMAGE
FROM ${DEBIAN_IMAGE}
RUN apt-get update && apt-get install -y --no-install-recommends nginx-light \
  && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/* \
  && groupadd --system --gid 101 nginx \
  && useradd --system --uid 101 --gid nginx --no-create-home --home /nonexistent --shell /bin/false nginx \
  && mkdir -p /usr/share/nginx/html
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
