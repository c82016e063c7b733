#!/bin/sh
# CaseTrack installer for macOS and Linux. Safe to run again.
#   ./install.sh              install from this checkout
#   ./install.sh 0.2.0        install that released version from PyPI
#   ./install.sh --start      install, then start the MCP server (also: ./install.sh 0.2.0 --start)
# What it does: installs uv if missing, installs CaseTrack as a uv tool (its own
# environment, `casetrack` on your PATH), checks for Tesseract (OCR for scanned pages)
# and LibreOffice (old .doc and .odt files), and registers CaseTrack with Claude Code if present.
set -eu

say() { printf '%s\n' "$*"; }
here=$(cd "$(dirname "$0")" && pwd)
original_path=$PATH
start=""
version=""
for arg in "$@"; do
    case "$arg" in
        --start) start=yes ;;
        -*) say "Unknown option $arg (use --start)"; exit 2 ;;
        *) version=$arg ;;
    esac
done

if ! command -v uv >/dev/null 2>&1; then
    say "Installing uv (Python package manager)..."
    if command -v pip3 >/dev/null 2>&1; then
        pip3 install --user --quiet uv || pip3 install --quiet uv
    elif command -v python3 >/dev/null 2>&1; then
        python3 -m pip install --user --quiet uv
    else
        say "Python 3.11+ is needed. Install it from https://www.python.org/downloads/ and run this again."
        exit 1
    fi
    PATH="$HOME/.local/bin:$PATH"
fi

if [ -n "$version" ]; then
    source="casetrack==$version"
else
    source="$here"
fi
say "Installing CaseTrack from $source ..."
uv tool install --force --quiet --python ">=3.11" "$source"
bin_dir=$(uv tool dir --bin 2>/dev/null || echo "$HOME/.local/bin")
PATH="$bin_dir:$PATH"

missing=""
command -v tesseract >/dev/null 2>&1 || missing="tesseract"
if [ -n "$missing" ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
        say "Installing Tesseract OCR..."
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr >/dev/null 2>&1 \
            || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr >/dev/null 2>&1; } \
            || say "Could not install Tesseract automatically."
    fi
fi
if ! command -v tesseract >/dev/null 2>&1; then
    say ""
    say "Note: Tesseract (OCR) is not installed, so scanned pages will be recorded as skipped."
    if command -v brew >/dev/null 2>&1; then say "  Install it with: brew install tesseract"
    elif command -v apt-get >/dev/null 2>&1; then say "  Install it with: sudo apt install tesseract-ocr"
    elif command -v dnf >/dev/null 2>&1; then say "  Install it with: sudo dnf install tesseract"
    else say "  See https://tesseract-ocr.github.io/tessdoc/Installation.html"; fi
fi
if ! command -v soffice >/dev/null 2>&1 && ! command -v libreoffice >/dev/null 2>&1; then
    say "Note: LibreOffice is not installed; old .doc and .odt files need it (all other formats work without it)."
fi

registered=""
if command -v claude >/dev/null 2>&1; then
    # Claude Code keeps MCP servers in ~/.claude.json; `casetrack setup-claude-code` uses `claude mcp add`.
    if casetrack setup-claude-code; then
        registered=yes
    else
        say "Claude Code registration failed; run 'casetrack setup-claude-code' later."
    fi
fi

data_dir=$(casetrack models status 2>/dev/null | sed -n 's/^Storage: //p')
say ""
say "CaseTrack installed successfully!"
say ""
say "  Binary:  $(command -v casetrack) (version $(casetrack --version | cut -d' ' -f2))"
say "  Data:    ${data_dir:-$HOME/Documents/CaseTrack}"
say ""
say "Next steps:"
step=1
case ":$original_path:" in
    *":$bin_dir:"*) ;;
    *) say "  $step. Add $bin_dir to your PATH (run 'uv tool update-shell', then restart your terminal)"
       step=$((step + 1)) ;;
esac
if [ -z "$registered" ]; then
    say "  $step. Register CaseTrack: 'casetrack setup-claude-code' (Claude Code) or 'casetrack setup-claude-desktop'"
    step=$((step + 1))
fi
say "  $step. Open Claude Code and ask: 'Create a new case called Test'"

if [ -n "$start" ]; then
    say ""
    say "Starting the CaseTrack MCP server on stdio (Claude normally starts it for you; Ctrl-C stops it)..."
    exec "$bin_dir/casetrack" serve
fi
