"""Check the signature `mcpb sign` appended to a bundle, with OpenSSL.

    python scripts/mcpb_signature.py casetrack.mcpb [--trust cert.pem]

A signed bundle is the zip, then `MCPB_SIG_V1`, a 4-byte little-endian length, a detached PKCS#7 signature
of the zip (DER), and `MCPB_SIG_END`. `mcpb verify` checks it with `openssl verify -purpose codesigning`, a
purpose OpenSSL 3.0 (Debian 12, Ubuntu 22.04) does not know, so there it calls every bundle unsigned. This
checks the same things without that purpose: the signature covers the zip byte for byte, and the signer's
certificate chains to the system's authorities or to the certificate given with --trust (a self-signed one).
Exit 0 when valid, printing the signer; 1 otherwise, saying why."""

from __future__ import annotations

import argparse
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

HEADER, FOOTER = b"MCPB_SIG_V1", b"MCPB_SIG_END"


def split_signed(bundle: bytes) -> tuple[bytes, bytes]:
    """(the zip, its PKCS#7 signature). Raises ValueError when the bundle carries no signature block."""
    end = bundle.rfind(FOOTER)
    start = bundle.rfind(HEADER, 0, end)
    if end == -1 or start == -1:
        raise ValueError("the bundle is not signed (no MCPB_SIG_V1 ... MCPB_SIG_END block at its end)")
    (length,) = struct.unpack_from("<I", bundle, start + len(HEADER))
    signature = bundle[start + len(HEADER) + 4: start + len(HEADER) + 4 + length]
    if len(signature) != length or start + len(HEADER) + 4 + length != end:
        raise ValueError("the signature block is damaged (its length does not match)")
    return bundle[:start], signature


def verify(bundle_path: Path, trust: Path | None) -> str:
    """The signer's subject. Raises ValueError saying why the signature is not valid."""
    content, signature = split_signed(bundle_path.read_bytes())
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "content").write_bytes(content)
        (Path(tmp) / "signature.der").write_bytes(signature)
        authorities = ["-CAfile", str(trust)] if trust else ["-CApath", "/etc/ssl/certs"]
        checked = subprocess.run(
            ["openssl", "smime", "-verify", "-binary", "-inform", "DER", "-in", f"{tmp}/signature.der",
             "-content", f"{tmp}/content", "-purpose", "any", *authorities, "-out", f"{tmp}/out",
             "-signer", f"{tmp}/signer.pem"], capture_output=True, text=True)
        if checked.returncode != 0:
            raise ValueError(f"the signature is not valid: {checked.stderr.strip().splitlines()[0]}")
        subject = subprocess.run(["openssl", "x509", "-in", f"{tmp}/signer.pem", "-noout", "-subject"],
                                 capture_output=True, text=True, check=True).stdout.strip()
    return subject.removeprefix("subject=").strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle", type=Path)
    parser.add_argument("--trust", type=Path, help="a certificate (PEM) to trust, e.g. a self-signed one")
    args = parser.parse_args()
    try:
        signer = verify(args.bundle, args.trust)
    except ValueError as exc:
        print(f"{args.bundle}: {exc}", file=sys.stderr)
        sys.exit(1)
    print(f"{args.bundle}: signature valid, signed by {signer}")


if __name__ == "__main__":
    main()
