#!/usr/bin/env bash
# service-check.sh BINARY: Config/systemd/comanda.service as systemd reads it
# (systemd-analyze verify: every directive known, the paths it names there),
# with the binary and the settings file where this checkout has them; and
# its stop timeout longer than the server's drain (10 s).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:-.build/debug/comanda}")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
sed -e "s|^ExecStart=/usr/local/bin/comanda |ExecStart=$BIN |" -e "s|^EnvironmentFile=/etc/comanda/comanda.env|EnvironmentFile=$PWD/Config/comanda.env.example|" \
  Config/systemd/comanda.service > "$WORK/comanda.service"
out=$(systemd-analyze verify "$WORK/comanda.service" 2>&1 || true)
# A build machine has no "comanda" user: the one thing a verify here may say that the box will not.
problems=$(printf '%s\n' "$out" | grep -v -e '^$' -e "User=comanda\|Group=comanda\|user comanda\|group comanda" || true)
if [ -n "$problems" ]; then echo "service-check: systemd-analyze verify says:"; echo "$problems"; exit 1; fi
stop=$(sed -n 's/^TimeoutStopSec=\([0-9]*\)$/\1/p' Config/systemd/comanda.service)
[ "${stop:-0}" -gt 10 ] || { echo "service-check: TimeoutStopSec=$stop is not longer than the 10 s drain"; exit 1; }
for directive in "User=comanda" "StateDirectory=comanda" "EnvironmentFile=" "Restart=always" "LimitNOFILE=" "ProtectSystem=strict" "NoNewPrivileges=yes" "PrivateTmp=yes"; do
  grep -q "^$directive" Config/systemd/comanda.service || { echo "service-check: $directive is missing"; exit 1; }
done
echo "service-check: ok (systemd-analyze verify clean; TimeoutStopSec=$stop s > the 10 s drain)"
