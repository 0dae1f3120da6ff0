#!/usr/bin/env bash
# display-check.sh BINARY [SCREENSHOT]
# A real browser test of the wall display: starts comanda on a free loopback
# port with a throw-away database, makes a host with `create-host`, adds
# parties through the JSON API and the legacy feed, marks one ready, loads
# /display in headless Chromium and checks the DOM after the scripts ran: every
# party shown (names as text), the ready one in the green list. Optionally
# saves a screenshot. Stops the server by its PID.
set -euo pipefail
BIN=${1:-.build/debug/comanda}
SHOT=${2:-}
CHROME=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROME" ] || { echo "display-check: chromium is not installed (apt-get install -y chromium)"; exit 1; }
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
DB="$WORK/display.sqlite"
printf 'contraseña-de-sala\n' > "$WORK/password"
"$BIN" create-host sala --nombre "Sala" --database "$DB" --password-file "$WORK/password" >/dev/null
"$BIN" serve --host 127.0.0.1 --port "$PORT" --database "$DB" --log-level notice >"$WORK/server.log" 2>&1 &
PID=$!
cleanup() { kill -KILL "$PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
BASE="http://127.0.0.1:$PORT"
for _ in $(seq 1 100); do curl -sf -m 1 -o /dev/null "$BASE/health" && break; sleep 0.1; done
TOKEN=$(curl -sf -H 'Content-Type: application/json' -d '{"login":"sala","password":"contraseña-de-sala"}' "$BASE/sesiones" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
KEYPATH=$(grep -o '/queue/[A-Za-z0-9_-]*' "$WORK/server.log" | head -1)
post() { curl -sf -o /dev/null -H 'Content-Type: application/json' -H "Authorization: Bearer $TOKEN" -d "$1" "$BASE/reservations"; }
post '{"name": "Familia García", "size": 4}'
post '{"name": "<b>Ana</b> & Luis", "size": 2}'
curl -sf -o /dev/null -X POST "$BASE$KEYPATH/Zo%C3%AB%20Martin/3"
post '{"name": "山田 太郎", "size": 6}'
curl -sf -o /dev/null -X PUT "$BASE$KEYPATH/seat/3"

DOM="$WORK/dom.html"
"$CHROME" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir="$WORK/profile" \
  --virtual-time-budget=5000 --dump-dom "$BASE/display" >"$DOM" 2>"$WORK/chrome.log"
python3 - "$DOM" <<'PY'
import sys, html.parser
class Lists(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.stack = []; self.lists = {"ready": [], "waiting": []}; self.current = None; self.in_name = False; self.ready_classes = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "ol" and a.get("id") in self.lists: self.current = a["id"]
        if tag == "li" and self.current and "empty" not in (a.get("class") or ""):
            self.lists[self.current].append(""); self.ready_classes.append((self.current, a.get("class") or ""))
        if tag == "span" and a.get("class") == "name": self.in_name = True
        if tag == "b": print("display-check: a name was inserted as HTML"); sys.exit(1)
    def handle_endtag(self, tag):
        if tag == "ol": self.current = None
        if tag == "span": self.in_name = False
    def handle_data(self, data):
        if self.in_name and self.current: self.lists[self.current][-1] += data
p = Lists(); p.feed(open(sys.argv[1], encoding="utf-8").read())
want_waiting = ["Familia García", "<b>Ana</b> & Luis", "山田 太郎"]
ok = p.lists["ready"] == ["Zoë Martin"] and p.lists["waiting"] == want_waiting
ok = ok and all(c == "is-ready" for lst, c in p.ready_classes if lst == "ready")
import re
footer = re.search(r'<footer id="updated">([^<]*)</footer>', open(sys.argv[1], encoding="utf-8").read())
clock_ok = bool(footer) and re.fullmatch(r"Actualizado [0-2]\d:[0-5]\d:[0-5]\d", footer.group(1)) is not None
ok = ok and clock_ok
print("display-check: ready", p.lists["ready"], "waiting", p.lists["waiting"], "footer", footer.group(1) if footer else None)
sys.exit(0 if ok else 1)
PY
if [ -n "$SHOT" ]; then
  "$CHROME" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir="$WORK/profile2" \
    --hide-scrollbars --window-size=1280,720 --virtual-time-budget=5000 --screenshot="$SHOT" "$BASE/display" 2>>"$WORK/chrome.log"
  echo "display-check: screenshot $SHOT"
fi
kill -TERM "$PID"; wait "$PID" || true
echo "display-check: ok"
