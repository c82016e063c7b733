"""LibreOffice run so that the document it converts cannot make it open a connection.

An .odt or .doc can link a picture by URL instead of carrying it. Converting one with LibreOffice's
defaults fetched it (OPTIONS, HEAD, then GET to the address in the file): a tracking beacon telling
whoever sent the document that it was opened, and when, from where. Three independent locks; with
LibreOffice 7.4 each alone stopped the fetch of a linked picture from an .odt and a .doc, and
tests/parse/test_no_network.py checks all of them together on every format that can link one:

1. LibreOffice's own setting that refuses every link from a document outside its trusted locations
   (linked pictures, media, auto-reload), with link and field updates on load off and macros disabled;
2. its proxy setting pointing at a port on this machine where nothing listens (127.0.0.1:9, the
   "discard" port), with no exceptions, so a request that still slipped through goes nowhere;
3. an environment whose proxy variables point there too (LibreOffice reads them when its own proxy
   setting is "system"), with no `no_proxy` exceptions.

The settings are written into the private profile each conversion starts with; LibreOffice reads
`user/registrymodifications.xcu` at start-up and keeps it.
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import quoteattr

from casetrack import telemetry_off

_SCRIPTING = "/org.openoffice.Office.Common/Security/Scripting"
_WRITER_UPDATE = "/org.openoffice.Office.Writer/Content/Update"
_INET = "/org.openoffice.Inet/Settings"
_UPDATE_CHECK = "/org.openoffice.Office.Jobs/Jobs/org.openoffice.Office.Jobs:Job['UpdateCheck']/Arguments"
NOWHERE_HOST, NOWHERE_PORT = "127.0.0.1", 9

# (configuration path, property, value): LinkUpdateModes NEVER = 0; proxy type 1 = manual.
SETTINGS: tuple[tuple[str, str, str], ...] = (
    (_SCRIPTING, "BlockUntrustedRefererLinks", "true"),
    (_SCRIPTING, "DisableMacrosExecution", "true"),
    (_WRITER_UPDATE, "Link", "0"),
    (_WRITER_UPDATE, "Field", "false"),
    (_UPDATE_CHECK, "AutoCheckEnabled", "false"),
    (_INET, "ooInetProxyType", "1"),
    (_INET, "ooInetNoProxy", ""),
    *((_INET, f"ooInet{scheme}ProxyName", NOWHERE_HOST) for scheme in ("HTTP", "HTTPS", "FTP")),
    *((_INET, f"ooInet{scheme}ProxyPort", str(NOWHERE_PORT)) for scheme in ("HTTP", "HTTPS", "FTP")),
)
_PROXY_VARIABLES = ("http_proxy", "https_proxy", "ftp_proxy", "all_proxy")


def offline_profile(folder: Path) -> str:
    """A new LibreOffice profile in `folder` holding SETTINGS, as the URI -env:UserInstallation takes."""
    user = folder / "user"
    user.mkdir(parents=True)
    items = "".join(
        f"<item oor:path={quoteattr(path)}><prop oor:name={quoteattr(name)} oor:op=\"fuse\">"
        f"<value>{value}</value></prop></item>\n"
        for path, name, value in SETTINGS
    )
    (user / "registrymodifications.xcu").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<oor:items xmlns:oor="http://openoffice.org/2001/registry" '
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
        f"{items}</oor:items>\n",
        encoding="utf-8",
    )
    return folder.as_uri()


def offline_environment(scratch: Path) -> dict[str, str]:
    """This process's environment with every proxy pointing nowhere, no proxy exceptions, and LibreOffice's
    own temporary files in `scratch` (inside the data directory, not the shared temp folder)."""
    nowhere = f"http://{NOWHERE_HOST}:{NOWHERE_PORT}"
    environment = {
        name: value for name, value in telemetry_off.child_environment().items()
        if name.lower() not in (*_PROXY_VARIABLES, "no_proxy")
    }  # fmt: skip
    for name in _PROXY_VARIABLES:
        environment[name] = environment[name.upper()] = nowhere
    for name in ("TMPDIR", "TMP", "TEMP"):
        environment[name] = str(scratch)
    return environment
