#!/usr/bin/env bash
# Build casetrack.mcpb, the Claude Desktop bundle (MCPB manifest 0.4, server type "uv"):
# manifest.json + pyproject.toml + uv.lock + README.md + LICENSE + src/. Claude Desktop creates
# the Python environment from pyproject.toml/uv.lock itself, so no interpreter or wheels are bundled.
#   bash scripts/build_mcpb.sh [OUTPUT]        (default: ./casetrack.mcpb)
# Needs uv and Node.js (npx fetches the official @anthropic-ai/mcpb CLI).
#
# The bundle is signed (`mcpb sign`) and its signature checked by scripts/mcpb_signature.py with OpenSSL, because the
# official `mcpb verify` (and `mcpb info`) of mcpb 2.x call every bundle unsigned, whoever signed it, even with
# `mcpb sign --self-signed`: its PKCS#7 library (node-forge) does not implement verification
# (modelcontextprotocol/mcpb#276 and #21; and on Linux it asks OpenSSL for a "codesigning" purpose that OpenSSL 3.0
# lacks). The build prints what `mcpb verify` says, and why, so that nobody takes its word for the bundle's:
# - with a certificate from a certificate authority when CASETRACK_MCPB_CERT and CASETRACK_MCPB_KEY
#   name its PEM files (CASETRACK_MCPB_INTERMEDIATE: the chain's intermediate certificates, if any);
#   Claude Desktop then shows the publisher as verified;
# - otherwise with a self-signed certificate kept in CASETRACK_MCPB_SIGNING_DIR (default
#   ~/.config/casetrack/mcpb-signing, made on the first build): the bundle is tamper-evident, and
#   Claude Desktop shows it as self-signed. Keep that folder to sign every release with the same key.
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
cp manifest.json pyproject.toml uv.lock README.md LICENSE "$stage/"
mkdir -p "$stage/src"
tar -C src --exclude='__pycache__' --exclude='*.pyc' -cf - casetrack | tar -C "$stage/src" -xf -

official_verdict() {
  local said
  said=$("${mcpb[@]}" verify "$out" 2>&1 | tail -n 1) || true
  echo "mcpb verify says: $said"
  case "$said" in
    *"not signed"*) echo "  (mcpb 2.x says so of every signed bundle: it cannot verify a PKCS#7 signature, see" \
                         "modelcontextprotocol/mcpb#276; the check above, with OpenSSL, is the one to trust)" ;;
  esac
}

"${mcpb[@]}" validate "$stage/manifest.json"
rm -f "$out"
"${mcpb[@]}" pack "$stage" "$out"

if [ -n "${CASETRACK_MCPB_CERT:-}" ] && [ -n "${CASETRACK_MCPB_KEY:-}" ]; then
  read -r -a chain <<< "${CASETRACK_MCPB_INTERMEDIATE:-}"
  "${mcpb[@]}" sign "$out" --cert "$CASETRACK_MCPB_CERT" --key "$CASETRACK_MCPB_KEY" \
    ${chain[@]+--intermediate "${chain[@]}"}
else
  keys=${CASETRACK_MCPB_SIGNING_DIR:-${XDG_CONFIG_HOME:-$HOME/.config}/casetrack/mcpb-signing}
  mkdir -p "$keys" && chmod 700 "$keys"
  if [ ! -f "$keys/cert.pem" ] || [ ! -f "$keys/key.pem" ]; then
    # `mcpb sign --self-signed` would keep its key in npx's cache and use a new one after each cache clean.
    openssl req -x509 -newkey rsa:4096 -nodes -days 3650 -keyout "$keys/key.pem" -out "$keys/cert.pem" \
      -subj "/CN=CaseTrack (self-signed)/O=CaseTrack" -addext "extendedKeyUsage=codeSigning" 2>/dev/null
    chmod 600 "$keys/key.pem"
  fi
  "${mcpb[@]}" sign "$out" --cert "$keys/cert.pem" --key "$keys/key.pem"
  uv run --frozen python scripts/mcpb_signature.py "$out" --trust "$keys/cert.pem"
  official_verdict
  echo "Signed with the self-signed certificate in $keys: Claude Desktop shows the bundle as unverified."
  echo "For a verified publisher, set CASETRACK_MCPB_CERT and CASETRACK_MCPB_KEY (a code-signing certificate)."
  echo "Built $out"
  exit 0
fi
uv run --frozen python scripts/mcpb_signature.py "$out"
official_verdict
echo "Built $out"
