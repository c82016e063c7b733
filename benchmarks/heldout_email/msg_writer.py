"""An Outlook .msg written from an e-mail, for the heldout_email set (and the tests that read its files).

A .msg is an OLE compound file (MS-CFB, version 3: 512-byte sectors, streams under 4,096 bytes in 64-byte
mini sectors) holding MAPI properties as [MS-OXMSG] lays them out: a property table per storage, one
`__substg1.0_<id><type>` stream per string, a `__recip_version1.0_#<n>` storage per recipient. Only what a
received or sent message needs is written: subject, body, sender, recipients, submit and delivery times,
Message-ID and (for received mail) the Internet headers Outlook keeps. No library here writes compound
files (olefile only reads them, or rewrites streams of unchanged size), hence these ~150 lines; the
result is checked by reading it back through olefile and CaseTrack's own .msg parser (make_set.py).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from datetime import UTC, datetime

SECTOR = 512
MINI_SECTOR = 64
MINI_CUTOFF = 4096
FREE, END, FAT_SECT = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD
NO_STREAM = 0xFFFFFFFF
PT_LONG, PT_SYSTIME, PT_UNICODE = 0x0003, 0x0040, 0x001F
_FILETIME_EPOCH = datetime(1601, 1, 1, tzinfo=UTC)


@dataclass
class Node:
    """A storage (children) or a stream (data) of the compound file."""

    name: str
    data: bytes | None = None
    children: list[Node] = field(default_factory=list)


@dataclass
class Recipient:
    name: str
    address: str
    kind: int  # 1 To, 2 Cc, 3 Bcc


def filetime(moment: datetime) -> int:
    return int((moment - _FILETIME_EPOCH).total_seconds() * 10_000_000)


def message_storage(subject: str, body: str, sender: tuple[str, str], recipients: list[Recipient],
                    sent: datetime, message_id: str, transport_headers: str | None) -> Node:
    """The root storage of a .msg: its property streams, its recipients, an (empty) named-property map."""
    strings = {0x001A: "IPM.Note", 0x0037: subject, 0x1000: body, 0x0C1A: sender[0], 0x0C1E: "SMTP",
               0x0C1F: sender[1], 0x5D01: sender[1], 0x1035: message_id}
    if transport_headers is not None:
        strings[0x007D] = transport_headers
    fixed = [(0x0039, PT_SYSTIME, filetime(sent)), (0x0E06, PT_SYSTIME, filetime(sent))]
    header = struct.pack("<8xIIII8x", len(recipients), 0, len(recipients), 0)
    root = Node("Root Entry", children=[*_property_streams(strings, fixed, header)])
    for n, person in enumerate(recipients):
        own = {0x3001: person.name, 0x3002: "SMTP", 0x3003: person.address, 0x39FE: person.address}
        root.children.append(Node(f"__recip_version1.0_#{n:08X}", children=_property_streams(
            own, [(0x0C15, PT_LONG, person.kind)], b"\0" * 8)))
    root.children.append(Node("__nameid_version1.0", children=[
        Node(f"__substg1.0_{n:04X}0102", b"") for n in (2, 3, 4)]))
    return root


def _property_streams(strings: dict[int, str], fixed: list[tuple[int, int, int]], header: bytes) -> list[Node]:
    table = bytearray(header)
    streams = []
    for prop, value in strings.items():
        data = value.encode("utf-16-le")
        table += struct.pack("<IIII", (prop << 16) | PT_UNICODE, 6, len(data) + 2, 0)
        streams.append(Node(f"__substg1.0_{prop:04X}{PT_UNICODE:04X}", data))
    for prop, kind, number in fixed:
        table += struct.pack("<IIQ", (prop << 16) | kind, 6, number)
    return [Node("__properties_version1.0", bytes(table)), *streams]


def compound_file(root: Node) -> bytes:
    """The bytes of a version 3 compound file holding `root`'s tree."""
    entries: list[Node] = []
    ids: dict[int, int] = {}

    def number(node: Node) -> None:
        ids[id(node)] = len(entries)
        entries.append(node)
        for child in node.children:
            number(child)

    number(root)
    mini = bytearray()
    mini_fat: list[int] = []
    starts: dict[int, int] = {}
    for node in entries:  # small streams go to the mini stream, in 64-byte chained mini sectors
        if node.data is not None and 0 < len(node.data) < MINI_CUTOFF:
            count = -(-len(node.data) // MINI_SECTOR)
            starts[id(node)] = len(mini_fat)
            mini_fat += [len(mini_fat) + i + 1 for i in range(count - 1)] + [END]
            mini += node.data.ljust(count * MINI_SECTOR, b"\0")
    sectors: list[bytes] = []
    fat: list[int] = []

    def place(data: bytes) -> int:
        if not data:
            return END
        first = len(sectors)
        count = -(-len(data) // SECTOR)
        for i in range(count):
            sectors.append(data[i * SECTOR:(i + 1) * SECTOR].ljust(SECTOR, b"\0"))
            fat.append(first + i + 1 if i < count - 1 else END)
        return first

    for node in entries:  # large streams in regular sectors
        if node.data is not None and len(node.data) >= MINI_CUTOFF:
            starts[id(node)] = place(node.data)
    mini_stream_start = place(bytes(mini))
    mini_fat_bytes = b"".join(struct.pack("<I", v) for v in mini_fat)
    mini_fat_sectors = -(-len(mini_fat_bytes) // SECTOR)
    mini_fat_start = place(mini_fat_bytes.ljust(mini_fat_sectors * SECTOR, b"\xff")) if mini_fat else END
    directory = b"".join(_entry(n, entries, ids, starts, mini_stream_start, len(mini)) for n in entries)
    directory_start = place(directory.ljust(-(-len(directory) // SECTOR) * SECTOR, b"\0"))
    fat_count = 1
    while len(fat) + fat_count > fat_count * (SECTOR // 4):
        fat_count += 1
    fat_start = len(sectors)
    fat += [FAT_SECT] * fat_count
    fat_bytes = b"".join(struct.pack("<I", v) for v in fat).ljust(fat_count * SECTOR, b"\xff")
    if fat_count > 109:
        raise ValueError("file too large for a header-only DIFAT")
    difat = [fat_start + i for i in range(fat_count)] + [FREE] * (109 - fat_count)
    header = struct.pack("<8s16sHHHHH6sIIIIIIIII", bytes.fromhex("D0CF11E0A1B11AE1"), b"\0" * 16, 0x3E, 3,
                         0xFFFE, 9, 6, b"\0" * 6, 0, fat_count, directory_start, 0, MINI_CUTOFF, mini_fat_start,
                         mini_fat_sectors, END, 0) + b"".join(struct.pack("<I", v) for v in difat)
    return header + b"".join(sectors) + fat_bytes


def _entry(node: Node, entries: list[Node], ids: dict[int, int], starts: dict[int, int], mini_start: int,
           mini_size: int) -> bytes:
    name = node.name.encode("utf-16-le") + b"\0\0"
    is_root = node is entries[0]
    kind = 5 if is_root else (2 if node.data is not None else 1)
    left = right = NO_STREAM
    child = _tree(node.children, ids)[0] if node.children else NO_STREAM
    if is_root:
        start, size = (mini_start if mini_size else END), mini_size
    elif node.data is not None:
        start, size = starts.get(id(node), END), len(node.data)
    else:
        start, size = 0, 0
    for parent in entries:  # this node's siblings in its parent's tree (nodes compare by identity here)
        if any(child is node for child in parent.children):
            left, right = _tree(parent.children, ids)[1][ids[id(node)]]
    return struct.pack("<64sHBBIII16sIQQIQ", name.ljust(64, b"\0"), len(name), kind, 1, left, right, child,
                       b"\0" * 16, 0, 0, 0, start, size)


def _tree(children: list[Node], ids: dict[int, int]) -> tuple[int, dict[int, tuple[int, int]]]:
    """A balanced binary search tree of siblings, ordered as MS-CFB compares names (length, then upper case):
    its root's id and each member's (left, right) ids. All nodes black; readers walk it, none rebalances."""
    ordered = sorted(children, key=lambda n: (len(n.name), n.name.upper()))
    links: dict[int, tuple[int, int]] = {}

    def build(lo: int, hi: int) -> int:
        if lo >= hi:
            return NO_STREAM
        mid = (lo + hi) // 2
        links[ids[id(ordered[mid])]] = (build(lo, mid), build(mid + 1, hi))
        return ids[id(ordered[mid])]

    return build(0, len(ordered)), links
