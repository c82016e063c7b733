#!/usr/bin/env bash
# Build casetrack.mcpb, the Claude Desktop bundle (MCPB manifest 0.4, server type "uv"):
# manifest.json + pyproject.toml + uv.lock + src/. Claude Desktop creates the Python
# environment from pyproject.toml/uv.lock itself, so no interpreter or wheels are bundled.
#   bash scripts/build_mcpb.sh [OUTPUT]        (default: ./casetrack.mcpb)
# Needs uv and Node.js (npx fetches the official @anthropic-ai/mcpb CLI).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-casetrack.mcpb}
mkdir -p "$(dirname "$target")"
out=$(cd "$(dirname "$target")" && pwd)/$(basename "$target")
mcpb=(npx --yes @anthropic-ai/mcpb@2)

# The manifest's tool list must match what the server registers.
uv run --frozen python scripts/mcpb_manifest.py --check

stage=$(mktemp -d "${TMPDIR:-/tmp}/casetrack-mcpb.XXXXXX")
trap 'rm -rf "$stage"' EXIT
cp manifest.json pyproject.toml uv.lock README.md "$stage/"
if [ -f LICENSE ]; then cp LICENSE "$stage/"; fi
mkdir -p "$stage/src"
tar -C src --exclude='__pycache__' --exclude='*.pyc' -cf - casetrack | tar -C "$stage/src" -xf -

"${mcpb[@]}" validate "$stage/manifest.json"
rm -f "$out"
"${mcpb[@]}" pack "$stage" "$out"
echo "Built $out"
