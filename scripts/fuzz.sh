#!/usr/bin/env bash
# fuzz.sh [SECONDS]: builds the libFuzzer target for the HTTP request parser
# (or, with TARGET=image, for the image header reader of dish photos)
# (swiftc -sanitize=fuzzer,address over the parser's own sources) and runs it
# for SECONDS (default 60) on the committed corpus. New interesting inputs go
# to a scratch corpus (not committed); a crash, leak or timeout leaves its
# input in .build-fuzz/ and exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN=${1:-60}
OUT=.build-fuzz
mkdir -p "$OUT/corpus"
SRC=Sources/ComandaHTTP
if [ "${TARGET:-parser}" = parser ]; then
# The C shims the runtime imports (CSystem: SwiftPM makes its module map, made here by hand).
mkdir -p "$OUT/CSystem"
printf 'module CSystem {\n  header "%s/Sources/CSystem/include/csystem.h"\n  export *\n}\n' "$PWD" > "$OUT/CSystem/module.modulemap"
clang -O1 -fsanitize=address -I Sources/CSystem/include -c Sources/CSystem/csystem.c -o "$OUT/csystem.o"
CSYSTEM=(-Xcc -fmodule-map-file="$OUT/CSystem/module.modulemap")
# The runtime module the parser's files import (Locked, Promise), built first with the same sanitizer.
swiftc -O -sanitize=address -parse-as-library -module-name ComandaRuntime -emit-module -emit-module-path "$OUT/ComandaRuntime.swiftmodule" \
  "${CSYSTEM[@]}" -emit-library -static Sources/ComandaRuntime/*.swift -o "$OUT/libComandaRuntime.a"
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name ComandaHTTP -package-name comanda "${CSYSTEM[@]}" "$OUT/csystem.o" \
  -I Sources/CSystem/include -Xcc -fmodule-map-file=Sources/CZlib/module.modulemap -I "$OUT" -L "$OUT" -lComandaRuntime \
  "$SRC/HTTPRequestParser.swift" "$SRC/HTTPRequest.swift" "$SRC/HTTPHeaders.swift" "$SRC/HTTPMethod.swift" \
  "$SRC/HTTPParseError.swift" "$SRC/HTTPLimits.swift" "$SRC/HTTPStatus.swift" "$SRC/HTTPResponse.swift" "$SRC/ResponseStream.swift" \
  "$SRC/PercentDecoding.swift" Tests/Fuzz/FuzzRequestParser.swift -o "$OUT/fuzz-parser"
fi
cp -n Tests/Fuzz/corpus/* "$OUT/corpus/" 2>/dev/null || true
if [ "${TARGET:-parser}" = parser ]; then
"$OUT/fuzz-parser" -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 -max_len=4096 \
  -artifact_prefix="$OUT/" -print_final_stats=1 "$OUT/corpus" Tests/Fuzz/corpus
else
# TARGET=image: the image header reader (Sources/ComandaCore/ImageHeader.swift).
mkdir -p "$OUT/image-corpus"
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name ComandaCore \
  Sources/ComandaCore/ImageHeader.swift Tests/FuzzImage/FuzzImageHeader.swift -o "$OUT/fuzz-image"
"$OUT/fuzz-image" -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
  -artifact_prefix="$OUT/image-" -print_final_stats=1 "$OUT/image-corpus" Tests/FuzzImage/corpus
fi
