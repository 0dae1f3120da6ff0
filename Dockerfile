# Build stage: the Swift 6.3 toolchain with the C libraries comanda links.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libsqlite3-dev zlib1g-dev libqrencode-dev libcurl4-openssl-dev libssl-dev libxml2-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Resolve dependencies first so that source changes do not refetch them.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
# Built into the binary through Sources/ComandaResources' symlinks, so the
# image (and any copy of the binary) runs without these folders beside it.
COPY Public ./Public
COPY Config ./Config
COPY docs/openapi.json ./docs/openapi.json
RUN swift build -c release --static-swift-stdlib --product comanda \
 && mkdir -p /staging \
 && cp "$(swift build -c release --static-swift-stdlib --show-bin-path)/comanda" /staging/ \
 && find "$(swift build -c release --static-swift-stdlib --show-bin-path)" -maxdepth 1 -name '*.resources' -exec cp -R {} /staging/ \;

# Run stage: a slim Debian with the C runtime libraries only (the Swift
# runtime is linked into the binary by --static-swift-stdlib).
FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libsqlite3-0 zlib1g libqrencode4 libcurl4 libssl3 libxml2 curl ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --create-home --home-dir /app --uid 10001 comanda
WORKDIR /app
COPY --from=build /staging/ /app/
COPY Public ./Public
COPY Config ./Config
RUN mkdir -p /app/data && chown -R comanda:comanda /app/data
USER comanda
ENV COMANDA_HOST=0.0.0.0 \
    COMANDA_PORT=8080 \
    COMANDA_DATABASE=/app/data/comanda.sqlite
VOLUME ["/app/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8080/health || exit 1
STOPSIGNAL SIGTERM
ENTRYPOINT ["/app/comanda"]
CMD ["serve"]
