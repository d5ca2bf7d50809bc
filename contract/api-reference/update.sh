#!/usr/bin/env bash
# Vendors the pinned Redoc bundle into vendor/ (what the binary serves, built in with
# include_bytes!). `--check` only verifies that vendor/ is what the lock file pins (CI).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
npm ci --no-audit --no-fund --ignore-scripts --prefix "$here" > /dev/null
bundle="$here/node_modules/redoc/bundles/redoc.standalone.js"
license="$here/node_modules/redoc/LICENSE"
if [ "${1:-}" = "--check" ]; then
  cmp -s "$bundle" "$here/vendor/redoc.standalone.js" \
    || { echo "FATAL: contract/api-reference/vendor/redoc.standalone.js is not the pinned Redoc's bundle: run contract/api-reference/update.sh" >&2; exit 1; }
  exit 0
fi
mkdir -p "$here/vendor"
cp "$bundle" "$here/vendor/redoc.standalone.js"
cp "$license" "$here/vendor/LICENSE-redoc"
echo "vendored redoc $(node -p "require('$here/node_modules/redoc/package.json').version")"
