"""Formulas as the documents write them: parsed by a grammar, decided, their problems said with a correction.

``review_document(name)`` lists every formula of a document (LaTeX between ``$…$``/``$$…$$`` and plain-text
``left = right`` in prose) with what was decided: an identity that holds, a restatement that agrees with its
definition, a definition; or a problem a reader meets (does not parse, does not render, disagrees with its
definition, false as written) and a correction checked by reviewing it again. The report lists them on each
document's page and makes the problems errata (reports.errata).
"""

from checks.written.examples import KOREAN_ROLES, roles_korean
from checks.written.found import Formula, code_lines
from checks.written.meaning import NoMeaning, expression
from checks.written.parse import FormulaError, parse
from checks.written.review import review_document, review_text, uses

__all__ = [
    "KOREAN_ROLES",
    "Formula",
    "FormulaError",
    "NoMeaning",
    "code_lines",
    "expression",
    "parse",
    "review_document",
    "review_text",
    "roles_korean",
    "uses",
]
