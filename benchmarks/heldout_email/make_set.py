"""Build heldout_email's docs/, text/ and queries.jsonl from source/ and spec.py.

    uv run python benchmarks/heldout_email/make_set.py

An .eml is the source message byte for byte. An .msg is made from it by msg_writer.py and read back
through CaseTrack's .msg parser, which must give the same subject and body. A reference text is the
message's From, To, Cc, Date and Subject lines, a blank line and its body as a reader sees it (quoted-
printable decoded). Each answer is found in its message's reference text with whitespace ignored and
must occur there once.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import json
import re
import sys
from email.message import EmailMessage
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
from heldout_build import locate_answer  # noqa: E402
from msg_writer import Recipient, compound_file, message_storage  # noqa: E402
from spec import DOCUMENTS, QUERIES, RESOLVED  # noqa: E402

REPOSITORY = "jpvance123/Amdocs_ML_Email_Analytics"
COMMIT = "97253c9511f98ef58333bb84913ce9e38d245af8"
PATH = "MailDir_to_MBOX/enron/enron.sanders-r.inbox"
LICENCE = ("Enron e-mail corpus, made public by the Federal Energy Regulatory Commission (FERC) in its Western "
           "energy markets investigation (PA02-2); no copyright licence is stated by the mbox repository")
CITED = ("From", "To", "Cc", "Date", "Subject")


def parsed(raw: str) -> EmailMessage:
    message = email.message_from_string(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def one_line(value: object) -> str:
    return " ".join(str(value).split())


def reference(message: EmailMessage) -> str:
    lines = [f"{h}: {one_line(message[h])}" for h in CITED if message[h] is not None and one_line(message[h])]
    return "\n".join(lines) + "\n\n" + body(message)


def body(message: EmailMessage) -> str:
    return "\n".join(line.rstrip() for line in message.get_content().strip("\n").splitlines())


def display_names(value: str) -> list[str]:
    """The display names of an X-To or X-cc line ("Sanders, Richard B. </O=ENRON/...>, 'Mike Day' <x@y>")."""
    return [part.strip().strip("'\"") for part in re.findall(r"([^<>]+?)\s*<[^>]*>,?", value or "")]


def outlook_file(message: EmailMessage, headers: bool) -> bytes:
    """The message as Outlook saves it: MAPI properties, plus the Internet headers of received mail."""
    raw_headers = "".join(f"{k}: {v}\r\n" for k, v in message.items())
    sender_names = display_names(str(message["X-From"] or ""))
    sender = (sender_names[0] if sender_names else "", email.utils.parseaddr(str(message["From"]))[1])
    recipients = []
    for header, x_header, kind in (("To", "X-To", 1), ("Cc", "X-cc", 2)):
        addresses = [a for _, a in email.utils.getaddresses([str(message[header] or "")]) if a]
        names = display_names(str(message[x_header] or ""))
        recipients += [Recipient(names[i] if i < len(names) else a, a, kind) for i, a in enumerate(addresses)]
    sent = email.utils.parsedate_to_datetime(str(message["Date"]))
    root = message_storage(one_line(message["Subject"] or ""), body(message).replace("\n", "\r\n"), sender,
                           recipients, sent, one_line(message["Message-ID"]), raw_headers if headers else None)
    return compound_file(root)


def main() -> int:
    docs, text = HERE / "docs", HERE / "text"
    docs.mkdir(exist_ok=True)
    text.mkdir(exist_ok=True)
    manifest, references = [], {}
    for key, (name, kind, headers) in DOCUMENTS.items():
        raw = (HERE / "source" / f"{key}.txt").read_text(encoding="utf-8")
        message = parsed(raw)
        target = docs / name
        if kind == "eml":
            target.write_bytes(raw.encode("utf-8"))
        else:
            target.write_bytes(outlook_file(message, headers))
        references[key] = reference(message)
        (text / f"{name}.txt").write_text(references[key], encoding="utf-8")
        manifest.append({"file": name, "format": kind, "internet_headers": headers if kind == "msg" else True,
                         "message_id": one_line(message["Message-ID"]), "date": one_line(message["Date"]),
                         "from": one_line(message["From"]), "subject": one_line(message["Subject"] or ""),
                         "source": {"repository": REPOSITORY, "commit": COMMIT, "path": PATH}, "licence": LICENCE})
    (docs / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    lines = []
    for qid, kind, question, key, answer in QUERIES:
        start, end = locate_answer(references[key], answer)
        record = {"id": qid, "query": question, "kind": kind, "doc": DOCUMENTS[key][0], "spans": [[start, end]],
                  "answer_text": references[key][start:end], "page": None, "text_line": None,
                  "source": "hand-labeled", "labels": "hand-labelled for heldout_email before any search ran on it"}
        if qid in RESOLVED:
            record["resolved_date"] = RESOLVED[qid]
        lines.append(json.dumps(record, ensure_ascii=False))
    (HERE / "queries.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(DOCUMENTS)} messages, {len(QUERIES)} queries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
