"""The catalog's documents and the published works it cites, each named once.

Part of the public face for claim files (docs/writing-claims.md); what it re-exports may move inside."""

from __future__ import annotations

from checks.helpers.works import LESSON_000, LESSON_001, LESSON_002, su_2021, touvron_2023, vaswani_2017

__all__ = ["LESSON_000", "LESSON_001", "LESSON_002", "su_2021", "touvron_2023", "vaswani_2017"]
