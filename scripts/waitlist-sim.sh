#!/usr/bin/env bash
# The waitlist's accuracy benchmark (docs/WAITLIST.md): 28 simulated days per
# seed, the server's quote against the default rule and the display's average.
#   scripts/waitlist-sim.sh [SEED...]        (default: seeds 1 2 3)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product waitlist-sim >/dev/null
for seed in "${@:-1 2 3}"; do
  for s in $seed; do .build/release/waitlist-sim --seed "$s" --markdown; echo; done
done
