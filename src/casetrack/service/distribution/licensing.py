"""Licence keys and tiers (PRD 10 §8.2, §11): offline ed25519 verification, Free fallback.

A key reads `TIER-XXXXXX-XXXXXX-XXXXXX-SIG`:

* TIER - `PRO` or `FIRM` (letters only);
* three groups of six Crockford base32 characters - 90 bits: format version (4), expiry
  as days since 2020-01-01 (20, 0 = never expires), seats (6), serial (60);
* SIG - the ed25519 signature (Crockford base32, 103 characters) of
  `casetrack-licence:` + everything before it.

Keys are checked against the public key built into the package, offline, every time a
CaseTrack starts (a signature check takes microseconds). Nothing is trusted from disk: the
`licence.json` in the data directory only remembers the activated key and the result of
its last check, for `casetrack licence status`. A missing, malformed, tampered, expired or
unknown-tier key never blocks anyone: CaseTrack runs on the Free tier and says why.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
import secrets
import time
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from casetrack.config import Settings
from casetrack.embed import LicenseTier
from casetrack.errors import UPGRADE_URL, CaseTrackError, FreeTierLimit, InvalidInput

log = logging.getLogger(__name__)

#: The product's verifying key. Its private half never enters this repository.
PRODUCT_PUBLIC_KEY = base64.b64decode("NrXt/bbrlv86WRVH9OU4yHkkuTdSuHRw9H84Cq4b5k8=")
#: Development and tests only: another verifying key (base64), e.g. for a throwaway key pair.
LICENCE_FILE = "licence.json"
KEY_FORMAT = "TIER-XXXXXX-XXXXXX-XXXXXX-SIG"

PLANS: dict[str, LicenseTier] = {"PRO": LicenseTier.PRO, "FIRM": LicenseTier.PRO}
FORMAT_VERSION = 1
EPOCH = date(2020, 1, 1)
SIGNED_PREFIX = b"casetrack-licence:"
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford: no I, L, O, U
_ALIASES = str.maketrans({"O": "0", "I": "1", "L": "1"})
_SIG_CHARS = 103  # ceil(512 / 5)


@dataclass(frozen=True, slots=True)
class Limits:
    """What a tier allows; None means unlimited."""

    max_cases: int | None
    max_documents_per_case: int | None


FREE_LIMITS = Limits(max_cases=3, max_documents_per_case=100)
UNLIMITED = Limits(max_cases=None, max_documents_per_case=None)


def limits_for(tier: LicenseTier) -> Limits:
    return FREE_LIMITS if tier is LicenseTier.FREE else UNLIMITED


@dataclass(frozen=True, slots=True)
class Claims:
    """What a verified key grants."""

    plan: str  # "PRO", "FIRM", or whatever tier name the key was signed with
    expires: date | None
    seats: int
    serial: int


@dataclass(frozen=True, slots=True)
class Licence:
    tier: LicenseTier
    plan: str  # "Free", "Pro" or "Firm", as shown to the user
    source: str  # where the key came from, or "none"
    expires: date | None = None
    serial: int | None = None
    problem: str | None = None  # why a key given was not accepted

    @property
    def label(self) -> str:
        """For get_status: "Pro", or "Free (why the key was not accepted)"."""
        return f"{self.plan} ({self.problem})" if self.problem else self.plan


FREE = Licence(LicenseTier.FREE, "Free", "none")


class LicenceKeyError(CaseTrackError):
    """A key that cannot be used; the message says why and what to do."""

    exit_code = 2


class ProFeature(CaseTrackError):
    def __init__(self, feature: str, licence: Licence) -> None:
        why = f" ({licence.problem})" if licence.problem else ""
        super().__init__(
            f"{feature} is part of CaseTrack Pro; this CaseTrack runs on the Free tier{why}. "
            f"Upgrade at {UPGRADE_URL}, then run: casetrack licence activate YOUR-KEY"
        )


def require_pro(licence: Licence, feature: str) -> None:
    """Raises ProFeature unless the licence is Pro or Firm."""
    if licence.tier is LicenseTier.FREE:
        raise ProFeature(feature, licence)


def check_case_limit(limits: Limits, current: int) -> None:
    """Raises FreeTierLimit when one more case would exceed the tier."""
    if limits.max_cases is not None and current >= limits.max_cases:
        raise FreeTierLimit("cases", current, limits.max_cases, "Delete a case")


def check_document_limit(limits: Limits, current: int) -> None:
    """Raises FreeTierLimit when one more document would exceed the tier."""
    if limits.max_documents_per_case is not None and current >= limits.max_documents_per_case:
        raise FreeTierLimit("documents per case", current, limits.max_documents_per_case, "Delete a document")


# --- key format ----------------------------------------------------------------


def _b32encode(data: bytes, chars: int) -> str:
    number = int.from_bytes(data, "big")
    out = []
    for _ in range(chars):
        out.append(_ALPHABET[number & 31])
        number >>= 5
    return "".join(reversed(out))


def _b32decode(text: str, nbytes: int) -> bytes:
    number = 0
    for ch in text:
        index = _ALPHABET.find(ch)
        if index < 0:
            raise ValueError(ch)
        number = (number << 5) | index
    return number.to_bytes(nbytes, "big")  # OverflowError -> too long


def normalise(key: str) -> str:
    """Uppercase, spaces removed, Crockford look-alikes (O, I, L) mapped in the coded parts."""
    parts = "".join(key.split()).upper().split("-")
    if len(parts) != 5:
        return "-".join(parts)
    return "-".join([parts[0], *(p.translate(_ALIASES) for p in parts[1:])])


def _payload(claims: Claims) -> str:
    days = 0 if claims.expires is None else (claims.expires - EPOCH).days
    if not 0 <= days < (1 << 20) or not 0 <= claims.seats < 64 or not 0 <= claims.serial < (1 << 60):
        raise ValueError("expiry, seats or serial out of range")
    bits = (FORMAT_VERSION << 86) | (days << 66) | (claims.seats << 60) | claims.serial
    text = _b32encode(bits.to_bytes(12, "big"), 18)
    return f"{text[0:6]}-{text[6:12]}-{text[12:18]}"


def issue(claims: Claims, signing_key: bytes) -> str:
    """A signed key (for scripts/issue_licence.py and tests)."""
    if not claims.plan.isalpha():
        raise ValueError("the tier is letters only")
    body = f"{claims.plan.upper()}-{_payload(claims)}"
    signature = SigningKey(signing_key).sign(SIGNED_PREFIX + body.encode()).signature
    return f"{body}-{_b32encode(signature, _SIG_CHARS)}"


def verify(key: str, public_key: bytes, today: date | None = None) -> Claims:
    """The claims of a genuine, unexpired key of a known tier.

    Raises LicenceKeyError: malformed, signature does not verify, unknown tier, expired."""
    text = normalise(key)
    short = text[:26] + ("..." if len(text) > 26 else "")
    parts = text.split("-")
    shape_ok = (len(parts) == 5 and parts[0].isalpha() and all(len(p) == 6 for p in parts[1:4])
                and len(parts[4]) == _SIG_CHARS)
    try:
        if not shape_ok:
            raise ValueError(text)
        payload = int.from_bytes(_b32decode("".join(parts[1:4]), 12), "big")
        signature = _b32decode(parts[4], 64)
    except (ValueError, OverflowError):
        raise LicenceKeyError(
            f'"{short}" is not a CaseTrack licence key (they look like {KEY_FORMAT}). '
            "Copy the whole key from your purchase e-mail and try again."
        ) from None
    try:
        VerifyKey(public_key).verify(SIGNED_PREFIX + "-".join(parts[:4]).encode(), signature)
    except BadSignatureError:
        raise LicenceKeyError(
            f"The licence key {short} did not pass verification (it was altered or mistyped). "
            "Paste it again exactly as sent, or contact support: https://casetrack.legal/support"
        ) from None
    version, days = payload >> 86, (payload >> 66) & ((1 << 20) - 1)
    claims = Claims(plan=parts[0], expires=EPOCH + timedelta(days=days) if days else None,
                    seats=(payload >> 60) & 63, serial=payload & ((1 << 60) - 1))
    if version != FORMAT_VERSION or claims.plan not in PLANS:
        raise LicenceKeyError(
            f'The licence key {short} is for the "{claims.plan.capitalize()}" tier, which this version of '
            "CaseTrack does not offer (it knows Pro and Firm). Run 'casetrack update', or contact support: "
            "https://casetrack.legal/support"
        )
    if claims.expires is not None and claims.expires < (today or date.today()):
        raise LicenceKeyError(
            f"Your {claims.plan.capitalize()} licence {short} expired on {claims.expires.isoformat()}. "
            f"Renew at {UPGRADE_URL}, then run: casetrack licence activate NEW-KEY"
        )
    return claims


# --- where the key comes from -----------------------------------------------------


def trusted_public_key(override: bytes | None = None) -> bytes:
    """The verifying key: the product's, built into the package. Nothing in the environment can
    replace it (that would let anyone sign their own keys); in-process tests pass `override`."""
    return PRODUCT_PUBLIC_KEY if override is None else override


def licence_path(settings: Settings) -> Path:
    return settings.data_dir / LICENCE_FILE


def read_record(settings: Settings) -> dict[str, object]:
    try:
        record = json.loads(licence_path(settings).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def _write_record(settings: Settings, record: dict[str, object]) -> None:
    path = licence_path(settings)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    with contextlib.suppress(OSError):
        tmp.chmod(0o600)
    os.replace(tmp, path)


def load(settings: Settings, public_key: bytes | None = None, today: date | None = None) -> Licence:
    """The licence in force. Never raises: any problem means Free, with the reason in `problem`.

    Key sources, first found wins: Settings.license_key (--licence-key, CASETRACK_LICENSE_KEY or
    config.toml's license_key), then the key stored by `casetrack licence activate`."""
    try:
        record = read_record(settings)
        if settings.license_key:
            key, source = settings.license_key, "settings"
        elif isinstance(record.get("key"), str) and record["key"]:
            key, source = str(record["key"]), "activated"
        else:
            return FREE
        licence = _evaluate(key, source, trusted_public_key(public_key), today)
        if source == "activated":
            _remember(settings, record, licence)
        if licence.problem:
            log.warning("Licence: %s", licence.problem)
        return licence
    except Exception as exc:  # never let licensing stop CaseTrack from starting
        log.warning("Licence check failed (%s); using the Free tier", exc)
        return Licence(LicenseTier.FREE, "Free", "none", problem=f"the licence could not be checked: {exc}")


def _evaluate(key: str, source: str, public_key: bytes, today: date | None) -> Licence:
    try:
        claims = verify(key, public_key, today)
    except LicenceKeyError as exc:
        return Licence(LicenseTier.FREE, "Free", source, problem=exc.message)
    return Licence(PLANS[claims.plan], claims.plan.capitalize(), source, claims.expires, claims.serial)


def _remember(settings: Settings, record: dict[str, object], licence: Licence) -> None:
    """Keep the last check's result beside the key; rewritten only when the result changes."""
    last = {"plan": licence.plan, "expires": licence.expires.isoformat() if licence.expires else None,
            "problem": licence.problem}
    previous = record.get("last_check")
    if isinstance(previous, dict) and {k: previous.get(k) for k in last} == last:
        return
    with contextlib.suppress(OSError):
        _write_record(settings, {**record, "last_check": {**last, "at": time.time()}})


def activate(settings: Settings, key: str, public_key: bytes | None = None, today: date | None = None) -> Licence:
    """Verify a key and store it in the data directory. Raises LicenceKeyError (nothing stored)."""
    text = normalise(key)
    if not text:
        raise InvalidInput(f"Give the licence key, e.g. casetrack licence activate {KEY_FORMAT}")
    claims = verify(text, trusted_public_key(public_key), today)
    licence = Licence(PLANS[claims.plan], claims.plan.capitalize(), "activated", claims.expires, claims.serial)
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    _write_record(settings, {"key": text, "activated_at": time.time(),
                             "last_check": {"plan": licence.plan, "at": time.time(), "problem": None,
                                            "expires": claims.expires.isoformat() if claims.expires else None}})
    return licence


def deactivate(settings: Settings) -> bool:
    """Forget the activated key. True if there was one."""
    try:
        licence_path(settings).unlink()
    except FileNotFoundError:
        return False
    return True


def new_serial() -> int:
    return secrets.randbits(60)
