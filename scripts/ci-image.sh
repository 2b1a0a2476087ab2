#!/usr/bin/env bash
# Builds packages/admin-api-server/Dockerfile (unchanged) with buildah and runs the image's entry
# command against the local PostgreSQL, printing each check:
#   /health answers, /v1/openapi.json answers, `/` serves the console (when the console is in the
#   image), the server runs as a non-root user, and SIGTERM ends it cleanly within 10 s.
# No Docker engine runs on CI machines and no image can be pulled, so when the real base image
# (node:20-bookworm-slim) is not in the local store, a stand-in is made under the same name from
# Debian packages (debootstrap) and this machine's Node 20, and cached in $CANOPY_CACHE_DIR
# (default /var/cache/canopy) between runs. Needs root (apt-get, debootstrap, buildah).
set -euo pipefail
cd "$(dirname "$0")/.."

BASE_IMAGE="docker.io/library/node:20-bookworm-slim"
IMAGE="localhost/canopy-admin-api:ci"
CACHE_DIR="${CANOPY_CACHE_DIR:-/var/cache/canopy}"
PG_URL_BASE="${CANOPY_IMAGE_PG:-postgres://postgres@127.0.0.1:5432}"
started=$SECONDS

step() { printf '\n==> image: %s\n' "$*"; }
pass() { printf '  ok   %s\n' "$*"; }
fail() {
  printf '  FAIL %s\n' "$*" >&2
  exit 1
}

step "tools (buildah, podman, debootstrap, docker-compose)"
missing=()
for tool in buildah podman debootstrap docker-compose; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing ${missing[*]}"
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi
buildah --version

step "deploy/compose.yaml against the Compose schema"
# `config` only parses, interpolates and validates: no engine is needed.
CANOPY_TOKEN_SIGNING_KEYS=ci POSTGRES_PASSWORD=ci \
  docker-compose -f packages/admin-api-server/deploy/compose.yaml config -q ||
  fail "deploy/compose.yaml is not a valid Compose file"
pass "deploy/compose.yaml is valid ($(docker-compose version --short))"

# The stand-in's recipe and the Node it carries decide whether the cached one is still right.
NODE_BIN="$(readlink -f "$(command -v node)")"
NODE_VERSION="$("$NODE_BIN" --version)"
case "$NODE_VERSION" in v20.*) ;; *) fail "the stand-in base needs Node 20; this machine has $NODE_VERSION" ;; esac
recipe_hash="$( (echo "$NODE_VERSION"; sed -n '/^make_stand_in()/,/^}/p' "$0") | sha256sum | cut -c1-12)"
STAND_IN_TAR="$CACHE_DIR/node-20-bookworm-slim-stand-in-$recipe_hash.tar"

# A root filesystem like node:20-bookworm-slim's: Debian bookworm (minbase), Node in /usr/local
# with npm and corepack, and the `node` user (uid 1000).
make_stand_in() {
  local root="$1"
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
  install -D -m 0755 "$NODE_BIN" "$root/usr/local/bin/node"
  mkdir -p "$root/usr/local/lib/node_modules"
  local global
  global="$(dirname "$NODE_BIN")/../lib/node_modules"
  cp -a "$global/npm" "$global/corepack" "$root/usr/local/lib/node_modules/"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  ln -sf ../lib/node_modules/corepack/dist/corepack.js "$root/usr/local/bin/corepack"
  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  rm -rf "$root/var/lib/apt/lists/"* "$root/var/cache/apt/"*.bin
}

step "base image $BASE_IMAGE"
# This machine reaches the npm registry through a proxy whose CA only its own trust store holds:
# the stand-in carries that bundle (NODE_EXTRA_CA_CERTS), as the host's Node does. The bundle
# changes apart from the Debian part, so it is a layer of its own, checked on every run.
CA_BUNDLE="${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}"
ca_hash="none"
[ -s "$CA_BUNDLE" ] && ca_hash="$(sha256sum <"$CA_BUNDLE" | cut -c1-12)"
stored_label="$(buildah inspect --type image --format '{{index .OCIv1.Config.Labels "canopy.stand-in"}}' "$BASE_IMAGE" 2>/dev/null || echo missing)"
if [ "$stored_label" != missing ] && { [ -z "$stored_label" ] || [ "$stored_label" = "$recipe_hash-$ca_hash" ]; }; then
  echo "in the local image store${stored_label:+ (stand-in $stored_label)}"
else
  mkdir -p "$CACHE_DIR"
  if [ ! -s "$STAND_IN_TAR" ]; then
    echo "making the stand-in (debootstrap bookworm minbase + Node $NODE_VERSION); cached as $STAND_IN_TAR"
    rootfs="$(mktemp -d /var/tmp/canopy-stand-in.XXXXXX)"
    make_stand_in "$rootfs"
    tar -C "$rootfs" -cf "$STAND_IN_TAR.partial" .
    mv "$STAND_IN_TAR.partial" "$STAND_IN_TAR"
    rm -rf "$rootfs"
  else
    echo "importing the cached stand-in $STAND_IN_TAR"
  fi
  podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=${NODE_VERSION#v}" \
    --change 'CMD ["node"]' \
    "$STAND_IN_TAR" localhost/canopy-stand-in:debian >/dev/null
  layer="$(buildah from --pull-never localhost/canopy-stand-in:debian)"
  if [ "$ca_hash" != none ]; then
    buildah copy "$layer" "$CA_BUNDLE" /etc/ssl/certs/ca-certificates.crt >/dev/null
    buildah config --env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt "$layer"
  fi
  buildah config --label "canopy.stand-in=$recipe_hash-$ca_hash" "$layer"
  buildah commit --rm "$layer" "$BASE_IMAGE" >/dev/null
  echo "stand-in committed as $BASE_IMAGE ($recipe_hash-$ca_hash)"
fi

step "buildah bud packages/admin-api-server/Dockerfile"
build_started=$SECONDS
buildah bud --isolation chroot --layers --pull=never --format docker \
  --ignorefile packages/admin-api-server/Dockerfile.dockerignore \
  -f packages/admin-api-server/Dockerfile -t "$IMAGE" .
echo "built $IMAGE in $((SECONDS - build_started)) s"

step "run the image's entry command against PostgreSQL"
container="$(buildah from --pull-never "$IMAGE")"
db="canopy_image_ci_$$"
runner=""
log="$(mktemp)"
cleanup() {
  if [ -n "$runner" ] && kill -0 "$runner" 2>/dev/null; then kill -KILL "$runner" 2>/dev/null || true; fi
  buildah rm "$container" >/dev/null 2>&1 || true
  psql "$PG_URL_BASE/postgres" -qc "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
  rm -f "$log"
}
trap cleanup EXIT
psql "$PG_URL_BASE/postgres" -qc "CREATE DATABASE $db"

inspect() { buildah inspect --type image --format "$1" "$IMAGE"; }
user="$(inspect '{{.OCIv1.Config.User}}')"
workdir="$(inspect '{{.OCIv1.Config.WorkingDir}}')"
mapfile -t cmd < <(inspect '{{range .OCIv1.Config.Cmd}}{{println .}}{{end}}' | sed '/^$/d')
echo "image user: $user, workdir: $workdir, command: ${cmd[*]}"
[ -n "$user" ] || fail "the image sets no USER"

port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
signing_key="ci:$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')"
# The image's own user, env and working directory (buildah run applies them); only the port,
# the loopback host and the secrets differ, as `docker run -e` would set them.
buildah run --isolation chroot \
  --env "PORT=$port" --env HOST=127.0.0.1 \
  --env "DATABASE_URL=$PG_URL_BASE/$db" \
  --env "CANOPY_TOKEN_SIGNING_KEYS=$signing_key" \
  "$container" -- "${cmd[@]}" >"$log" 2>&1 &
runner=$!

# The server process is the `node` descendant of buildah run (chroot isolation: same pid space).
server_pid=""
descendants() {
  local pid="$1" child
  for child in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do
    echo "$child"
    descendants "$child"
  done
}
for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then break; fi
  kill -0 "$runner" 2>/dev/null || { cat "$log"; fail "the server exited before answering"; }
  sleep 0.5
done
for pid in $(descendants "$runner"); do
  if [ "$(cat /proc/"$pid"/comm 2>/dev/null)" = node ]; then server_pid="$pid"; fi
done
[ -n "$server_pid" ] || { cat "$log"; fail "no node process under buildah run"; }

health="$(curl -fsS "http://127.0.0.1:$port/health")" || fail "GET /health"
[ "$health" = '{"status":"ok"}' ] || fail "GET /health answered $health"
pass "GET /health → 200 $health"

openapi_version="$(curl -fsS "http://127.0.0.1:$port/v1/openapi.json" | node -e \
  'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const d=JSON.parse(s);if(!d.openapi||!d.paths)process.exit(1);console.log(d.openapi+", "+Object.keys(d.paths).length+" paths")})')" ||
  fail "GET /v1/openapi.json is not an OpenAPI document"
pass "GET /v1/openapi.json → OpenAPI $openapi_version"

rootfs="$(buildah mount "$container")"
if [ -d "$rootfs$workdir/console" ] || [ -d "$rootfs$workdir/node_modules/@canopy/console" ]; then
  console_type="$(curl -fsS -H 'Accept: text/html' -o /dev/null -w '%{http_code} %{content_type}' "http://127.0.0.1:$port/")" ||
    fail "GET / (the console is in the image)"
  case "$console_type" in "200 text/html"*) ;; *) fail "GET / answered $console_type, not the console's HTML" ;; esac
  pass "GET / → $console_type (console)"
else
  pass "GET / not checked: the image has no console (packages/console is not in the workspace)"
fi
buildah umount "$container" >/dev/null

uid="$(awk '/^Uid:/ {print $2}' /proc/"$server_pid"/status)"
[ "$uid" != 0 ] || fail "the server runs as root"
pass "server process $server_pid runs as uid $uid ($user), not root"

term_at=$SECONDS
kill -TERM "$server_pid"
exited=""
for _ in $(seq 1 100); do
  if ! kill -0 "$runner" 2>/dev/null; then exited=yes; break; fi
  sleep 0.1
done
[ -n "$exited" ] || { cat "$log"; fail "still running 10 s after SIGTERM"; }
status=0
wait "$runner" || status=$?
runner=""
[ "$status" = 0 ] || { cat "$log"; fail "exit status $status after SIGTERM"; }
grep -q '"msg":"closed"' "$log" || { cat "$log"; fail "no 'closed' log line after SIGTERM"; }
pass "SIGTERM → exit 0 in $((SECONDS - term_at)) s (limit 10 s)"

printf '\nimage checks passed in %s s\n' "$((SECONDS - started))"
