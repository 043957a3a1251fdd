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
#    localhost/dfe-debian-build:bookworm: the BUILD_IMAGE; the host's own certificate
#    authorities (EXTRA_CA_DIR, default /usr/local/share/ca-certificates: a proxy's that the
#    host's Maven trusts to reach Maven Central) are trusted in that copy only, never in the image;
# 3. podman build the Dockerfile with both (the build stage fetches Maven's dependencies from
#    Maven Central, so it runs with the host's network);
# 4. run the image read-only on config.example.yaml and check /livez, /readyz, the health check
#    and the user it runs as; where podman cannot start a container (a sandbox refusing runc
#    its rlimits), the image's own file system is run chrooted, read-only, with the container's
#    mounts, ENV, user and working directory (RUN_WITH=podman|chroot|auto, default auto).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="${DFE_BUILD_LOCAL_DIR:-/var/tmp/dfe-build-local}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
extra_ca_dir="${EXTRA_CA_DIR:-/usr/local/share/ca-certificates}"
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
    apt-get install -y -q --no-install-recommends openjdk-17-jdk-headless maven ca-certificates-java
  if compgen -G "$extra_ca_dir/*.crt" >/dev/null; then
    step "trust the host's certificate authorities from $extra_ca_dir in the build base only"
    cp "$extra_ca_dir"/*.crt "$work/build/usr/local/share/ca-certificates/"
    chroot "$work/build" update-ca-certificates --fresh >/dev/null
  fi
  chroot "$work/build" apt-get clean
  umount "$work/build/proc"
  trap - EXIT
  step "import $build"
  tar -C "$work/build" -c . | "${podman[@]}" import - "$build"
fi

step "podman build $image"
"${podman[@]}" build --format docker --network host --isolation "$isolation" \
  --build-arg BASE_IMAGE="$base" --build-arg BUILD_IMAGE="$build" \
  -t "$image" -f "$root/Dockerfile" "$root"

step "run $image read-only on config.example.yaml"
state="$work/state"
rm -rf "$state" && mkdir -p "$state" && chown 10001:10001 "$state"
name="dfe-build-local-$$"
# How the image is run: podman (a container), or, where the OCI runtime cannot start one (a
# sandbox that refuses runc its rlimits), chroot: the image's own file system mounted read-only,
# the same mounts as the container's, its ENV, user and working directory, on the host's network.
run_with="${RUN_WITH:-auto}"
if [[ $run_with == auto ]]; then
  run_with=podman
  if ! probe=$("${podman[@]}" run --rm "$image" --version 2>&1); then
    echo "podman cannot start a container here ($(tail -n 1 <<<"$probe")); running the image's file system chrooted instead" >&2
    run_with=chroot
  fi
fi
if [[ $run_with == podman ]]; then
  "${podman[@]}" run -d --name "$name" --network host --read-only --tmpfs /tmp \
    -e DFE_FETCHER_METRICS__ADDRESS=127.0.0.1:19190 \
    -v "$root/config.example.yaml:/etc/dfe-fetcher/config.yaml:ro" \
    -v "$root/examples:/etc/dfe-fetcher/examples:ro" \
    -v "$state:/var/lib/dfe-fetcher" \
    "$image" >/dev/null
  cleanup() { "${podman[@]}" rm -f "$name" >/dev/null 2>&1 || true; }
  in_image() { "${podman[@]}" exec "$name" "$@"; }
  health_check() { "${podman[@]}" healthcheck run "$name"; }
  image_logs() { "${podman[@]}" logs "$name" 2>&1; }
else
  rootfs="$work/rootfs"
  image_root=$("${podman[@]}" image mount "$image")
  mounts=()
  bind() { # SOURCE TARGET [ro]: TARGET is a directory the image has
    mount --bind "$1" "$2"
    mounts=("$2" "${mounts[@]}")
    if [[ ${3:-} == ro ]]; then mount -o remount,bind,ro "$2"; fi
  }
  mkdir -p "$rootfs"
  bind "$image_root" "$rootfs" ro
  bind /proc "$rootfs/proc"
  bind /dev "$rootfs/dev"
  mount -t tmpfs tmpfs "$rootfs/tmp" && mounts=("$rootfs/tmp" "${mounts[@]}")
  bind "$state" "$rootfs/var/lib/dfe-fetcher"
  # The container's two read-only volumes under /etc/dfe-fetcher, as one directory.
  etc="$work/etc" && rm -rf "$etc" && mkdir -p "$etc"
  cp "$root/config.example.yaml" "$etc/config.yaml" && cp -r "$root/examples" "$etc/examples"
  bind "$etc" "$rootfs/etc/dfe-fetcher" ro
  mapfile -t image_env < <("${podman[@]}" image inspect "$image" --format '{{range .Config.Env}}{{println .}}{{end}}' | grep .)
  user=$("${podman[@]}" image inspect "$image" --format '{{.Config.User}}')
  workdir=$("${podman[@]}" image inspect "$image" --format '{{.Config.WorkingDir}}')
  in_image() {
    chroot --userspec="$user" "$rootfs" env -i "${image_env[@]}" \
      DFE_FETCHER_METRICS__ADDRESS=127.0.0.1:19190 sh -c 'cd "$0" && exec "$@"' "$workdir" "$@"
  }
  in_image /opt/dfe-fetcher/bin/entrypoint.sh run --config /etc/dfe-fetcher/config.yaml \
    >"$work/image.log" 2>&1 &
  image_pid=$!
  # Every process whose root is the image's: the fetcher, whatever forked or exec'd on the way.
  in_rootfs() {
    local proc
    for proc in /proc/[0-9]*; do
      [[ $(readlink "$proc/root" 2>/dev/null) == "$rootfs" ]] && echo "${proc#/proc/}"
    done
  }
  cleanup() {
    kill "$image_pid" $(in_rootfs) 2>/dev/null || true
    for _ in $(seq 1 40); do
      [[ -z $(in_rootfs) ]] && break
      sleep 0.5
    done
    kill -9 $(in_rootfs) 2>/dev/null || true
    wait "$image_pid" 2>/dev/null || true
    for mounted in "${mounts[@]}"; do umount "$mounted" 2>/dev/null || true; done
    "${podman[@]}" image unmount "$image" >/dev/null 2>&1 || true
  }
  health_check() { in_image /opt/dfe-fetcher/bin/livez.sh; }
  image_logs() { cat "$work/image.log"; }
fi
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
check "the HEALTHCHECK passes" health_check
echo "runs as: $(in_image id)"
check "runs as uid 10001" test "$(in_image id -u)" = 10001
read_only_root() { ! in_image touch /opt/dfe-fetcher/x 2>/dev/null; }
check "the root file system is read-only" read_only_root
sleep 5
curl -sf http://127.0.0.1:19190/metrics | grep '^dfe_fetcher_snapshots_total' || true
check "checkpoints written to the state volume" \
  bash -c "ls '$state/state/file-output/' | grep -q '^example\\.inventory\\.hosts\\.json$'"
check "the file output landed in the state volume" test -s "$state/landing/inventory-hosts_land.ndjson"
image_logs | tail -5
"${podman[@]}" images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E 'dfe-' || true
if ((failed)); then
  echo "build-local: image $image built; some checks FAILED" >&2
  exit 1
fi
echo "build-local: image $image built and checked"
