"""An e-mail's own text told apart from the earlier messages it quotes or forwards, on real messages
(benchmarks/heldout_email/source: Enron e-mails as the public corpus holds them)."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from pathlib import Path

from casetrack.parse import parse_file
from casetrack.parse.mail.quotes import message_key, split_message

SET = Path(__file__).resolve().parents[2] / "benchmarks" / "heldout_email"


def body(key: str) -> str:
    message = email.message_from_string((SET / "source" / f"{key}.txt").read_text(encoding="utf-8"),
                                        policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message.get_content()


def own_key(key: str) -> str:
    text = body(key)
    first = split_message(text)[0]
    return message_key(text[first.text_start:first.end])


def test_an_outlook_reply_is_its_own_words_then_each_message_it_quotes_with_who_sent_it_and_when() -> None:
    text = body("sce_dasovich2")
    own, reply, original = split_message(text)
    assert not own.quoted and text[own.start:own.end].startswith("Couple of additional pieces of information:")
    assert (reply.header.sender, reply.header.sent) == ("Dasovich, Jeff", "Monday, October 29, 2001 5:27 PM")
    assert original.header.sender == "Steffes, James D."
    assert original.header.subject == "Proposed SCE Negotiation Strategy"
    assert original.header.recipients.startswith("Dasovich, Jeff; Mara, Susan")
    # the quoted original is known as the original itself, and the quoted reply as the reply on its own
    assert message_key(text[original.text_start:original.end]) == own_key("sce_orig")
    assert message_key(text[reply.text_start:reply.end]) == own_key("sce_dasovich1")


def test_a_forward_nesting_outlook_notes_and_groupwise_headers_gives_each_author_in_order() -> None:
    parts = split_message(body("taping_haedicke"))
    assert [p.header.sender for p in parts[1:]] == ["Black, Don", "Mike D Smith", "Kristen Bird", "Sarah Dietrich"]
    assert [p.header.sent for p in parts[3:]] == ["08/02/2001 07:32:19 PM", "08/02/01 04:47PM"]


def test_a_quoted_printable_chain_of_eight_messages_is_split_at_each_header() -> None:
    parts = split_message(body("santa_clara"))
    assert [p.header.sent for p in parts[1:]] == [
        "Monday, August 27, 2001 4:43 PM", "Saturday, August 25, 2001 5:29 PM", "Tue 8/21/2001 2:08 AM",
        "20 August 2001 22:30", "Friday, August 17, 2001 8:07 AM", "06 August 2001 18:23",
        "Monday, August 06, 2001 10:41 AM"]


def test_an_on_wrote_reply_over_angle_quoted_lines_returns_to_the_reply_after_them() -> None:
    original = body("sce_orig")
    quoted = "\n".join(f"> {line}" if line else ">" for line in original.splitlines())
    text = (f"Sounds good to me.\n\nOn Mon, Oct 29, 2001 at 8:04 AM, Steffes, James D. <d..steffes@enron.com> "
            f"wrote:\n{quoted}\n\nOne more thing: Lisa should lead the call.\n")
    _, cited, resumed = split_message(text)
    assert cited.quoted and cited.header.sender == "Steffes, James D."
    assert message_key(text[cited.text_start:cited.end]) == own_key("sce_orig")  # ">" marks set aside
    assert not resumed.quoted
    assert text[resumed.start:resumed.end].strip() == "One more thing: Lisa should lead the call."


def test_each_quoted_message_of_an_eml_and_a_msg_starts_a_page_of_its_own() -> None:
    for name in ("RE Proposed SCE Negotiation Strategy (3).eml", "RE RSM Production v. El Paso.msg"):
        document = parse_file(SET / "docs" / name)
        assert [m.quoted for m in document.messages] == [False, True, True]
        assert document.pages[1].text.startswith("-----Original Message-----")
        quoted = document.metadata["quoted_messages"].split("; ")
        assert [q.split(" ")[0] for q in quoted] == ["2", "3"]
    reply = parse_file(SET / "docs" / "RE Proposed SCE Negotiation Strategy (3).eml")
    original = parse_file(SET / "docs" / "Proposed SCE Negotiation Strategy.eml")
    assert reply.messages[2].key == original.metadata["message_key"] == original.messages[0].key
