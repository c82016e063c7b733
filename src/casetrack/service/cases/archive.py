"""What a `.ctcase` archive is, and the checks its entries pass before anything is unpacked: no
absolute or parent paths, no links or devices, only the three expected top-level names, no
encryption, bounded count, total size and compression ratio; extraction counts real bytes and every
file must match the manifest's digest. The records inside the database are checked after unpacking
(`store/imported.py`)."""

from __future__ import annotations

import hashlib
import json
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from casetrack.errors import CaseTrackError
from casetrack.store import migrations

FORMAT = "casetrack-case"
FORMAT_VERSION = 1
SUFFIX = ".ctcase"
MANIFEST = "manifest.json"
DB_DIR = "case.db"
ORIGINALS = "originals"
TOP_LEVEL = {MANIFEST, DB_DIR, ORIGINALS}
STAGING_PREFIX = ".import-"
EXPORT_PREFIX = ".export-"


class BadArchive(CaseTrackError):
    """An archive refused at import; nothing was written."""

    exit_code = 2

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"Cannot import {path.name}: {reason}. Nothing was imported or changed.")


@dataclass(frozen=True, slots=True)
class ImportLimits:
    max_entries: int = 200_000
    max_total_bytes: int = 64 * 1024**3
    max_ratio: float = 200.0  # uncompressed / compressed, for entries above ratio_floor_bytes
    ratio_floor_bytes: int = 1024 * 1024
    max_manifest_bytes: int = 4 * 1024 * 1024


def check_entries(path: Path, archive: zipfile.ZipFile, limits: ImportLimits) -> list[zipfile.ZipInfo]:
    infos = archive.infolist()
    if len(infos) > limits.max_entries:
        raise BadArchive(path, f"it has {len(infos)} entries (at most {limits.max_entries} are accepted)")
    seen: set[str] = set()
    total = 0
    files = []
    for info in infos:
        name = info.filename
        parts = PurePosixPath(name.rstrip("/")).parts
        if (not name or name.startswith(("/", "\\")) or "\\" in name or (len(name) > 1 and name[1] == ":")
                or any(p in ("", ".", "..") for p in name.rstrip("/").split("/"))):
            raise BadArchive(path, f'it contains an unsafe path "{name}" (absolute, or leaving its folder)')
        if parts[0] not in TOP_LEVEL or (parts[0] == MANIFEST and len(parts) > 1):
            raise BadArchive(path, f'it contains "{name}", which is not part of a CaseTrack export')
        mode = info.external_attr >> 16
        kind = stat.S_IFMT(mode)
        if stat.S_ISLNK(mode):
            raise BadArchive(path, f'it contains a symbolic link "{name}"')
        if kind and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            raise BadArchive(path, f'it contains "{name}", which is not a regular file')
        if info.flag_bits & 0x1:
            raise BadArchive(path, f'"{name}" is encrypted')
        if name in seen:
            raise BadArchive(path, f'"{name}" appears twice')
        seen.add(name)
        if info.is_dir():
            continue
        total += info.file_size
        if total > limits.max_total_bytes:
            raise BadArchive(path, f"it would unpack to more than {limits.max_total_bytes:,} bytes")
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > limits.ratio_floor_bytes and ratio > limits.max_ratio:
            raise BadArchive(path, f'"{name}" would expand {ratio:,.0f} times (a "zip bomb"; at most '
                                   f"{limits.max_ratio:.0f} is accepted)")
        files.append(info)
    return files


def read_manifest(path: Path, archive: zipfile.ZipFile, limits: ImportLimits) -> dict[str, Any]:
    try:
        info = archive.getinfo(MANIFEST)
    except KeyError:
        raise BadArchive(path, "it has no manifest.json, so it is not a CaseTrack export") from None
    if info.file_size > limits.max_manifest_bytes:
        raise BadArchive(path, "its manifest.json is implausibly large")
    try:
        with archive.open(info) as handle:
            manifest = json.loads(handle.read(limits.max_manifest_bytes + 1))
    except (ValueError, zipfile.BadZipFile, OSError) as exc:
        raise BadArchive(path, f"its manifest.json cannot be read ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BadArchive(path, "its manifest.json does not describe a CaseTrack case")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise BadArchive(path, f"it uses export format {manifest.get('format_version')!r}; this CaseTrack "
                               f"reads format {FORMAT_VERSION}. Update CaseTrack with 'casetrack update'")
    schema = manifest.get("schema_version")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise BadArchive(path, f"its schema version {schema!r} is not valid")
    if schema > migrations.CASE.current:
        raise BadArchive(path, f"it was written by a newer CaseTrack (case schema {schema}; this version reads up "
                               f"to {migrations.CASE.current}). Update CaseTrack with 'casetrack update', then import")
    case = manifest.get("case")
    files = manifest.get("files")
    if not isinstance(case, dict) or not isinstance(case.get("name"), str) or not isinstance(files, dict):
        raise BadArchive(path, "its manifest.json lacks the case details or the file list")
    return manifest


def extract(path: Path, archive: zipfile.ZipFile, infos: list[zipfile.ZipInfo], files: dict[str, Any],
             stage: Path, limits: ImportLimits) -> None:
    names = {i.filename for i in infos if i.filename != MANIFEST}
    if names != set(files):
        missing, extra = sorted(set(files) - names)[:3], sorted(names - set(files))[:3]
        raise BadArchive(path, f"its contents do not match its manifest (missing {missing}, unlisted {extra})")
    if not any(n.startswith(DB_DIR + "/") for n in names):
        raise BadArchive(path, "it holds no case database")
    written = 0
    root = stage.resolve()
    for info in infos:
        if info.filename == MANIFEST:
            continue
        target = (stage / info.filename).resolve()
        if root not in target.parents:  # belt and braces after _check_entries
            raise BadArchive(path, f'"{info.filename}" would be written outside its folder')
        target.parent.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256()
        size = 0
        try:
            with archive.open(info) as source, open(target, "xb") as sink:
                for block in iter(lambda src=source: src.read(1 << 20), b""):  # type: ignore[misc]
                    size += len(block)
                    written += len(block)
                    if size > info.file_size or written > limits.max_total_bytes:
                        raise BadArchive(path, f'"{info.filename}" is larger than the archive declares')
                    digest.update(block)
                    sink.write(block)
        except (zipfile.BadZipFile, OSError, EOFError) as exc:
            raise BadArchive(path, f'"{info.filename}" cannot be unpacked ({exc})') from None
        if digest.hexdigest() != files[info.filename]:
            raise BadArchive(path, f'"{info.filename}" does not match its checksum (the archive is damaged '
                                   "or was altered)")
