"""The legal roles a passage can play, as data: contract clause types and the parts of a judicial or
agency decision.

Since issue 34 the contract clause types users see are CUAD's 41 categories (chunk.clause_types), tagged by
a classifier learned from CUAD's expert labels (chunk.clause_model), plus the clause types CUAD leaves out
that users ask for (`KEPT`: confidentiality, indemnification, force majeure, notices, payment, ...), which
with the decision parts are still found by the keyword tagger below (`KEYWORD_ROLES`, chunk.roles). The
keyword tagger's CUAD-like roles stay as data so that benchmarks/clauses.py can score it side by side.

(Before issue 34:)

Contract clause types follow the public CUAD taxonomy (The Atticus Project, 41 categories, CC BY 4.0),
merged where CUAD splits one clause by its detail (capped and uncapped liability are one "limitation of
liability" passage; the four licence categories are "licence grant" plus its transfer and duration terms),
plus the clauses attorneys ask for that CUAD leaves out (confidentiality, indemnification, force majeure,
dispute resolution, notices, payment, return of confidential information). Decision parts are the ones
issue 21 names: syllabus, holding, disposition, author line, concurrence, dissent, recusal, standard of
review.

Each role has
* `description`: what the passage does, in the words a question uses; search matches questions to roles
  by meaning (the question's embedding against these and `ASKS`), never by these words;
* `anchors`: lower-case phrases of the drafting language that marks the role, rare elsewhere;
* `pattern`: when an anchor alone is not enough, what must match near it (lower-cased text; "" when the
  anchor decides);
* `heading`: the clause titles that mark it in the heading path (lower-cased), when a title alone is enough.
Written from the taxonomy's definitions and ordinary drafting, not from any labelled set.
"""

from __future__ import annotations

from dataclasses import dataclass

from casetrack.chunk.roles.clause_types import CUAD_TYPES

CONTRACT = "contract"
DECISION = "decision"


@dataclass(frozen=True, slots=True)
class Role:
    id: str
    label: str
    family: str
    description: str
    anchors: tuple[str, ...]
    pattern: str = ""
    heading: str = ""


def _r(id_: str, label: str, family: str, description: str, anchors: str, pattern: str = "",
       heading: str = "") -> Role:
    return Role(id_, label, family, description, tuple(anchors.split("|")), pattern, heading)


C, D = CONTRACT, DECISION
_TERMINATION = r"(?:termination|expiration|expiry)"

KEYWORD_ROLES: tuple[Role, ...] = (
    # --- contracts (CUAD) -------------------------------------------------------------------------------
    _r("parties", "Parties", C, "Who the parties to the agreement are: the names of the contracting companies "
       "or people and the defined terms they go by.", "by and between|by and among|entered into by|"
       "is between|is made between|made by and", heading=r"^parties$|^the parties$"),
    _r("effective_date", "Agreement and effective date", C, "When the agreement was signed, dated or takes "
       "effect: the agreement date and the effective date.", "effective date|effective as of|dated as of|"
       "made as of|entered into as of|entered into on|made and entered into"),
    _r("term", "Term and expiration", C, "How long the agreement lasts: its initial term, when it expires and "
       "how it can be renewed or extended.", "initial term|renewal term|term of this agreement|term of the "
       "agreement|automatically renew|shall expire|will expire|successive", heading=r"\bterm\b|\bduration\b"
       r"|\brenewal\b"),
    _r("governing_law", "Governing law", C, "Which state's or country's law governs the agreement: the choice "
       "of law clause.", "governed by|governing law|construed in accordance with the law|choice of law|"
       "applicable law", heading=r"\bgoverning law\b|\bchoice of law\b|\bapplicable law\b"),
    _r("most_favored_nation", "Most favored nation", C, "A promise that one party gets terms at least as "
       "good as any the other side gives a third party.", "most favored|most favoured|no less favorable|"
       "no less favourable|as favorable as|as favourable as"),
    _r("non_compete", "Non-compete", C, "A restriction on a party competing with the other or working in a "
       "field, territory or business for some time.", "compete|noncompet|non-compet|competitive business|"
       "competing business|competing product", r"\bnon-?compet|\bnot (?:to )?compete\b|\bshall not\b.{0,120}"
       r"\bcompet|\bcompetitive business|\bcompeting (?:business|product)", r"\bnon-?compet|\bcompetition\b|"
       r"\brestrictive covenant"),
    _r("exclusivity", "Exclusivity", C, "An exclusive arrangement: one party is the only distributor, supplier "
       "or licensee, or must deal only with the other.", "exclusive distributor|exclusive right|exclusive "
       "license|exclusive licence|exclusive supplier|exclusive provider|exclusive agent|exclusive dealer|"
       "exclusive basis|exclusive territory|sole and exclusive|exclusively from|exclusively through|"
       "exclusively with|exclusively to|exclusivity", heading=r"\bexclusiv"),
    _r("non_solicit", "Non-solicitation", C, "A promise not to solicit or hire the other party's employees "
       "or not to solicit its customers.", "solicit", r"\bnon-?solicit|\bsolicit\w*\b.{0,80}\b(?:employ|"
       r"customer|client|personnel)", r"\bnon-?solicit|\bsolicitation\b"),
    _r("non_disparagement", "Non-disparagement", C, "A promise not to say or publish anything negative about "
       "the other party.", "disparag"),
    _r("termination_for_convenience", "Termination for convenience", C, "A right to end the agreement at "
       "any time without cause or without giving a reason, usually on notice.", "for convenience|without "
       "cause|for any reason|for no reason|at any time", r"\bterminat\w*\b.{0,120}\b(?:for (?:its |any |no )?"
       r"(?:convenience|reason)|without (?:cause|reason)|at any time)\b|\bfor any reason or no reason\b",
       r"\btermination for convenience\b"),
    _r("termination", "Termination", C, "How and when the agreement can be ended: termination rights, breach "
       "and cure periods, insolvency.", "may terminate|right to terminate|terminate this agreement|"
       "be terminated by|may be terminated", heading=r"\bterminat"),
    _r("first_refusal", "Right of first refusal, offer or negotiation", C, "A right to be offered, or to match, "
       "a deal before the other party makes it with someone else.", "first refusal|first offer|first "
       "negotiation|first right to"),
    _r("change_of_control", "Change of control", C, "What happens if a party is acquired, merges or its "
       "ownership or control changes.", "change of control|change in control|merger with|merger into|merges "
       "with|merges into|consolidation with|substantially all of its assets|controlling interest",
       heading=r"\bchange (?:of|in) control\b"),
    _r("anti_assignment", "Anti-assignment", C, "Whether a party may assign or transfer the agreement or its "
       "rights to someone else, and whose consent that needs.", "not assign|not be assigned|not transfer|"
       "assign this agreement|assign or transfer|assignment of this agreement|may assign|shall assign",
       r"\b(?:may|shall|will) not\b.{0,40}\b(?:assign|transfer)|\bassign\w*\b.{0,120}\b(?:without|with|"
       r"subject to)\b.{0,60}\bconsent\b|\bconsent\b.{0,60}\bassign",
       r"\bassignment\b|\bassignability\b"),
    _r("revenue_sharing", "Revenue or profit sharing", C, "A share of revenue or profit, commissions or "
       "royalties paid to the other party.", "royalt|commission|revenue shar|profit shar|of net revenue|of "
       "gross revenue|of net sales|of gross sales|of net profits|of the revenue",
       heading=r"\broyalt|\bcommission|\brevenue shar"),
    _r("price_restrictions", "Price restrictions", C, "Limits on raising or changing prices, or price "
       "protection.", "price increase|price protection|price adjustment|increase the price|increase its price|"
       "change the price|prices shall not"),
    _r("minimum_commitment", "Minimum commitment", C, "A minimum amount a party must buy, sell, order or pay "
       "in a period.", "minimum purchase|minimum order|minimum quantit|minimum volume|minimum commitment|"
       "minimum amount|minimum annual|minimum sales|minimum fee", heading=r"\bminimum\b"),
    _r("volume_restriction", "Volume restriction", C, "A cap on how much a party may buy, use or sell.",
       "volume limit|volume restriction|volume cap|not to exceed", r"\bvolume (?:limit|restriction|cap)|\bnot "
       r"to exceed\b.{0,40}\b(?:units|users|copies|installations)\b"),
    _r("ip_ownership", "IP ownership and assignment", C, "Who owns intellectual property, work product or "
       "inventions, and whether rights in them are assigned.", "right, title and interest|made for hire|hereby "
       "assign|exclusive property of|sole property of|remain the property of|jointly own|joint ownership",
       heading=r"\bintellectual property\b|\bownership\b|\binventions?\b|\bproprietary rights\b"),
    _r("license_grant", "Licence grant", C, "A licence one party gives the other to use its intellectual "
       "property, trademarks, software or content, with its scope.", "license to|licence to|hereby grant",
       r"\bhereby grants?\b.{0,160}\blicen[cs]e\b|\b(?:non-?exclusive|exclusive|limited|royalty-free|"
       r"worldwide|perpetual|revocable|irrevocable)\b.{0,60}\blicen[cs]e to\b", r"\blicen[cs]e\b|\bgrant of "
       r"rights\b"),
    _r("license_terms", "Licence transfer and duration", C, "Whether a licence is transferable or "
       "sublicensable, irrevocable or perpetual, or extends to affiliates.", "non-transferable|nontransferable|"
       "non-sublicens|irrevocabl|perpetual"),
    _r("source_code_escrow", "Source code escrow", C, "Source code deposited with an escrow agent and released "
       "on conditions.", "escrow"),
    _r("post_termination", "Post-termination obligations", C, "What the parties must still do after the "
       "agreement ends: transition, wind-down, return of materials, payments, clauses that survive.",
       "upon termination|upon the termination|upon expiration|upon the expiration|after termination|after the "
       "termination|following termination|following the termination|on termination|surviv",
       rf"\b(?:upon|after|following|on) (?:the )?{_TERMINATION}\b|\bsurviv\w+\b",
       r"\beffect of termination\b|\bsurvival\b|\bconsequences of termination\b|\bpost-termination\b"),
    _r("audit_rights", "Audit rights", C, "A right to audit or inspect the other party's books, records or "
       "facilities.", "audit|books and records|inspect the|inspection of", r"\baudit\w*\b|\binspect\w*\b.{0,60}"
       r"\b(?:books|records|facilit|premises)|\bbooks and records\b", r"\baudit|\binspection\b"),
    _r("limitation_of_liability", "Limitation of liability", C, "A cap on or exclusion of a party's "
       "liability or damages, and what is carved out of the cap.", "limitation of liability|in no event|"
       "aggregate liability|total liability|maximum liability|consequential damages|indirect damages|punitive "
       "damages|special damages|liability shall not exceed|liability under this", heading=r"\blimitation (?:of|"
       r"on) liability\b"),
    _r("liquidated_damages", "Liquidated damages", C, "A fixed sum payable on breach or early termination.",
       "liquidated damages"),
    _r("warranty", "Warranties", C, "Promises about quality, performance or facts, and how long a warranty "
       "lasts.", "warrants that|warranty period|represents and warrants|warranties|disclaim",
       heading=r"\bwarrant"),
    _r("insurance", "Insurance", C, "Insurance a party must carry: the policies, amounts and insured parties.",
       "insurance", r"\b(?:maintain|carry|obtain|procure|keep in (?:full )?force)\b.{0,80}\binsurance\b|"
       r"\binsurance\b.{0,80}\b(?:coverage|policy|policies|limits?)\b.{0,80}\b(?:not less than|at least|minimum|"
       r"\$)|\badditional insured\b", r"\binsurance\b"),
    _r("covenant_not_to_sue", "Covenant not to sue", C, "A promise not to sue or challenge the other party, "
       "or a release of claims.", "not to sue|not sue|not challenge|not contest|not bring any|releases any|"
       "release of claims|hereby releases"),
    _r("third_party_beneficiary", "Third-party beneficiary", C, "Whether anyone outside the agreement can "
       "enforce it.", "third party beneficiar|third-party beneficiar"),
    _r("confidentiality", "Confidentiality", C, "Keeping information confidential: what is confidential, who "
       "may see it and for how long.", "confidential information|in confidence|confidentiality|not disclose",
       r"\b(?:keep|hold|maintain|treat)\b.{0,40}\bconfiden|\bshall not (?:disclose|divulge)\b|\bconfidential "
       r"information\b.{0,60}\b(?:means|shall|includes)\b|\bconfidentiality obligations?\b",
       r"\bconfidential"),
    _r("return_of_information", "Return or destruction of information", C, "Returning or destroying the other "
       "party's confidential information or materials, and copies kept in backups.", "return or destroy|"
       "destroy or return|return all|destruction of|destroy all"),
    _r("indemnification", "Indemnification", C, "One party's duty to indemnify, defend and hold the other "
       "harmless against claims and losses.", "indemnif|hold harmless|held harmless", heading=r"\bindemn"),
    _r("force_majeure", "Force majeure", C, "Excused performance when events beyond a party's control "
       "prevent it.", "force majeure|act of god|acts of god|beyond its reasonable control|beyond the "
       "reasonable control|beyond their reasonable control|beyond its control"),
    _r("dispute_resolution", "Dispute resolution", C, "How disputes are resolved: arbitration, mediation, "
       "courts, jurisdiction and venue.", "arbitration|arbitrator|mediation|venue|exclusive jurisdiction|"
       "submit to the jurisdiction", heading=r"\bdispute|\barbitration\b|\bjurisdiction\b|\bvenue\b"),
    _r("notices", "Notices", C, "How notices under the agreement must be given and where they are sent.",
       "notices|notice shall|notice hereunder|notice under this", r"\bnotices?\b.{0,80}\b(?:in writing|shall be "
       r"(?:given|sent|delivered|deemed))\b", r"^\W*notices?\W*$|\bnotices\b"),
    _r("payment", "Payment terms", C, "What is paid, how much and when: fees, invoices, payment deadlines.",
       "shall pay|will pay|payment shall|payments shall|payment is due|payments are due|invoice",
       heading=r"\bpayment|\bcompensation\b|\bfees?\b"),
    # --- judicial and agency decisions --------------------------------------------------------------------
    _r("syllabus", "Syllabus or headnote", D, "The syllabus or headnote: the reporter's summary of the case "
       "and what it decided, before the opinion.", "syllabus|headnote"),
    _r("holding", "Holding", D, "What the court held: its ruling on the legal question, the rule of the "
       "decision.", "we hold|we therefore hold|we thus hold|we conclude|we therefore conclude|court holds|"
       "court held|board holds|held:|and hold that"),
    _r("disposition", "Disposition", D, "How the case came out: affirmed, reversed, vacated, remanded, "
       "granted, denied, dismissed or sustained, and the order entered.", "is affirmed|are affirmed|is "
       "reversed|is vacated|are vacated|is remanded|vacated and remanded|reversed and remanded|affirmed in part|"
       "it is so ordered|so ordered|order:|ordered:|ordered that|is granted|are granted|is denied|are denied|"
       "is dismissed|are dismissed|is sustained|is overruled|we affirm|we reverse|we vacate|we remand"),
    _r("author", "Author of the opinion", D, "Who wrote the opinion or decision: the judge, justice or board "
       "member delivering it and who joined.", "delivered the opinion|opinion of the court|circuit judge|"
       "district judge|magistrate judge|bankruptcy judge|chief judge|veterans law judge|administrative law "
       "judge|board member:|per curiam|writing for|j., delivered|j., filed"),
    _r("concurrence", "Concurrence", D, "A concurring opinion: a judge who agrees with the result but writes "
       "separately.", "concurring|concurrence|concur in|concurs in|i concur|write separately"),
    _r("dissent", "Dissent", D, "A dissenting opinion: the judges who disagreed with the result and why.",
       "dissent"),
    _r("recusal", "Recusal", D, "A judge who took no part in the case or was recused.", "took no part|recuse|"
       "recusal|did not participate|not participating"),
    _r("standard_of_review", "Standard of review", D, "The standard of review or legal test the court "
       "applied: de novo, abuse of discretion, clear error, plausibility on a motion to dismiss, scrutiny.",
       "standard of review|de novo|abuse of discretion|clearly erroneous|clear error|substantial evidence|"
       "plausible on its face|plausibility|strict scrutiny|intermediate scrutiny|rational basis|arbitrary and "
       "capricious|arbitrary or capricious|we review"),
)

KEYWORD_BY_ID = {role.id: role for role in KEYWORD_ROLES}

# How questions ask for each role: its name and plain questions, embedded beside the description (search.roles
# takes a question's best match over them). Written from what each role is, like the descriptions.
_KEYWORD_ASKS: dict[str, tuple[str, ...]] = {
    "parties": ("the parties to the agreement", "who signed this contract and between which companies is it?"),
    "effective_date": ("agreement date and effective date", "when was the contract signed and when does it take "
                       "effect?"),
    "term": ("term and expiration of the agreement", "how long does the contract last and when does it expire or "
             "renew?"),
    "governing_law": ("governing law", "choice of law clause", "which state's law governs the contract?"),
    "most_favored_nation": ("most favored nation clause", "do we get the best price they give anyone else?"),
    "non_compete": ("non-compete", "covenant not to compete", "is a party barred from competing or working for a "
                    "competitor?"),
    "exclusivity": ("exclusivity", "exclusive dealing or exclusive territory", "is one side the only distributor or "
                    "supplier?"),
    "non_solicit": ("non-solicitation of employees or customers", "may a party hire away the other's staff or poach "
                    "its customers?"),
    "non_disparagement": ("non-disparagement", "may a party criticize or say bad things about the other?"),
    "termination_for_convenience": ("termination for convenience", "termination without cause",
                                    "can a party walk away from the deal at any time without giving a reason?"),
    "termination": ("termination rights", "how can the agreement be terminated or ended?"),
    "first_refusal": ("right of first refusal", "right of first offer or negotiation", "does a party get the first "
                      "chance to buy or match an offer?"),
    "change_of_control": ("change of control", "what happens if a party is acquired, bought or merges?"),
    "anti_assignment": ("anti-assignment clause", "assignment of the agreement", "can a party transfer the contract or "
                        "its rights to another company without consent?"),
    "revenue_sharing": ("revenue or profit sharing", "royalties and commissions", "what share of sales or profits is "
                        "paid?"),
    "price_restrictions": ("price restrictions", "can the prices be raised or changed?"),
    "minimum_commitment": ("minimum purchase commitment", "how much must a party buy or order at least?"),
    "volume_restriction": ("volume restriction", "is there a cap on how much can be bought or used?"),
    "ip_ownership": ("intellectual property ownership", "ip assignment", "who owns the work product and inventions?"),
    "license_grant": ("license grant", "what license to use the trademarks, software or content is given?"),
    "license_terms": ("non-transferable or irrevocable license", "perpetual license", "can the license be transferred "
                      "or revoked?"),
    "source_code_escrow": ("source code escrow", "is the source code deposited with an escrow agent?"),
    "post_termination": ("post-termination obligations", "what must be done after the contract ends?",
                         "which clauses survive termination?"),
    "audit_rights": ("audit rights", "can a party audit or inspect the other's books and records?"),
    "limitation_of_liability": ("limitation of liability", "cap on liability", "what is the maximum a party can be "
                                "liable for?"),
    "liquidated_damages": ("liquidated damages", "is there a fixed penalty for breach?"),
    "warranty": ("warranties", "warranty period", "what does a party warrant about its products or services?"),
    "insurance": ("insurance requirements", "what insurance must a party carry and in what amounts?"),
    "covenant_not_to_sue": ("covenant not to sue", "release of claims", "has a party promised not to sue or challenge "
                            "the other?"),
    "third_party_beneficiary": ("third-party beneficiaries", "can someone outside the contract enforce it?"),
    "confidentiality": ("confidentiality obligations", "what information must be kept confidential?"),
    "return_of_information": ("return or destruction of confidential information", "must copies be returned or "
                              "destroyed when the deal ends?"),
    "indemnification": ("indemnification", "who must defend and hold the other harmless against claims?"),
    "force_majeure": ("force majeure", "is performance excused by events beyond a party's control?"),
    "dispute_resolution": ("dispute resolution, arbitration and venue", "where and how are disputes resolved?"),
    "notices": ("notices clause", "how and where must notices under the contract be sent?"),
    "payment": ("payment terms and fees", "how much is paid and when is payment due?"),
    "syllabus": ("syllabus", "headnote", "summary of the case by the reporter of decisions"),
    "holding": ("holding of the court", "what did the court hold or decide?", "the rule of the case"),
    "disposition": ("disposition", "was the judgment affirmed, reversed, vacated or remanded?", "what order did the "
                    "court enter?"),
    "author": ("author of the opinion", "which judge or justice wrote the opinion?"),
    "concurrence": ("concurring opinion", "which judge agreed with the result but wrote separately?"),
    "dissent": ("dissenting opinion", "which judges disagreed with the majority and why?"),
    "recusal": ("recusal", "which judge took no part in the case?"),
    "standard_of_review": ("standard of review", "what legal standard or level of scrutiny did the court apply?",
                           "de novo or abuse of discretion review"),
}

# The keyword tagger's roles that stay: contract clauses CUAD has no category for, and the parts of a decision.
KEPT = frozenset({"termination", "warranty", "confidentiality", "return_of_information", "indemnification",
                  "force_majeure", "dispute_resolution", "notices", "payment", "syllabus", "holding", "disposition",
                  "author", "concurrence", "dissent", "recusal", "standard_of_review"})
LEARNED = frozenset(type_id for type_id, *_ in CUAD_TYPES)  # tagged by chunk.clause_model

# The taxonomy users see: CUAD's types, then the kept ones, each family in its own order.
ROLES: tuple[Role, ...] = (
    *(Role(type_id, label, CONTRACT, description, ()) for type_id, label, description, _ in CUAD_TYPES),
    *(role for role in KEYWORD_ROLES if role.id in KEPT),
)
BY_ID = {role.id: role for role in ROLES}
ASKS: dict[str, tuple[str, ...]] = {
    **{role_id: asks for role_id, asks in _KEYWORD_ASKS.items() if role_id in KEPT},
    **{type_id: (label.lower(), *questions, *_KEYWORD_ASKS.get(type_id, ())[1:])
       for type_id, label, _, questions in CUAD_TYPES},
}
