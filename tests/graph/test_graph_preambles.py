"""Contract preambles as unseen CUAD contracts write them (tests/graph/data/cuad_unseen.jsonl): where a name
begins and ends, the forms of a defined term, parties without a corporate word, party blocks, cover pages."""

from __future__ import annotations

import pytest

from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.graph import EntityKind, find_parties
from casetrack.graph.names import organization_key
from casetrack.graph.parties.party import org_names


def parties(text: str) -> dict[str, tuple[str, ...]]:
    """name -> defined terms, for every party found."""
    return {p.name: p.aliases for p in find_parties([ParsedPage(1, text, ExtractionMethod.NATIVE)])}


NAME_BOUNDARIES = [
    # two corporate words close one name
    ('This Distributor Agreement is made by and between B & C General Warehouse Corporation LLC, a Florida limited '
     'liability company ("Company"), and Coffee Importers Inc. ("Distributor").',
     {"B & C General Warehouse Corporation LLC": ("Company",), "Coffee Importers Inc.": ("Distributor",)}),
    # brands written with a small first letter
    ('This Franchise Agreement is made by and between bw-3 FRANCHISE SYSTEMS, INC. an Ohio corporation ("we" or '
     '"us"), and i3 Integrative Creative Solutions, LLC ("you").',
     {"bw-3 FRANCHISE SYSTEMS, INC.": ("we", "us"), "i3 Integrative Creative Solutions, LLC": ("you",)}),
    ('This Agreement is made by and between iMine Corporation, (hereinafter referred to as "JRVS") and SUNWAI '
     'Technology, a Taiwanese company (hereinafter referred to as the "Distributor").',
     {"iMine Corporation": ("JRVS",), "SUNWAI Technology": ("Distributor",)}),
    # a parenthesised word inside the name
    ('This Agreement is entered into by and among (a) Skype Communications, S.A. ("Skype") and (b) TOM Online (BVI) '
     'Limited ("Online BVI"), a company incorporated in the British Virgin Islands.',
     {"Skype Communications, S.A.": ("Skype",), "TOM Online (BVI) Limited": ("Online BVI",)}),
    # the agreement's title is not the start of the first name
    ('INTELLECTUAL PROPERTY RIGHTS AGREEMENT   Synchron, a California corporation (the "Investor"), and Rare Element '
     'Resources Ltd., a British Columbia corporation (the "Company"), agree as follows:',
     {"Synchron": ("Investor",), "Rare Element Resources Ltd.": ("Company",)}),
    # a name in quotation marks
    ('This Agreement is made between "Elephant Talk Communication Holding AG", a company incorporated under the laws '
     'of Switzerland, hereinafter referred to as: "ELEPHANT TALK"\n\nand\n\nT-Mobile Netherlands B.V., a company '
     'incorporated under the laws of the Netherlands, hereinafter referred to as: "T-Mobile"',
     {"Elephant Talk Communication Holding AG": ("ELEPHANT TALK",), "T-Mobile Netherlands B.V.": ("T-Mobile",)}),
    # a town is named with its State; the State alone is no party
    ('THIS AGREEMENT, made and entered into this 17th day of November, 2015, by and between the TOWN OF VINTON, '
     'VIRGINIA, a Virginia municipal corporation ("Grantor"), and ROANOKE GAS COMPANY, a Virginia corporation '
     '("Grantee").',
     {"TOWN OF VINTON, VIRGINIA": ("Grantor",), "ROANOKE GAS COMPANY": ("Grantee",)}),
    # the trade name after "dba" is the same party
    ('This Recipe Development Agreement is made between Reed\'s, Inc., a Delaware corporation ("Reed\'s") and B C '
     'Marketing Concepts Inc., dba Full Sail Brewing Company, an Oregon corporation ("Company"), effective as of '
     'October 11, 2019.',
     {"Reed's, Inc.": ("Reed's",), "B C Marketing Concepts Inc.": ("Company",)}),
    # "Signature" and "For" capitalised inside a name
    ("Distributorship agreement between Signature Orthopaedics Pty Ltd and Food For Athletes, Inc. WHEREAS the "
     "parties wish to trade.",
     {"Signature Orthopaedics Pty Ltd": (), "Food For Athletes, Inc.": ()}),
    # a name holding "and", as the cover page writes it
    ('JOINT DEVELOPMENT AGREEMENT\n\nbetween\n\nFUELCELL ENERGY, INC.\n\nand\n\nEXXONMOBIL RESEARCH AND ENGINEERING '
     'COMPANY\n\nThis Agreement is made as of the Effective Date between:\n\nExxonMobil Research and Engineering '
     'Company, a corporation of the State of Delaware ("ExxonMobil"); and\n\nFuelCell Energy, Inc., a corporation of '
     'the State of Delaware ("FCE").\n\nExxonMobil and FCE (each a "Party" and collectively the "Parties") agree as '
     'follows:',
     {"FuelCell Energy, Inc.": ("FCE",), "ExxonMobil Research and Engineering Company": ("ExxonMobil",)}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), NAME_BOUNDARIES, ids=[t[:40] for t, _ in NAME_BOUNDARIES])
def test_a_party_name_begins_and_ends_where_a_lawyer_reads_it(text: str, expected: dict) -> None:
    assert parties(text) == expected


DEFINED_TERMS = [
    ('entered into this 8th day of May 2014, by and between BIRCH FIRST GLOBAL INVESTMENTS INC., a corporation '
     'incorporated in the U.S. Virgin Islands (referred to as "Company") and MOUNT KNOWLEDGE HOLDINGS INC. and/or '
     'assigns, a corporation incorporated in the State of Nevada (referred to as "Marketing Affiliate" or "MA").',
     {"BIRCH FIRST GLOBAL INVESTMENTS INC.": ("Company",),
      "MOUNT KNOWLEDGE HOLDINGS INC.": ("Marketing Affiliate", "MA")}),
    ('This AGREEMENT is entered into on July 26, 2013 by and between Marine MP, LLC ("Lender") and MusclePharm '
     'Corporation with its principal place of business in Denver, Colorado and its subsidiaries, (collectively, '
     '"MusclePharm" or the "Company").',
     {"Marine MP, LLC": ("Lender",), "MusclePharm Corporation": ("MusclePharm", "Company")}),
    ('This AGREEMENT is entered into by and between, CONVERGTV, INC., a Delaware Corporation, ("ConvergTV"), and '
     'Fulucai Productions Ltd. (the producer, publisher, content owner, licensor, and grantor, any and all referred '
     'to herein as the "Producer").',
     {"CONVERGTV, INC.": ("ConvergTV",), "Fulucai Productions Ltd.": ("Producer",)}),
    ('This Agreement is made by and among WATER NOW, INC., a Texas corporation ("Water Now"), Hydraspin USA, Inc., '
     'a Texas corporation and a subsidiary of Water Now (the "Subsidiary," and collectively with Water Now, '
     '"Hydraspin") and BESTEV MANAGEMENT, LLC, a Texas limited liability company ("Distributor").',
     {"WATER NOW, INC.": ("Water Now",), "Hydraspin USA, Inc.": ("Subsidiary",),
      "BESTEV MANAGEMENT, LLC": ("Distributor",)}),
]  # fmt: skip


DEFINED_TERMS.append(  # a second term after the party's description
    ('THIS RESELLER AGREEMENT is made by and between i3 Integrative Creative Solutions, LLC ("i3 ICS"), a Virginia '
     'limited liability company, having its offices at 6564 Loisdale Court, Springfield, VA 22150 ("Reseller") and '
     'the company set forth below ("Company").   Company: Bravatek Solutions, Inc. (BVTK) Telephone: 1-866-490-8590',
     {"i3 Integrative Creative Solutions, LLC": ("i3 ICS", "Reseller"), "Bravatek Solutions, Inc.": ("Company",)}),
)  # the company set forth below is named after its role: "Company: Bravatek Solutions, Inc."


@pytest.mark.parametrize(("text", "expected"), DEFINED_TERMS, ids=[t[:40] for t, _ in DEFINED_TERMS])
def test_each_way_of_writing_a_defined_term_links_it_to_its_party(text: str, expected: dict) -> None:
    assert parties(text) == expected


def test_parties_without_a_corporate_word_are_found_where_the_preamble_lists_them() -> None:
    text = ('This ENDORSEMENT AGREEMENT is entered into by and between Marine MP, LLC ("Lender"), for services of '
            'Arnold Schwarzenegger ("Endorser"), and Eco Science Solutions, Inc. ("ESSI"), a Nevada corporation, and '
            'Stephen Marley ("Talent"), an individual, and The University of Iowa, located at 2 Gilmore Hall, Iowa '
            'City, IA 52242 ("University").\n\nRECITALS')  # fmt: skip
    found = {p.name: (p.kind, p.aliases) for p in find_parties([ParsedPage(1, text, ExtractionMethod.NATIVE)])}
    assert found == {
        "Marine MP, LLC": (EntityKind.ORGANIZATION, ("Lender",)),
        "Arnold Schwarzenegger": (EntityKind.PERSON, ("Endorser",)),
        "Eco Science Solutions, Inc.": (EntityKind.ORGANIZATION, ("ESSI",)),
        "Stephen Marley": (EntityKind.PERSON, ("Talent",)),
        "University of Iowa": (EntityKind.ORGANIZATION, ("University",)),
    }


PARTY_BLOCKS = [
    ('ENDORSEMENT AGREEMENT ADDENDUM I   This Addendum is made and effective November 7, 2017,   BETWEEN:\n\n'
     'National Football League Alumni - Northern California Chapter ("NFLA-NC"), a charitable corporation; '
     'National Football League Alumni, Inc. ("NFLA"), a charitable corporation.     AND:   Food For Athletes, Inc. '
     'a corporation organized under the laws of California.   RECITALS',
     {"National Football League Alumni - Northern California Chapter": ("NFLA-NC",),
      "National Football League Alumni, Inc.": ("NFLA",), "Food For Athletes, Inc.": ()}),
    ("THIS AGREEMENT is dated\n\nParties\n\n(1) Signature Orthopaedics Pty Ltd (ACN 106 702 416) , 7 Sirius Road, "
     "Lane Cove, NSW\n\n(2) CPM Medical Consultants, LLC of 1565 N. Central Expressway, Dallas, TX 75080.\n\n"
     "Background\n\nThe Supplier wishes to appoint the Distributor.",
     {"Signature Orthopaedics Pty Ltd": (), "CPM Medical Consultants, LLC": ()}),
]  # fmt: skip


PARTY_BLOCKS.append(  # a party named after its label, on a cover page and again in the preamble
    ("Cooperation Agreement\n\nParty A: Beike Internet (Beijing) Security Technology Co., Ltd.\n\nParty B: Baidu "
     "Online Network Technology (Beijing) Co., Ltd.\n\nApril 2013\n\nThis Cooperation Agreement is executed by and "
     "between the parties below:\n\nParty A: Beike Internet Security Technology Co., Ltd.\n\nAddress: Room 2101, "
     "Beijing.\n\nParty B: Baidu Online Network Technology (Beijing) Co., Ltd.\n\nWhereas,",
     {"Beike Internet (Beijing) Security Technology Co., Ltd.": ("Party A",),
      "Baidu Online Network Technology (Beijing) Co., Ltd.": ("Party B",)}),
)


@pytest.mark.parametrize(("text", "expected"), PARTY_BLOCKS, ids=["BETWEEN: ... AND:", "(1) ... (2)", "Party A:"])
def test_party_blocks_name_their_parties(text: str, expected: dict) -> None:
    assert parties(text) == expected


NOT_PARTIES = [
    # a filer's running footer before the preamble, and the agreement's own defined term
    ('Source: CYBERGY HOLDINGS, INC., 10-Q, 5/20/2014\n\nThis Marketing Affiliate Agreement (the "Agreement") is '
     'entered into by and between BIRCH FIRST GLOBAL INVESTMENTS INC. (referred to as "Company") and MOUNT KNOWLEDGE '
     'HOLDINGS INC. (referred to as "MA").\n\nWHEREAS',
     {"BIRCH FIRST GLOBAL INVESTMENTS INC.", "MOUNT KNOWLEDGE HOLDINGS INC."}),
    # an officer who signs for a party, and a term defined for both parties at once
    ('This Agreement is made between Elephant Talk Communication Holding AG, a company incorporated under the laws of '
     'Switzerland, represented by its Chief Executive Officer Steven van der Velden and its Chief Technology Officer '
     'Martin Zuurbier, hereinafter referred to as: "ELEPHANT TALK" and T-Mobile Netherlands B.V. ("T-Mobile"). '
     'ELEPHANT TALK and T-Mobile (each a "Party") agree as follows:',
     {"Elephant Talk Communication Holding AG", "T-Mobile Netherlands B.V."}),
    # a company named inside a parenthetical aside does not take the term after it
    ('This DISTRIBUTOR AGREEMENT is made by and between Coffee Importers LLC ("Company") and Bean Sellers Inc. '
     '("Distributor"). Company imports the products from a farm (Arte Café - Prescafe Torrefação e Comercio de Cafe, '
     'a Brazil company, Minas Gerais, Brazil), and sells the products listed below (the "Products"). The parties '
     'agree as follows:',
     {"Coffee Importers LLC", "Bean Sellers Inc."}),
    # "Co-Branding" is no company; the section heading after "and" is no name
    ("CO-BRANDING AND SERVICES AGREEMENT\n\nCo-Branding and Services Agreement between RSL COM PrimeCall, Inc. "
     '("PrimeCall") and deltathree.com, Inc. ("DeltaThree"). The Parties agree as follow:   1. Grant of License and '
     'Rights.     (a) For the Term, PrimeCall grants a license (the "License").',
     {"RSL COM PrimeCall, Inc.", "deltathree.com, Inc."}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), NOT_PARTIES, ids=["footer", "officer", "aside", "headings"])
def test_names_that_are_not_parties_stay_out(text: str, expected: set) -> None:
    assert set(parties(text)) == expected


def test_a_table_of_contents_before_the_preamble_does_not_end_it() -> None:
    contents = "\n\n".join(f"ARTICLE {n} {title} {n}" for n, title in enumerate(
        ["DEFINITIONS", "RECITALS AND BACKGROUND", "LICENSES", "CONFIDENTIALITY", "TERMINATION"] * 30, start=1))
    text = ("INTELLECTUAL PROPERTY AGREEMENT\n\nby and between\n\nNuance Communications, Inc.\n\nand\n\nCerence Inc."
            f"\n\nTABLE OF CONTENTS\n\n{contents}\n\nINTELLECTUAL PROPERTY AGREEMENT, dated as of September 30, 2019 "
            '(this "Agreement"), by and between NUANCE COMMUNICATIONS, INC., a Delaware corporation ("Nuance"), and '
            'CERENCE INC., a Delaware corporation ("SpinCo").\n\nRECITALS\n\nWHEREAS, Nuance and SpinCo wish to '
            'record the transfers (the "Transfers");')  # fmt: skip
    assert len(text) > 3000
    assert parties(text) == {"Nuance Communications, Inc.": ("Nuance",), "Cerence Inc.": ("SpinCo",)}


def test_a_trade_mark_sign_is_no_part_of_a_name() -> None:
    text = ('This Addendum is made between Food For Athletes, Inc. ("FFA") and Gridiron BioNutrients™, a corporation '
            'organized under the laws of Nevada ("Gridiron").')  # fmt: skip
    assert parties(text) == {"Food For Athletes, Inc.": ("FFA",), "Gridiron BioNutrients": ("Gridiron",)}
    assert organization_key("Gridiron BioNutrients™") == organization_key("Gridiron BioNutrients")


def test_signature_block_labels_on_their_own_lines_are_no_name() -> None:
    text = "IN WITNESS WHEREOF\n\nSignature\nPrint Name\nTitle\nCompany\n\nBy: ____"
    assert [text[s:e] for s, e in org_names(text)] == []


# Forms seen on a second held-out spot check of CUAD contracts (not in the fixture), written here in our own words.
MORE_FORMS = [
    # a company known by its registration number and province; its trade name after "dba" is the same party
    ('This Reseller Agreement is made by and between 512345 B.C. Ltd. dba Harbour Telecom, having a principal office '
     'at 200 Water Street, Vancouver, British Columbia ("Harbour") and Delta Voice SRL, having a principal office at '
     'Strada Mare 4, Cluj, Romania ("Delta").',
     {"512345 B.C. Ltd.": ("Harbour",), "Delta Voice SRL": ("Delta",)}),
    # "and" between two cities of one party's address lists no party
    ('This Agreement is made between ACME MEDICAL INC., a Delaware corporation ("Acme"), and NORDWERK '
     'AKTIENGESELLSCHAFT, a corporation formed under the laws of Germany, with its registered offices located at '
     'Hamburg and Cologne ("Nordwerk"), as of May 2, 2011.',
     {"ACME MEDICAL INC.": ("Acme",), "NORDWERK AKTIENGESELLSCHAFT": ("Nordwerk",)}),
    # an address straight after the name; the article inside the quotation marks is no part of the term;
    # the exhibit's filing line between cover and preamble names no party
    ('SUPPLY AGREEMENT\n\nSource: HARBOUR HEALTH CORP, 10-K, 3/1/2019\n\nTHIS AGREEMENT is made on the 5th day of '
     "March 2018. BETWEEN: ISLAND BOTANICALS INC. 2nd Floor, Harbour House, Port Vila, Vanuatu ('the Manufacturer') "
     "of one part AND: HARBOUR HEALTH HOLDING LIMITED Unit 7, 3F, Ocean Plaza, Kowloon, Hong Kong ('the Customer') "
     "of the other part. RECITALS The Manufacturer wishes to appoint the Customer.",
     {"ISLAND BOTANICALS INC.": ("Manufacturer",), "HARBOUR HEALTH HOLDING LIMITED": ("Customer",)}),
    # a company lending a person's services; a term ending in a corporate abbreviation keeps its period; a slash
    # inside a name
    ('This Endorsement Agreement ("Agreement") is made as of June 3, 1996, by and among the following parties:\n\n'
     '(a) Jane Starr, Inc. ("JS Inc."), furnishing the services of Jane Starr ("JS"), 10 Main Street, Los Angeles;\n\n'
     '(b) The Baker/Lane Co. ("BL"), 10 Main Street, Los Angeles; and\n\n(c) Vista Optical Group ("Vista"), 5 Arch '
     'Street, Philadelphia.\n\n1. Recitals.',
     {"Jane Starr, Inc.": ("JS Inc.",), "Jane Starr": ("JS",), "Baker/Lane Co.": ("BL",),
      "Vista Optical Group": ("Vista",)}),
    # an aside in parentheses describes the party before it
    ('This Sponsorship Agreement is entered into as of March 2, 2018 by and between Gulf Coast Pelicans, LLC, a '
     'Delaware limited liability company ("Club"), and The Harbor Group, Inc., a Florida corporation (owner and '
     'operator of Sam\'s Fish and Grill) ("Sponsor").',
     {"Gulf Coast Pelicans, LLC": ("Club",), "Harbor Group, Inc.": ("Sponsor",)}),
    # a division of another company is the party, the company it belongs to is not
    ('THIS AGREEMENT, entered into on June 1, 1993, is between Ozark Pipeline Company ("Transporter"), an Arkansas '
     'corporation, and Valley Natural Gas Company, a division of Ozark Gas Company, ("Shipper");',
     {"Ozark Pipeline Company": ("Transporter",), "Valley Natural Gas Company": ("Shipper",)}),
    # ... unless the company it belongs to takes a term of its own, after the party's
    ('This Media License Agreement is made between Canton Museum, Inc., an Ohio non-profit corporation ("Museum"), '
     'Canton Media Group, LLC (the "Media Company"), a Delaware limited liability company that is a wholly-owned '
     'subsidiary of Canton Village, LLC, a Delaware limited liability company ("Village"); each a "Party".',
     {"Canton Museum, Inc.": ("Museum",), "Canton Media Group, LLC": ("Media Company",),
      "Canton Village, LLC": ("Village",)}),
    # a name in small letters is a name where the party's description follows it
    ('This Hosting Agreement is entered into this 9th day of May, 1999 by and between Palmway International, a Florida '
     'corporation ("the Customer"), and e-web studio, a Florida corporation ("e-web").',
     {"Palmway International": ("Customer",), "e-web studio": ("e-web",)}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    MORE_FORMS,
    ids=["numbered company", "address cities", "address first", "lent services", "aside", "division", "parent",
         "small letters"],
)  # fmt: skip
def test_more_preamble_forms_name_their_parties_and_terms(text: str, expected: dict) -> None:
    assert parties(text) == expected
