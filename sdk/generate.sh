#!/usr/bin/env bash
# Regenerates the SDKs' generated code from docs/openapi.json (the document the service serves):
# TypeScript types with openapi-typescript (pinned by sdk/typescript's lock file), the Python
# package vpn_partner_api with openapi-python-client (pinned with its formatter by
# sdk/python/requirements-generate.txt). `--check` regenerates into a scratch copy and fails
# when the committed code differs (CI).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
doc="$here/../docs/openapi.json"
check="${1:-}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

ts="$here/typescript"
npm ci --no-audit --no-fund --ignore-scripts --prefix "$ts" > /dev/null
(cd "$ts" && npx --no-install openapi-typescript "$doc" --output "$scratch/schema.ts" > /dev/null)

py="$here/python"
venv="$py/.venv-generate"
if ! "$venv/bin/openapi-python-client" --version 2>/dev/null | grep -q "$(sed -n 's/^openapi-python-client==//p' "$py/requirements-generate.txt")"; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$py/requirements-generate.txt"
fi
# The generator formats with the ruff it was installed with.
(cd "$py" && PATH="$venv/bin:$PATH" "$venv/bin/openapi-python-client" generate --path "$doc" --meta none \
  --config generator.yaml --output-path "$scratch/vpn_partner_api" > /dev/null)
rm -rf "$scratch/vpn_partner_api/.ruff_cache"
touch "$scratch/vpn_partner_api/py.typed"

if [ "$check" = "--check" ]; then
  drift=""
  cmp -s "$scratch/schema.ts" "$ts/src/schema.ts" || drift="$drift sdk/typescript/src/schema.ts"
  diff -r -q -x __pycache__ "$scratch/vpn_partner_api" "$py/src/vpn_partner_api" > /dev/null || drift="$drift sdk/python/src/vpn_partner_api"
  if [ -n "$drift" ]; then
    echo "FATAL: not what docs/openapi.json generates:$drift; run sdk/generate.sh and commit the result" >&2
    exit 1
  fi
  exit 0
fi
cp "$scratch/schema.ts" "$ts/src/schema.ts"
rm -rf "$py/src/vpn_partner_api"
cp -r "$scratch/vpn_partner_api" "$py/src/vpn_partner_api"
echo "regenerated sdk/typescript/src/schema.ts and sdk/python/src/vpn_partner_api from docs/openapi.json"
