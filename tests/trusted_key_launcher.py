"""Test-only: run the `casetrack` CLI trusting a throwaway licence key pair instead of the
product's built-in public key, so tests can start Pro-tier servers in subprocesses. The
product itself never reads a replacement key from its environment."""

import base64
import os
import sys

from casetrack.service.distribution import licensing

licensing.PRODUCT_PUBLIC_KEY = base64.b64decode(os.environ["CASETRACK_TEST_TRUSTED_KEY"])

if __name__ == "__main__":
    from casetrack.cli.app import main

    sys.argv[0] = "casetrack"
    main()
