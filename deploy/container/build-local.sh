#!/usr/bin/env bash
# Builds the repository's Dockerfile with podman where no registry image can be pulled, on bases
# made from Debian's packages, then runs the image and checks it. Run from anywhere, as root:
#   deploy/container/build-local.sh
# Needs podman, buildah and debootstrap (apt-get install -y podman buildah debootstrap) and a
# Debian mirror. Not run by CI (docs/operations.md, "Deploy", says what it did here).
#
# 1. debootstrap a Debian bookworm root file system with openjdk-17-jre-headless (and bash,
#    passwd for useradd), import it as localhost/dfe-debian-jre:bookworm: the BASE_IMAGE;
# 2. add openjdk-17-jdk-headless and maven to a copy, import it as
#    localhost/dfe-debian-build:bookworm: the BUILD_IMAGE;
# 3. podman build the Dockerfile with both (the build stage fetches Maven's dependencies from
#    Maven Central, so it runs with the host's network);
# 4. run the image read-only on config.example.yaml and check /livez, /readyz, the health check
#    and the user it runs as.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="${DFE_BUILD_LOCAL_DIR:-/var/tmp/dfe-build-local}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
base=localhost/dfe-debian-jre:bookworm
build=localhost/dfe-debian-build:bookworm
image=localhost/dfe-fetcher:local
# The build runs its RUN steps with chroot isolation (no namespaces needed, so it works inside
# a sandbox that is itself a container); BUILD_ISOLATION=oci to use the OCI runtime instead.
isolation="${BUILD_ISOLATION:-chroot}"
podman=(podman)
if [[ -n "${PODMAN_OPTS:-}" ]]; then
  # shellcheck disable=SC2206 # options, meant to split
  podman+=(${PODMAN_OPTS})
fi

step() { printf '\n== %s\n' "$*" >&2; }

mkdir -p "$work"
if ! "${podman[@]}" image exists "$base"; then
  step "debootstrap bookworm with openjdk-17-jre-headless into $work/jre"
  rm -rf "$work/jre"
  debootstrap --variant=minbase --include=openjdk-17-jre-headless,passwd,ca-certificates \
    bookworm "$work/jre" "$mirror"
  chroot "$work/jre" apt-get clean
  step "import $base"
  tar -C "$work/jre" -c . | "${podman[@]}" import - "$base"
fi
if ! "${podman[@]}" image exists "$build"; then
  step "add openjdk-17-jdk-headless and maven to a copy: $work/build"
  rm -rf "$work/build"
  cp -a "$work/jre" "$work/build"
  mount -t proc proc "$work/build/proc"
  trap 'umount "$work/build/proc" 2>/dev/null || true' EXIT
  chroot "$work/build" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends openjdk-17-jdk-headless maven
  chroot "$work/build" apt-get clean
  umount "$work/build/proc"
  trap - EXIT
  step "import $build"
  tar -C "$work/build" -c . | "${podman[@]}" import - "$build"
fi

step "podman build $image"
"${podman[@]}" build --network host --isolation "$isolation" \
  --build-arg BASE_IMAGE="$base" --build-arg BUILD_IMAGE="$build" \
  -t "$image" -f "$root/Dockerfile" "$root"

step "run $image read-only on config.example.yaml"
state="$work/state"
rm -rf "$state" && mkdir -p "$state" && chown 10001:10001 "$state"
name="dfe-build-local-$$"
"${podman[@]}" run -d --name "$name" --network host --read-only --tmpfs /tmp \
  -e DFE_FETCHER_METRICS__ADDRESS=127.0.0.1:19190 \
  -v "$root/config.example.yaml:/etc/dfe-fetcher/config.yaml:ro" \
  -v "$root/examples:/etc/dfe-fetcher/examples:ro" \
  -v "$state:/var/lib/dfe-fetcher" \
  "$image" >/dev/null
cleanup() { "${podman[@]}" rm -f "$name" >/dev/null 2>&1 || true; }
trap cleanup EXIT

for _ in $(seq 1 60); do
  curl -sf http://127.0.0.1:19190/livez >/dev/null && break
  sleep 1
done
step "checks"
failed=0
check() {
  local what="$1"
  shift
  if "$@"; then
    echo "ok: $what"
  else
    echo "FAILED: $what" >&2
    failed=1
  fi
}
check "/livez answers 200" curl -sf -o /dev/null http://127.0.0.1:19190/livez
check "/readyz answers 200" curl -sf -o /dev/null http://127.0.0.1:19190/readyz
check "the HEALTHCHECK passes" "${podman[@]}" healthcheck run "$name"
echo "runs as: $("${podman[@]}" exec "$name" id)"
check "runs as uid 10001" test "$("${podman[@]}" exec "$name" id -u)" = 10001
check "the root file system is read-only" \
  bash -c "! ${podman[*]} exec $name touch /opt/dfe-fetcher/x 2>/dev/null"
sleep 5
curl -sf http://127.0.0.1:19190/metrics | grep '^dfe_fetcher_snapshots_total' || true
check "checkpoints written to the state volume" \
  bash -c "ls '$state/state/file-output/' | grep -q '^example\\.inventory\\.hosts\\.json$'"
check "the file output landed in the state volume" test -s "$state/landing/inventory-hosts_land.ndjson"
"${podman[@]}" logs "$name" 2>&1 | tail -5
"${podman[@]}" images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E 'dfe-' || true
if ((failed)); then
  echo "build-local: image $image built; some checks FAILED" >&2
  exit 1
fi
echo "build-local: image $image built and checked"
