"""What the held-out set holds: its documents and its labelled queries (read by make_set.py).

An answer is CUAD's expert annotation for the query's category, written as it is in CUAD's
master_clauses.csv, or shortened to "first words … last words" (the span runs from the first
to the last, both included); "<omitted>" is CUAD's own mark between two pieces of one
annotation. Each piece is looked up in the document's reference text with whitespace ignored.
"""

from __future__ import annotations

from typing import NamedTuple

CUAD_REPO = "maastrichtlawtech/law3027-advanced-legal-analytics"
CUAD_COMMIT = "5926a015712e993747ab35b569ac41a65d785e40"
CUAD_LICENSE = "CUAD v1 (The Atticus Project): CC BY 4.0. Underlying contracts are public SEC EDGAR exhibits."


class Doc(NamedTuple):
    key: str  # source/<key>.txt
    file: str  # docs/<file>
    cuad_filename: str  # data/CUAD_v1/full_contract_txt/<cuad_filename>.txt
    title: str


class Q(NamedTuple):
    doc: str  # Doc.key
    kind: str
    category: str  # CUAD category
    query: str
    answers: tuple[str, ...]


DOCS = (
    Doc("bellring", "cuad_fonterra_master_supply_agreement.pdf",
        "BELLRINGBRANDS,INC_02_07_2020-EX-10.18-MASTER SUPPLY AGREEMENT",
        "the Fonterra master supply agreement"),
    Doc("nanophase", "cuad_nanophase_distributor_agreement.pdf",
        "NANOPHASETECHNOLOGIESCORP_11_01_2005-EX-99.1-DISTRIBUTOR AGREEMENT",
        "the Nanophase distributor agreement"),
    Doc("medalist", "cuad_medalist_consulting_agreement.pdf",
        "MEDALISTDIVERSIFIEDREIT,INC_05_18_2020-EX-10.1-CONSULTING AGREEMENT",
        "the Medalist consulting agreement"),
    Doc("knowlabs", "cuad_visualant_ip_agreement.pdf",
        "KNOWLABS,INC_08_15_2005-EX-10-INTELLECTUAL PROPERTY AGREEMENT",
        "the Visualant intellectual property agreement"),
    Doc("pacificap", "cuad_pacificap_content_license_agreement.pdf",
        "PacificapEntertainmentHoldingsInc_20051115_8-KA_EX-1.01_4300894_EX-1.01_Content License Agreement",
        "the Pacificap content license agreement"),
    Doc("uagh", "cuad_universal_access_maintenance_agreement.pdf",
        "UAGHINC_04_14_2004-EX-10.18-MAINTENANCE AGREEMENT",
        "the Universal Access maintenance agreement"),
    Doc("phoenix", "cuad_phoenix_program_content_license.pdf",
        "PhoenixNewMediaLtd_20110421_F-1_EX-10.17_6958322_EX-10.17_Content License Agreement",
        "the Phoenix program content license agreement"),
    Doc("emerald", "cuad_emerald_health_consulting_agreement.pdf",
        "EMERALDHEALTHTHERAPEUTICSINC_06_10_2020-EX-4.5-CONSULTING AGREEMENT - DR. GAETANO MORELLO N.D. INC.",
        "the Emerald Health consulting agreement"),
    Doc("sphere3d", "cuad_sphere3d_consulting_agreement.pdf",
        "SPHERE3DCORP_06_24_2020-EX-10.12-CONSULTING AGREEMENT",
        "the Sphere 3D consulting agreement"),
    Doc("trizetto", "cuad_medical_manager_maintenance_agreement.txt",
        "TRIZETTOGROUPINC_08_18_1999-EX-10.17-TECHNICAL INFRASTRUCTURE MAINTENANCE AGREEMENT",
        "the Medical Manager maintenance agreement"),
    Doc("amphys", "cuad_micoa_agency_agreement.txt",
        "AMERICANPHYSICIANSCAPITALINC_03_31_2003-EX-10.26-AGENCY AGREEMENT",
        "the MICOA agency agreement"),
    Doc("kiromic", "cuad_kiromic_consulting_agreement.docx",
        "KIROMICBIOPHARMA,INC_05_11_2020-EX-10.23-CONSULTING AGREEMENT",
        "the Kiromic consulting agreement"),
)

QUERIES = (
    # Fonterra / Premier Nutrition master supply agreement
    Q("bellring", "entity", "Parties",
      "Who are the buyer and the supplier under the Fonterra master supply agreement?",
      ("Premier Nutrition Company, LLC", "Fonterra (USA) Inc.")),
    Q("bellring", "date", "Expiration Date",
      "When does the initial term of the Fonterra master supply agreement end?",
      ("This Agreement will commence on the Effective Date and continue for an Initial Term of five (5) years"
       " … unless terminated as permitted under this Agreement.",)),
    Q("bellring", "clause", "Anti-Assignment",
      "Assignment clause of the Fonterra master supply agreement",
      ("Neither Party may transfer or assign any of its rights or obligations under this Agreement"
       " … which will not be unreasonably withheld or delayed.",)),
    Q("bellring", "semantic", "Cap On Liability",
      "Is there a ceiling on how much either side can be made to pay in damages under the Fonterra master supply"
      " agreement?",
      ("The maximum liability of one Party to the other Party and its affiliates in relation to this Agreement"
       " will be [***] (\"Liability Cap\"), provided however that:<omitted>9.1.1 The Liability Cap will not apply"
       " … will not apply to intentional misconduct and/or gross negligence.",)),
    Q("bellring", "semantic", "Audit Rights",
      "Can the buyer send people to check the supplier's plants under the Fonterra master supply agreement?",
      ("PNC or its contracted third-party auditors may enter and audit/inspect Supplier's facilities"
       " … in a way that is inconsistent with the Specifications, in which case an audit may be performed at any"
       " time during the Term.",
       "For routine visits and audits, PNC will provide [***] … in which case such examination may be conducted at"
       " any time.")),
    Q("bellring", "keyword", "Insurance",
      "Fonterra supply agreement auto liability combined single limit",
      ("Supplier shall maintain insurance with an insurance company with an equivalent of an A.M. Best rating"
       " … including Contractual, Completed-Operations and<omitted>Product-Liability Coverage's with limits of not"
       " less than [***] … 7.5.4 Auto Liability $1,000,000 combined single limit.",)),
    # Nanophase / Alfa Aesar distributor agreement
    Q("nanophase", "date", "Agreement Date",
      "What date was the Nanophase distributor agreement with Alfa Aesar entered into?",
      ("October 24, 2005",)),
    Q("nanophase", "semantic", "Most Favored Nation",
      "Is Alfa Aesar promised terms no worse than other resellers or customers get, under the Nanophase distributor"
      " agreement?",
      ("NTC agrees that the Product Prices, benefits and allowances offered to ALFA AESAR shall not be less"
       " favorable … existing as of the date of this Agreement with NTC's commercial partners.",)),
    Q("nanophase", "semantic", "Termination For Convenience",
      "Can either company end the Nanophase distributor agreement without any breach, and how much warning is"
      " needed?",
      ("The initial term of this Agreement shall be for a period of five (5) years … unless earlier terminated as"
       " follows:<omitted>13.1.3 By either party for any reason by providing six (6) months prior written notice"
       " expressly terminating this Agreement.",)),
    Q("nanophase", "clause", "Audit Rights",
      "Audit rights in the Nanophase distributor agreement",
      ("Within twelve (12) months after the date this Agreement has been terminated by the parties, ALFA AESAR"
       " may engage … the accuracy of the commissions paid or payable to ALFA AESAR hereunder.",)),
    Q("nanophase", "semantic", "Post-Termination Services",
      "What can Alfa Aesar do with its leftover stock once the Nanophase distributor agreement ends?",
      ("Upon termination of this Agreement for any reason, ALFA AESAR may i) return its current inventory"
       " … until depletion of inventory.",
       "Upon termination of this Agreement, ALFA AESAR may continue to advertise and promote the Products"
       " … until ALFA AESAR's inventory depletion.")),
    Q("nanophase", "keyword", "Revenue/Profit Sharing",
      "Nanophase referral commission on Net Sales to referred customers",
      ("For all referrals under Section 6.1, except where NTC has evidence … on the Net Sales made to each such"
       " customer so referred to NTC under Section 6",)),
    # Medalist Diversified REIT / Gunston consulting agreement
    Q("medalist", "entity", "Parties",
      "Who are the parties to the Medalist consulting agreement?",
      ("Gunston Consulting, LLC", "Medalist Diversified REIT, Inc.")),
    Q("medalist", "date", "Expiration Date",
      "How long does the Medalist consulting agreement run, and does it renew?",
      ("Term: twelve (12) months from the date of the Agreement which term shall automatically renew"
       " … terminated according to Section 8 of the Agreement.",)),
    Q("medalist", "semantic", "No-Solicit Of Employees",
      "After the Medalist consulting engagement ends, may Gunston poach the REIT's staff?",
      ("CONSULTANT agrees that during its consultancy for REIT and for a period of twelve (12) months immediately"
       " following the termination of its consultancy with the Company for any reason, whether with or without"
       " cause, it will not, for itself or any other person or entity: … (c) attempt to do any of the foregoing.",)),
    Q("medalist", "semantic", "Change Of Control",
      "What does the consultant get if the REIT is taken over and the consultant is then let go, under the Medalist"
      " consulting agreement?",
      ("In the event of a 'Change of Control' of Company, then if CONSULTANT's services are terminated"
       " … at the then current monthly rate, including any stock compensation.",)),
    Q("medalist", "clause", "Non-Disparagement",
      "Non-disparagement covenant in the Medalist consulting agreement",
      ("CONSULTANT acknowledges that any disparaging comments by him against the Company are likely to"
       " substantially depreciate the business reputation of the Company.",
       "CONSULTANT agrees to act in good faith so as to not harm the business reputation of the Company in any"
       " way.",
       "CONSULTANT further agrees that it will not directly or indirectly defame, disparage, or publicly criticize"
       " … in any forum or through any medium of communication.")),
    Q("medalist", "clause", "Non-Compete",
      "Noncompetition covenant in the Medalist consulting agreement",
      ("CONSULTANT agrees that during its consultancy for REIT and for a period of twelve (12) months immediately"
       " following the termination of its consultancy with the Company for any reason, whether with or without"
       " cause, it will not: (a) have any ownership interest in … about which it received Proprietary Information"
       " during its consultancy with the Company.",)),
    # Visualant / Turpin intellectual property agreement
    Q("knowlabs", "entity", "Parties",
      "Who are the parties to the Visualant intellectual property agreement?",
      ("VISUALANT INCORPORATED", "KENNETH TURPIN")),
    Q("knowlabs", "date", "Agreement Date",
      "When was the Visualant intellectual property agreement with Kenneth Turpin dated?",
      ("June 16, 2004",)),
    Q("knowlabs", "clause", "Governing Law",
      "Governing law of the Visualant intellectual property agreement",
      ("This  Agreement  shall be  governed  by and  construed  in accordance with the laws of the Province of"
       " British Columbia … which shall be deemed to be the proper law thereof.",)),
    Q("knowlabs", "semantic", "Ip Ownership Assignment",
      "Does the inventor keep any rights to what he creates while working for Visualant, or does it all go to the"
      " company?",
      ("Turpin does hereby assign and transfer to the Company, effective upon creation … effective at the time"
       " each is created.",)),
    Q("knowlabs", "semantic", "Covenant Not To Sue",
      "Is Turpin barred from disputing the company's ownership of his creations under the Visualant intellectual"
      " property agreement?",
      ("Turpin covenants that Turpin shall not at any time directly or indirectly contest or assist any third"
       " party … or any Intellectual Property Rights therein.",
       "Turpin shall not, directly or indirectly, apply for or seek registration … without the express written"
       " approval of the Company.")),
    # Pacificap / Henry Film content license agreement
    Q("pacificap", "date", "Agreement Date",
      "When was the Pacificap content license agreement made?",
      ("3rd day of November, 2005",)),
    Q("pacificap", "date", "Expiration Date",
      "How long is the initial term of the Pacificap content license, and from when is it counted?",
      ("This Agreement will become effective as of the last date of signature (Effective Date) and shall"
       " … (the \"Initial Term\").",)),
    Q("pacificap", "semantic", "Renewal Term",
      "Does the Pacificap content license roll over at the end, and how can a party stop that?",
      ("After the Initial Term, this Agreement will be automatically renewed for successive additional 3~year"
       " periods … not less than sixty (60) days prior to the end of a Term.",)),
    Q("pacificap", "semantic", "Minimum Commitment",
      "What happens if Henry Film doesn't pay Pacificap at least a set amount each year?",
      ("PERFORMANCE: In lieu of PACIFICAP ENTERTAINMENT granting a 10 year Exclusive Content License"
       " … agrees to share a minimum of $50,000.00 annually for each year of this Agreement.",
       "In the event of THE HENRY FILM AND ENTERTAINMENT CORPORATION, not fulfilling this minimum PERFORMANCE,"
       " PACIFICAP ENTERTAINMENT may cancel this Agreement")),
    Q("pacificap", "keyword", "Revenue/Profit Sharing",
      "Pacificap Henry Film 10% of net revenue from advertising and syndication",
      ("In lieu of PACIFICAP ENTERTAINMENT granting a 10 year Exclusive Content License to THE HENRY FILM AND"
       " ENTERTAINMENT CORPORATION, THE HENRY FILM ANDENTERTAINMENT CORPORATION agrees to share 10% of the net"
       " revenue … created and or produced with any content provided by PACIFICAP ENTERTAINMENT.",)),
    Q("pacificap", "semantic", "Ip Ownership Assignment",
      "Who owns the new programs made out of the Pacificap library material?",
      ("PACIFICAP ENTERTAINMENT AGREES that all television shows … are wholly owned by THE HENRY FILM AND"
       " ENTERTAINMENT CORPORATION.",)),
    # Universal Access / CityNet maintenance agreement
    Q("uagh", "entity", "Parties",
      "Who are the parties to the Universal Access maintenance agreement?",
      ("Universal Access, Inc.", "CityNet Telecommunications, Inc.")),
    Q("uagh", "date", "Expiration Date",
      "When does the Universal Access maintenance agreement expire?",
      ("This Agreement commences on the date first above written, and will remain in effect for the period of"
       " five (5) years, except as otherwise provided herein.",)),
    Q("uagh", "semantic", "Termination For Convenience",
      "Can either side walk away from the Universal Access maintenance agreement at will, and with how much"
      " warning?",
      ("Notwithstanding the foregoing, either party may terminate this Agreement at any time without liability by"
       " providing one hundred eighty (180) days written notice to the other party.",)),
    Q("uagh", "clause", "Cap On Liability",
      "Limitation of liability in the Universal Access maintenance agreement",
      ("EXCEPT AS STATED ABOVE, THE PROVIDER'S OBLIGATIONS UNDER THIS AGREEMENT ARE IN LIEU OF ALL OTHER"
       " WARRANTIES … FOR THE TWELVE (12) MONTH PERIOD PRIOR TO THE CLAIM.",
       "THE PROVIDER SHALL NOT BE LIABLE FOR ANY INCIDENTAL OR CONSEQUENTIAL DAMAGES … THAT THE POSSIBILITY OF SUCH"
       " DAMAGE OR LOSS EXISTS.")),
    Q("uagh", "semantic", "Insurance",
      "What coverage must CityNet carry under the Universal Access maintenance agreement?",
      ("The Provider will obtain and maintain appropriate liability insurance in an amount of not less than"
       " $1,000,000 … The insurance policy willname the Company as an additional insured.",
       "Such certificate will provide that there shall be no cancellation, non-renewal, or modification of such"
       " coverage without thirty days' prior written notice to the Company.")),
    Q("uagh", "date", "Agreement Date",
      "What is the date of the Universal Access maintenance agreement?",
      ("July 23, 2003",)),
    # Phoenix Satellite TV / Beijing Tianying Jiuzhou program content license
    Q("phoenix", "entity", "Parties",
      "Which companies signed the Phoenix program content license agreement?",
      ("Phoenix Satellite Television Company Limited", "Beijing Tianying Jiuzhou Network Technology Co., Ltd.")),
    Q("phoenix", "date", "Expiration Date",
      "How long does the Phoenix program content license last?",
      ("This Agreement shall become effective on the date on which it is signed and affixed with the corporate"
       " seals … have a term of five (5) years commencing as of the effective date hereof.",)),
    Q("phoenix", "clause", "Governing Law",
      "Governing law of the Phoenix program content license agreement",
      ("The execution, validity, interpretation, enforcement and dispute resolution of this Agreement shall be"
       " governed by the PRC Law.",)),
    Q("phoenix", "semantic", "Rofr/Rofo/Rofn",
      "Before the Beijing licensee buys other services from outsiders, must it offer Phoenix the chance first?",
      ("If other services are required by Party B in Party B Business, Party B shall first provide Party A with"
       " the content and requirements of such services in writing.",
       "If Party A indicates expressly in writing that it refuses or is unable to provide such services"
       " … negotiate in good faith the content, method and fees of such services.")),
    Q("phoenix", "semantic", "Ip Ownership Assignment",
      "If the Beijing licensee ends up with rights in the programs, does it have to hand them over to Phoenix?",
      ("If Party B obtains any Intellectual Property Right in respect of the Program Content during its use of"
       " the same … legitimate, complete, and free from any encumbrance",)),
    Q("phoenix", "clause", "Anti-Assignment",
      "Anti-assignment clause in the Phoenix program content license",
      ("Party B may not assign its rights and obligations hereunder without Party A's consent in writing and the"
       " successors and permitted assigns of the Parties shall be bound by this Agreement.",)),
    # Emerald Health Naturals / Dr. Gaetano Morello consulting agreement
    Q("emerald", "date", "Effective Date",
      "When did the Emerald Health consulting agreement with Dr. Morello take effect?",
      ("10 day of January 2019",)),
    Q("emerald", "semantic", "Termination For Convenience",
      "Can Emerald let the contractor go even if he has done nothing wrong, under the Emerald Health consulting"
      " agreement?",
      ("The Contractor may terminate this Agreement and his or her engagement for any reason at any time upon"
       " providing 30 days advance notice in writing to Emerald. … no later than the date which is 30 days"
       " following that date.",
       "The Company may terminate this Agreement and the engagement of the Contractor without Cause at any time"
       " on 30 days prior written notice.")),
    Q("emerald", "clause", "Governing Law",
      "Governing law and jurisdiction of the Emerald Health consulting agreement",
      ("This Agreement will be governed by and construed inaccordance with the laws of British Columbia"
       " … the courts and appellate courts of British Columbia in that regard.",)),
    Q("emerald", "date", "Expiration Date",
      "When does the Emerald Health consulting engagement expire?",
      ("The term of this Agreement shall commence on January 10th, 2019 and shall expire on the day that is"
       " twenty-four (24) months … unless terminated earlier in accordance with this Agreement.",)),
    # Sphere 3D / Groupe Parameus consulting agreement
    Q("sphere3d", "entity", "Parties",
      "Who are the parties to the Sphere 3D consulting agreement?",
      ("GROUPE PARAMEUS CORP", "Sphere 3D Corp.")),
    Q("sphere3d", "semantic", "Renewal Term",
      "If Sphere 3D says nothing when the year is up, does the consulting arrangement keep going?",
      ("Without notification the contract will automatically extend for an additional month of service.",
       "In the case that the company would not like to extend the terms of agreement for an additional month."
       " The company must notify the consultant within 5 days of the conclusion of the 12 month term.")),
    Q("sphere3d", "semantic", "Post-Termination Services",
      "What handover does Groupe Parameus owe when the Sphere 3D consulting agreement ends?",
      ("Upon termination, Consultant agrees to perform the necessary information transfer required at the"
       " time.",)),
    Q("sphere3d", "clause", "Governing Law",
      "Governing law of the Sphere 3D consulting agreement",
      ("This Consulting Agreement shall be governed by, and construed pursuant to the laws of the State of New"
       " York, applicable to agreements made and performed wholly within such State.",)),
    # Medical Manager Midwest / MTS technical infrastructure maintenance agreement
    Q("trizetto", "date", "Agreement Date",
      "What is the date of the Medical Manager technical infrastructure maintenance agreement?",
      ("March 1, 1998",)),
    Q("trizetto", "semantic", "Notice Period To Terminate Renewal",
      "How can MTS get out of the Medical Manager maintenance agreement at the end of a year?",
      ("Customer, upon thirty days prior written notice, may cancel this Agreement at the end of the Initial Term"
       " and thereafter on each anniversary of the end of the Initial Term.",)),
    Q("trizetto", "clause", "Cap On Liability",
      "Limitation of liability in the Medical Manager maintenance agreement",
      ("MMMW's entire liability and the Customer's sole and exclusive remedy for claims … not to exceed the"
       " charge for service for the item that caused the damages.",
       "MMMW shall NOT be liable for INCIDENTAL or CONSEQUENTIAL DAMAGES, even if MMMW has been advised, knew or"
       " should have known of the possibility of such damages.")),
    Q("trizetto", "semantic", "Warranty Duration",
      "For how long after installation was MTS's equipment covered for free by Medical Manager?",
      ("MMMW provided Customer with an all inclusive warranty for a period of 12 months commencing on the date of"
       " installation to include system purchased by Customer from MMMW",)),
    Q("trizetto", "keyword", "Governing Law",
      "Medical Manager maintenance agreement Indiana law",
      ("This Agreement shall be interpreted in accordance with the laws of the State of Indiana.",)),
    # MICOA / Stratton, Cheeseman & Walsh-Nevada agency agreement
    Q("amphys", "entity", "Parties",
      "Who are the parties to the MICOA agency agreement?",
      ("Mutual Insurance Corporation of America", "Stratton, Cheeseman & Walsh-Nevada, Inc.")),
    Q("amphys", "date", "Agreement Date",
      "When was the MICOA agency agreement signed?",
      ("25th day of May, 1999.",)),
    Q("amphys", "semantic", "No-Solicit Of Customers",
      "After the MICOA agency agreement ends, can the agency keep selling to MICOA's Nevada policyholders?",
      ("In return for this payment, for a two-year period following the termination date, Agency will not"
       " … at the time of termination of this Agreement.",)),
    Q("amphys", "semantic", "Post-Termination Services",
      "Does MICOA have to buy anything from the agency when the MICOA agency agreement ends?",
      ("In the event this Agreement is terminated for any reason, MICOA agrees to purchase from Agency"
       " … for the MICOA insurance issued pursuant to this Agreement.",)),
    Q("amphys", "semantic", "Notice Period To Terminate Renewal",
      "How many days' warning does either side have to give to end the MICOA agency agreement?",
      ("This Agreement shall terminate, subject to any automatic renewal or extension for one year as required by"
       " law, upon either party giving at least one hundred twenty (120) days advance written notice to the other,"
       " if not otherwise contrary to applicable law or this Agreement.",)),
    Q("amphys", "keyword", "Insurance",
      "MICOA agency errors and omissions insurance $1,000,000 per incident",
      ("The Agency will maintain valid errors and omissions insurance, with minimum limits of $1,000,000 per"
       " incident … covering the Agency's solicitors and each of its employees.",
       "The Agency shall provide MICOA a copy of each policy; … including but not limited to the payment of all"
       " earned commissions.")),
    # Kiromic / Gianluca Rotino consulting agreement
    Q("kiromic", "date", "Effective Date",
      "From what date does the Kiromic consulting letter agreement take effect?",
      ("This letter agreement will be effective as of July 1, 2018.",)),
    Q("kiromic", "keyword", "Revenue/Profit Sharing",
      "Kiromic consultant hourly rate and monthly hours cap",
      ("The Company will compensate Consultant at the rate of $400 per hour … and subject to withholding as"
       " legally required.",)),
    Q("kiromic", "semantic", "Ip Ownership Assignment",
      "Who ends up owning whatever Rotino creates or discovers while doing work for Kiromic?",
      ("Consultant hereby irrevocably assigns to Company all right, title and interest in and to any information"
       " … (collectively, 111nventions\").",)),
    Q("kiromic", "semantic", "Non-Compete",
      "Is the Kiromic consultant allowed to set up a rival company while the engagement lasts?",
      ("Subject to written waivers that may be provided by the Company upon request … participate in the"
       " formation of any business or commercial entity in the Field of Interest or otherwise competitive with the"
       " Company.",)),
    Q("kiromic", "clause", "Governing Law",
      "Governing law of the Kiromic consulting agreement",
      ("This Agreement shall be governed by the laws of the State of Texas, without reference to its conflicts of"
       " law principles.",)),
)
