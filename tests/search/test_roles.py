"""Which legal role a question asks for, by meaning: the question's embedding against the roles' descriptions."""

from __future__ import annotations

import numpy as np
import pytest

from casetrack.config import load_settings
from casetrack.embed import EmbedderPool
from casetrack.search.roles import RoleMatcher, description_texts


def test_a_role_is_asked_in_proportion_to_how_close_the_question_is() -> None:
    texts = [("dissent", "dissenting opinion"), ("holding", "holding"), ("dissent", "who disagreed")]
    vectors = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.8, 0.0, 0.6]], dtype=np.float32)
    matcher = RoleMatcher.of(vectors, texts)
    assert matcher.ids == ("dissent", "holding")
    asked = matcher.asked(np.array([0.9, 0.1, 0.42]), threshold=0.5, margin=0.03)
    assert list(asked) == ["dissent"] and 0 < asked["dissent"] < 1  # its best text counts
    assert matcher.asked(np.array([0.1, 0.1, 0.0]), threshold=0.9) == {}
    with pytest.raises(ValueError):
        RoleMatcher.of(vectors[:2], texts)


@pytest.fixture(scope="module")
def matcher(tmp_path_factory: pytest.TempPathFactory) -> tuple[RoleMatcher, object]:
    pool = EmbedderPool(load_settings(tmp_path_factory.mktemp("roles")).models_dir)
    if "E7" not in pool.available():
        pytest.skip("the packaged E7 model is not installed")
    e7 = pool.get("E7")
    texts = description_texts()
    return RoleMatcher.of(np.asarray(e7.embed_documents([t for _, t in texts])), texts), e7


@pytest.mark.parametrize(("question", "role"), [
    ("Can they walk away without giving a reason?", "termination_for_convenience"),
    ("Which judge disagreed with the result?", "dissent"),
    ("Which law governs this contract?", "governing_law"),
    ("Is there a cap on how much either side can be liable for?", "cap_on_liability"),
    ("Which justice took no part in the decision?", "recusal"),
    ("May a party hand the contract over to another company?", "anti_assignment"),
])
def test_a_paraphrased_question_asks_for_the_role_it_means(matcher: tuple[RoleMatcher, object], question: str,
                                                           role: str) -> None:
    roles, e7 = matcher
    asked = roles.asked(np.asarray(e7.embed_query(question)))  # type: ignore[attr-defined]
    assert role in asked, (question, roles.similarities(np.asarray(e7.embed_query(question))))  # type: ignore[attr-defined]


def test_a_question_about_facts_asks_for_no_role(matcher: tuple[RoleMatcher, object]) -> None:
    roles, e7 = matcher
    for question in ("How many complaints does the post office receive a year?", "Where does the tenant live?"):
        assert roles.asked(np.asarray(e7.embed_query(question))) == {}, question  # type: ignore[attr-defined]


def test_descriptions_cover_every_role() -> None:
    from casetrack.chunk.roles.taxonomy import ROLES

    assert {role for role, _ in description_texts()} == {r.id for r in ROLES}
