#!/usr/bin/env bash
# Runs Schemathesis with every check against the real `vp-api serve` (fresh SQLite, the demo
# partner and its key, limits raised so the run is not throttled) and the OpenAPI document it
# serves. Fails on any failure or server error.
# Usage: check.sh PATH/TO/vp-api [more schemathesis run options, e.g. --max-examples 500]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${1:?usage: check.sh PATH/TO/vp-api [schemathesis run options]}"
shift
venv="${VP_SCHEMATHESIS_VENV:-$HOME/.cache/vp-schemathesis}"

if ! "$venv/bin/schemathesis" --version 2>/dev/null | grep -q "$(sed -n 's/^schemathesis==//p' "$here/requirements.txt")"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
fi

work="$(mktemp -d)"
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

export DATABASE_URL="sqlite://$work/db.sqlite" VP_LOG=warn
# Schemathesis is one source that sends wrong and missing keys by design, and checks each gets
# the spec's 401: the per-source limit on failed authentications (tested in tests/failed_auth.rs)
# would turn them into 429s after 20.
export VP_FAILED_AUTH_PER_MINUTE=1000000
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$bin" demo > "$work/demo.json"
read -r account key < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["account"]["account_id"], d["api_key"]["api_key"])' "$work/demo.json")
"$bin" account limits "$account" --requests-per-minute 1000000 --payments-per-minute 1000000 \
  --new-clients-per-day 1000000 --trials-per-day 1000000 > /dev/null
VP_BIND="127.0.0.1:$port" "$bin" serve 2> "$work/serve.log" &
server=$!
python3 - "$port" <<'PY'
import sys, time, urllib.request
for _ in range(300):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/ready", timeout=1)
        sys.exit(0)
    except Exception:
        time.sleep(0.1)
sys.exit("the server did not become ready")
PY

cd "$here"
status=0
"$venv/bin/schemathesis" run "http://127.0.0.1:$port/api/partner/v1/openapi.json" --checks all \
  -H "Authorization: Bearer $key" --seed "${VP_SCHEMATHESIS_SEED:-20261123}" "$@" || status=$?
if [ "$status" -ne 0 ]; then
  echo "--- server log ---"; cat "$work/serve.log"
fi
exit "$status"
