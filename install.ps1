# CaseTrack installer for Windows (PowerShell 5.1 or later). Safe to run again.
#   .\install.ps1            install from this checkout
#   .\install.ps1 0.2.0      install that released version from PyPI
# What it does: installs uv if missing (Astral's official installer), installs CaseTrack as a
# uv tool (its own environment, `casetrack` on your PATH), checks for Tesseract (OCR for scanned
# pages), and registers CaseTrack with Claude Code if the `claude` command is present.
# Note: this script has not been run by CaseTrack's own CI on Windows yet; report problems at
# https://github.com/casetrack-legal/casetrack/issues
param([string]$Version = "")
$ErrorActionPreference = "Stop"
$here = Split-Path -Parent $MyInvocation.MyCommand.Path

if (-not [Environment]::Is64BitOperatingSystem) {
    Write-Error "CaseTrack requires 64-bit Windows."
    exit 1
}

if (-not (Get-Command uv -ErrorAction SilentlyContinue)) {
    Write-Host "Installing uv (Python package manager)..."
    powershell -NoProfile -ExecutionPolicy ByPass -Command "irm https://astral.sh/uv/install.ps1 | iex"
    $env:Path = "$env:USERPROFILE\.local\bin;$env:Path"
}

$source = if ($Version) { "casetrack==$Version" } else { $here }
Write-Host "Installing CaseTrack from $source ..."
uv tool install --force --quiet --python ">=3.11" "$source"
if ($LASTEXITCODE -ne 0) { Write-Error "uv tool install failed (see above)."; exit 1 }
$binDir = (uv tool dir --bin).Trim()
$env:Path = "$binDir;$env:Path"
uv tool update-shell *> $null   # puts $binDir on your user PATH for new terminals

if (-not (Get-Command tesseract -ErrorAction SilentlyContinue)) {
    Write-Host ""
    Write-Host "Note: Tesseract (OCR) is not installed, so scanned pages will be recorded as skipped."
    Write-Host "  Install it with: winget install UB-Mannheim.TesseractOCR"
}

$registered = $false
if (Get-Command claude -ErrorAction SilentlyContinue) {
    casetrack setup-claude-code
    if ($LASTEXITCODE -eq 0) { $registered = $true }
    else { Write-Host "Claude Code registration failed; run 'casetrack setup-claude-code' later." }
}

$dataDir = "$env:USERPROFILE\Documents\CaseTrack"
$storage = casetrack models status 2>$null | Select-String -Pattern '^Storage: (.*)$'
if ($storage) { $dataDir = $storage.Matches[0].Groups[1].Value }
$version = (casetrack --version).Split(" ")[1]

Write-Host ""
Write-Host "CaseTrack installed successfully!" -ForegroundColor Green
Write-Host ""
Write-Host "  Binary:  $binDir\casetrack.exe (version $version)"
Write-Host "  Data:    $dataDir"
Write-Host ""
Write-Host "Next steps:"
Write-Host "  1. Restart your terminal"
if ($registered) {
    Write-Host "  2. Open Claude Code and ask: 'Create a new case called Test'"
} else {
    Write-Host "  2. Register CaseTrack: 'casetrack setup-claude-code' (Claude Code) or 'casetrack setup-claude-desktop'"
    Write-Host "  3. Open Claude Code and ask: 'Create a new case called Test'"
}
