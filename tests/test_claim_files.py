"""Every claim file loads, and every quote occurs verbatim in its document."""

import pytest

from checks.engine.discovery import claim_files, load_claims
from checks.sources import Quote

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
        Quote("000_1100ff0056b332e7.txt", "§1", "not in the text").verify()
