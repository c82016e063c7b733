"""The contract clause types the learned classifier tags (chunk.clause_model): CUAD v1's 41 categories (The
Atticus Project, CC BY 4.0), in CUAD's order, named in snake case. Each has a label, a description of what
the passage does in the words a question uses, and plain questions that ask for it; search matches a
question to types by meaning (search.roles), and a passage's types with their descriptions become text it
can be found by. Written from what each clause does, not from any labelled set.
"""

from __future__ import annotations

# id, label, description, questions
CUAD_TYPES: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("document_name", "Document name", "The title of the agreement: what kind of contract it is.",
     ("what is this agreement called?",)),
    ("parties", "Parties", "Who the parties to the agreement are: the contracting companies or people and the "
     "names they go by.", ("who signed this contract and between which companies is it?",)),
    ("agreement_date", "Agreement date", "The date the agreement was made or signed.",
     ("when was the contract signed?",)),
    ("effective_date", "Effective date", "When the agreement takes effect or starts to bind the parties.",
     ("when does the contract take effect?",)),
    ("expiration_date", "Expiration date", "When the initial term ends and the agreement expires, or how long it "
     "runs.", ("how long does the contract last?", "when does the agreement expire?")),
    ("renewal_term", "Renewal term", "How the agreement renews or extends after its initial term, automatically or "
     "by choice, and for how long.", ("does the contract renew automatically?", "can the term be extended?")),
    ("notice_period_to_terminate_renewal", "Notice to stop renewal", "How much notice a party must give to stop "
     "the agreement from renewing.", ("how far ahead must we say we don't want to renew?",)),
    ("governing_law", "Governing law", "Which state's or country's law governs the agreement: the choice of law.",
     ("which state's law governs the contract?",)),
    ("most_favored_nation", "Most favored nation", "A promise that one party gets terms at least as good as any "
     "the other side gives anyone else.", ("do we get the best price they give anyone else?",)),
    ("non_compete", "Non-compete", "A restriction on a party competing with the other or working in a business, "
     "field or territory for some time.", ("is a party barred from competing or working for a competitor?",)),
    ("exclusivity", "Exclusivity", "An exclusive arrangement: one party is the only distributor, supplier or "
     "licensee, or must deal only with the other.", ("is one side the only distributor or supplier?",)),
    ("no_solicit_of_customers", "No-solicit of customers", "A promise not to solicit or take away the other "
     "party's customers or clients.", ("may they approach or poach our customers?",)),
    ("competitive_restriction_exception", "Exception to a competitive restriction", "What is carved out of a "
     "non-compete, exclusivity or no-solicit: the cases where competing or dealing with others is allowed.",
     ("what exceptions are there to the non-compete or exclusivity?",)),
    ("no_solicit_of_employees", "No-solicit of employees", "A promise not to solicit or hire the other party's "
     "employees or staff.", ("may a party hire away the other's staff?",)),
    ("non_disparagement", "Non-disparagement", "A promise not to say or publish anything negative about the other "
     "party.", ("may a party criticize or say bad things about the other?",)),
    ("termination_for_convenience", "Termination for convenience", "A right to end the agreement at any time "
     "without cause or without giving a reason, usually on notice.",
     ("can a party walk away from the deal at any time without giving a reason?",)),
    ("rofr_rofo_rofn", "Right of first refusal, offer or negotiation", "A right to be offered, or to match, a deal "
     "before the other party makes it with someone else.", ("does a party get the first chance to buy or match "
                                                            "an offer?",)),
    ("change_of_control", "Change of control", "What happens if a party is acquired, merges or its ownership or "
     "control changes: consent, notice or a right to terminate.", ("what happens if a party is acquired, bought "
                                                                  "or merges?",)),
    ("anti_assignment", "Anti-assignment", "Whether a party may assign or transfer the agreement or its rights "
     "to someone else, and whose consent that needs.",
     ("can a party transfer the contract or its rights to another company without consent?",)),
    ("revenue_profit_sharing", "Revenue or profit sharing", "A share of revenue or profit, commissions or "
     "royalties paid to the other party.", ("what share of sales or profits is paid?",)),
    ("price_restrictions", "Price restrictions", "Limits on raising or changing prices, or price protection.",
     ("can the prices be raised or changed?",)),
    ("minimum_commitment", "Minimum commitment", "A minimum amount a party must buy, sell, order or pay in a "
     "period.", ("how much must a party buy or order at least?",)),
    ("volume_restriction", "Volume restriction", "A cap on how much a party may buy, use or sell, or a fee when a "
     "threshold is passed.", ("is there a cap on how much can be bought or used?",)),
    ("ip_ownership_assignment", "IP ownership assignment", "Intellectual property, work product or inventions one "
     "party creates that belong or are assigned to the other.", ("who owns the work product and inventions?",)),
    ("joint_ip_ownership", "Joint IP ownership", "Intellectual property the parties own together.",
     ("do both parties own the intellectual property jointly?",)),
    ("license_grant", "Licence grant", "A licence one party gives the other to use its intellectual property, "
     "trademarks, software or content, with its scope.", ("what licence to use the trademarks, software or content "
                                                         "is given?",)),
    ("non_transferable_license", "Non-transferable licence", "Limits on transferring or sublicensing a licence.",
     ("can the licence be transferred or sublicensed?",)),
    ("affiliate_license_licensor", "Licence from the licensor's affiliates", "A licence that includes "
     "intellectual property of the licensor's affiliates.", ("does the licence cover the licensor's affiliates' "
                                                            "IP?",)),
    ("affiliate_license_licensee", "Licence to the licensee's affiliates", "A licence that extends to the "
     "licensee's affiliates.", ("can the licensee's affiliates use the licence too?",)),
    ("unlimited_all_you_can_eat_license", "Unlimited licence", "A licence with no limit on the number of users, "
     "copies or uses.", ("is use of the licence unlimited?",)),
    ("irrevocable_or_perpetual_license", "Irrevocable or perpetual licence", "A licence that cannot be revoked or "
     "never ends.", ("can the right to use it ever be withdrawn?", "is the licence perpetual?")),
    ("source_code_escrow", "Source code escrow", "Source code deposited with an escrow agent and released on "
     "conditions such as bankruptcy.", ("is the source code deposited with an escrow agent?",)),
    ("post_termination_services", "Post-termination services", "What a party must still do after the agreement "
     "ends: transition, wind-down, sell-off of stock, continued support.", ("what must be done after the contract "
                                                                           "ends?",)),
    ("audit_rights", "Audit rights", "A right to audit or inspect the other party's books, records or "
     "facilities.", ("can a party audit or inspect the other's books and records?",)),
    ("uncapped_liability", "Uncapped liability", "Liability that has no cap: breaches or claims carved out of "
     "the limitation of liability.", ("is any liability unlimited?",)),
    ("cap_on_liability", "Cap on liability", "A cap on the amount a party can be liable for, or an exclusion of "
     "kinds of damages.", ("what is the maximum a party can be liable for?",)),
    ("liquidated_damages", "Liquidated damages", "A fixed sum or penalty payable on breach or early termination.",
     ("is there a fixed penalty for breach?",)),
    ("warranty_duration", "Warranty duration", "How long a warranty on products or services lasts.",
     ("how long is the warranty period?",)),
    ("insurance", "Insurance", "Insurance a party must carry: the policies, amounts and insured parties.",
     ("what insurance must a party carry and in what amounts?",)),
    ("covenant_not_to_sue", "Covenant not to sue", "A promise not to sue or challenge the other party or its "
     "intellectual property.", ("has a party promised not to sue or challenge the other?",)),
    ("third_party_beneficiary", "Third-party beneficiary", "Whether anyone outside the agreement can enforce it.",
     ("can someone outside the contract enforce it?",)),
)

# Old clause type names (before issue 34) that name one new type, so `clause_type` still accepts them.
RENAMED: dict[str, str] = {
    "first_refusal": "rofr_rofo_rofn", "revenue_sharing": "revenue_profit_sharing",
    "post_termination": "post_termination_services", "ip_ownership": "ip_ownership_assignment",
}
# Old names that now are several types: a request for one says which to use instead.
SPLIT: dict[str, tuple[str, ...]] = {
    "limitation_of_liability": ("cap_on_liability", "uncapped_liability"),
    "non_solicit": ("no_solicit_of_customers", "no_solicit_of_employees"),
    "license_terms": ("non_transferable_license", "irrevocable_or_perpetual_license"),
    "term": ("expiration_date", "renewal_term", "notice_period_to_terminate_renewal"),
}
