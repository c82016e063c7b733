"""A small case written out as a user's folder: a contract, an order on a motion to dismiss, a
scanned letter and two e-mails, the second quoting the first (issue 35's first hour)."""

from __future__ import annotations

from pathlib import Path

from tests.parse.synthetic import image_pdf_bytes, text_image

CONTRACT = """MASTER SERVICES AGREEMENT

This Master Services Agreement (the "Agreement") is made on March 3, 2023 between Harbor Logistics LLC,
a Delaware limited liability company ("Harbor"), and Meridian Freight Systems, Inc., a New York
corporation ("Meridian").

1. SERVICES. Meridian shall carry Harbor's containers from the Port of Newark to Harbor's warehouses.

2. TERM. This Agreement begins on April 1, 2023 and continues for two years.

3. GOVERNING LAW. This Agreement is governed by the laws of the State of New York.

HARBOR LOGISTICS LLC                         MERIDIAN FREIGHT SYSTEMS, INC.
By: Angela Ruiz, Chief Executive Officer     By: Victor Lang, President
"""

ORDER = """UNITED STATES DISTRICT COURT
SOUTHERN DISTRICT OF NEW YORK

HARBOR LOGISTICS LLC,

                    Plaintiff,

          -v-

MERIDIAN FREIGHT SYSTEMS,

                    Defendant.

23-cv-4411 (JPO)

MEMORANDUM OPINION AND ORDER

J. PAUL OETKEN, District Judge:

Plaintiff Harbor Logistics LLC sues Meridian Freight Systems for breach of the Master Services
Agreement. On February 5, 2024, Defendant moved to dismiss the complaint under Rule 12(b)(6).
For the reasons that follow, the motion to dismiss is DENIED.

The complaint alleges that Meridian stopped carrying Harbor's containers on January 8, 2024.
Those allegations state a claim for breach of contract.

SO ORDERED.

Dated: June 12, 2024
       New York, New York
                                                  J. PAUL OETKEN
                                                  United States District Judge
"""

LETTER = ["MERIDIAN FREIGHT SYSTEMS, INC.", "200 Water Street, New York, NY 10038", "",
          "May 2, 2024", "", "Angela Ruiz", "Harbor Logistics LLC", "",
          "Re: Master Services Agreement", "",
          "Dear Ms. Ruiz:", "",
          "Meridian will resume service on May 20, 2024, under the Agreement.",
          "Please confirm the delivery schedule by May 10, 2024.", "",
          "Sincerely,", "", "Rebecca Thornton", "General Counsel"]

FIRST_MAIL = """From: Angela Ruiz <aruiz@harborlogistics.com>
To: Victor Lang <vlang@meridianfreight.com>
Subject: Missed pickups
Date: Wed, 10 Jan 2024 09:12:00 -0500
Message-ID: <first@harborlogistics.com>
Content-Type: text/plain; charset=utf-8

Victor,

Your trucks missed the pickup at the Port of Newark on January 8, 2024, and again on January 9, 2024.
Under the Agreement we expect a written plan by January 15, 2024.

Angela
"""

REPLY_MAIL = """From: Victor Lang <vlang@meridianfreight.com>
To: Angela Ruiz <aruiz@harborlogistics.com>
Subject: Re: Missed pickups
Date: Thu, 11 Jan 2024 16:40:00 -0500
Message-ID: <reply@meridianfreight.com>
In-Reply-To: <first@harborlogistics.com>
Content-Type: text/plain; charset=utf-8

Angela,

We will send the plan on January 12, 2024.

Victor

On Wed, Jan 10, 2024 at 9:12 AM Angela Ruiz <aruiz@harborlogistics.com> wrote:
> Victor,
>
> Your trucks missed the pickup at the Port of Newark on January 8, 2024, and again on January 9, 2024.
> Under the Agreement we expect a written plan by January 15, 2024.
>
> Angela
"""


def small_case(folder: Path) -> Path:
    """The five files in `folder`, as a user's case folder."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "Master Services Agreement.txt").write_text(CONTRACT, encoding="utf-8")
    (folder / "Order on motion to dismiss.txt").write_text(ORDER, encoding="utf-8")
    (folder / "Meridian letter 2024-05-02.pdf").write_bytes(image_pdf_bytes([text_image(LETTER)]))
    (folder / "Missed pickups.eml").write_text(FIRST_MAIL, encoding="utf-8")
    (folder / "Re Missed pickups.eml").write_text(REPLY_MAIL, encoding="utf-8")
    return folder
