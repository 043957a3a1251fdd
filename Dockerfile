# dfe-fetcher's container image: built with Maven, run on a JRE, as a non-root user, on a
# read-only root file system. Build from the repository's root:
#   docker build -t dfe-fetcher .            (or: podman build -t dfe-fetcher .)
# Both bases are build arguments; their defaults are the usual public images. On a machine with
# no registry, deploy/container/build-local.sh builds the same file on bases made with debootstrap.
# Run (docs/operations.md, "Deploy"):
#   docker run --read-only --tmpfs /tmp -v ./config.yaml:/etc/dfe-fetcher/config.yaml:ro \
#     -v dfe-state:/var/lib/dfe-fetcher -p 9090:9090 dfe-fetcher
ARG BUILD_IMAGE=maven:3.9-eclipse-temurin-17
ARG BASE_IMAGE=eclipse-temurin:17-jre

FROM ${BUILD_IMAGE} AS build
WORKDIR /src
COPY . .
# The runnable jar only (app and what it depends on); tests run in CI, not in the image build.
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q -pl app -am package -DskipTests -Dspotless.check.skip=true \
 && cp app/target/dfe-fetcher.jar /dfe-fetcher.jar

FROM ${BASE_IMAGE}
ARG UID=10001
# A system user of its own; its home is the state directory, the one place it writes.
RUN groupadd --system --gid "${UID}" dfe-fetcher \
 && useradd --system --uid "${UID}" --gid "${UID}" --home-dir /var/lib/dfe-fetcher \
      --no-create-home --shell /usr/sbin/nologin dfe-fetcher \
 && mkdir -p /etc/dfe-fetcher /var/lib/dfe-fetcher/state /var/lib/dfe-fetcher/landing \
 && chown -R "${UID}:${UID}" /var/lib/dfe-fetcher
COPY --from=build /dfe-fetcher.jar /opt/dfe-fetcher/dfe-fetcher.jar
COPY deploy/container/entrypoint.sh deploy/container/livez.sh /opt/dfe-fetcher/bin/
COPY config.example.yaml /opt/dfe-fetcher/config.example.yaml

# Where the configuration and the state live in the container: the state volume holds the
# checkpoints and the file output's landing directory; the image's only writable places are it
# and /tmp (mount a tmpfs there with --read-only). These are DFE_FETCHER_* overrides of the
# configuration's settings, so whatever config.yaml says, the container writes to its volume and
# serves on port 9090 (override them with -e to change that).
ENV DFE_FETCHER_CURSOR__DIRECTORY=/var/lib/dfe-fetcher/state \
    DFE_FETCHER_OUTPUT__FILE__DIRECTORY=/var/lib/dfe-fetcher/landing \
    DFE_FETCHER_METRICS__ADDRESS=0.0.0.0:9090 \
    DFE_FETCHER_JAVA_OPTS="-XX:MaxRAMPercentage=60"
VOLUME ["/etc/dfe-fetcher", "/var/lib/dfe-fetcher"]
EXPOSE 9090
USER ${UID}:${UID}
WORKDIR /var/lib/dfe-fetcher

# /livez answers 200 while the process runs (bash's /dev/tcp: the image needs no HTTP client).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["/opt/dfe-fetcher/bin/livez.sh"]

ENTRYPOINT ["/opt/dfe-fetcher/bin/entrypoint.sh"]
CMD ["run", "--config", "/etc/dfe-fetcher/config.yaml"]
