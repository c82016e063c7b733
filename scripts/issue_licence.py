"""Issue CaseTrack licence keys (the vendor's side; never shipped to users).

    uv run python scripts/issue_licence.py --private-key ~/secrets/casetrack-signing.key --tier pro --expires 2026-12-31
    uv run python scripts/issue_licence.py --new-key-pair ~/secrets/casetrack-signing.key

The private key (base64 of the 32-byte ed25519 seed) comes from a file outside this repository,
or from $CASETRACK_LICENCE_SIGNING_KEY; the script refuses a key file inside the checkout so
it can never be committed. `--new-key-pair` writes a new private key and prints the public key
to paste into `PRODUCT_PUBLIC_KEY` in src/casetrack/service/licensing.py.
"""

from __future__ import annotations

import argparse
import base64
import os
import sys
from datetime import date
from pathlib import Path

from nacl.signing import SigningKey

from casetrack.service.distribution import licensing

REPO = Path(__file__).resolve().parents[1]
ENV = "CASETRACK_LICENCE_SIGNING_KEY"


def _outside_repo(path: Path) -> Path:
    resolved = path.expanduser().resolve()
    if resolved == REPO or REPO in resolved.parents:
        sys.exit(f"error: {path} is inside the repository; keep the signing key outside the repository.")
    return resolved


def _load_private_key(path: str | None) -> bytes:
    if path:
        text = _outside_repo(Path(path)).read_text(encoding="utf-8")
    elif os.environ.get(ENV):
        text = os.environ[ENV]
    else:
        sys.exit(f"error: give --private-key FILE or set {ENV}.")
    seed = base64.b64decode(text.strip(), validate=True)
    if len(seed) != 32:
        sys.exit("error: the private key must be base64 of a 32-byte ed25519 seed.")
    return seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--private-key", help="file holding the base64 ed25519 signing key (outside the repo)")
    parser.add_argument("--tier", choices=["pro", "firm"], default="pro")
    parser.add_argument("--expires", default="never", help="YYYY-MM-DD, or 'never'")
    parser.add_argument("--seats", type=int, default=1, help="seats (Firm: 5)")
    parser.add_argument("--serial", type=int, help="serial number (default: random)")
    parser.add_argument("--new-key-pair", metavar="FILE", help="write a new private key to FILE and print the "
                                                              "public key")
    args = parser.parse_args()

    if args.new_key_pair:
        target = _outside_repo(Path(args.new_key_pair))
        if target.exists():
            sys.exit(f"error: {target} exists; refusing to overwrite a signing key.")
        key = SigningKey.generate()
        target.write_text(base64.b64encode(bytes(key)).decode() + "\n", encoding="utf-8")
        target.chmod(0o600)
        print(base64.b64encode(bytes(key.verify_key)).decode())
        return

    expires = None if args.expires == "never" else date.fromisoformat(args.expires)
    serial = args.serial if args.serial is not None else licensing.new_serial()
    claims = licensing.Claims(args.tier.upper(), expires, args.seats, serial)
    seed = _load_private_key(args.private_key)
    key = licensing.issue(claims, seed)
    licensing.verify(key, bytes(SigningKey(seed).verify_key))  # self-check before handing it out
    print(key)


if __name__ == "__main__":
    main()
