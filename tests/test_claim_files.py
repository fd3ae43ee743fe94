"""Every claim file loads, and every quote occurs verbatim in its document."""

import pytest

from checks.documents.sources import Quote
from checks.engine.discovery import claim_files, load_claims

CLAIMS = [claim for path in claim_files() for claim in load_claims(path)]


def test_claim_ids_are_unique():
    ids = [claim.id for claim in CLAIMS]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_every_quote_is_in_its_document(claim):
    for quote in claim.sources:
        quote.verify()


def test_a_wrong_quote_names_the_document_and_the_text():
    with pytest.raises(ValueError, match=r"000_1100ff0056b332e7.txt.*not in the text"):
        Quote("000_1100ff0056b332e7.txt", "1. 값이 항상 -1 ~ 1 사이", "not in the text").verify()


def test_a_section_must_be_a_heading_line_of_the_document_and_the_nearest_are_named():
    heading = "1. 값이 항상 -1 ~ 1 사이"
    with pytest.raises(
        ValueError, match=rf"section '§1 값이 항상 -1 ~ 1 사이' is not a heading .*nearest: '{heading}'"
    ):
        Quote("000_1100ff0056b332e7.txt", "§1 값이 항상 -1 ~ 1 사이", "x").verify()
