"""Issue 45, as a researcher met it: a paper kept as Markdown (or LaTeX) in the repository's docs/ is read where it
is, its markup is classified as such, its sentences are cut inside paragraphs that break over lines, and the pages
show its title and sections without markers.

The paper's text is "Attention Is All You Need" (Vaswani et al., 2017) as the Annotated Transformer quotes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from checks.documents.coverage import classify_document
from checks.documents.markup import layout
from checks.documents.sources import Quote
from checks.engine.cli import main
from checks.engine.discovery import claim_files, load_claims
from checks.engine.outcomes import Outcomes
from checks.settings import config
from checks.written.reading import read_documents
from reports.build import build_site

PAPER = r"""---
title: Attention Is All You Need (excerpts)
---

# Attention Is All You Need (excerpts)

## 3.2.1 Scaled Dot-Product Attention

We call our particular attention "Scaled Dot-Product Attention".
The input consists of queries and keys of dimension $d_k$, and
values of dimension $d_v$.  We compute the dot products of the query
with all keys, divide each by $\sqrt{d_k}$, and apply a softmax
function to obtain the weights on the values.

In practice, we compute the attention function on a set of queries
simultaneously, packed together into a matrix $Q$.  The keys and
values are also packed together into matrices $K$ and $V$.  We
compute the matrix of outputs as:

$$
   \mathrm{Attention}(Q, K, V) = \mathrm{softmax}(\frac{QK^T}{\sqrt{d_k}})V
$$

```python
scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
```

## 3.2.2 Multi-Head Attention

Multi-head attention allows the model to jointly attend to
information from different representation subspaces at different
positions. With a single attention head, averaging inhibits this.

| Layer Type | Complexity per Layer |
| --- | --- |
| Self-Attention | $O(n^2 \cdot d)$ |
"""
SENTENCES = [
    'We call our particular attention "Scaled Dot-Product Attention".',
    "The input consists of queries and keys of dimension $d_k$, and\nvalues of dimension $d_v$.",
    "We compute the dot products of the query\nwith all keys, divide each by $\\sqrt{d_k}$, and apply a softmax\n"
    "function to obtain the weights on the values.",
    "In practice, we compute the attention function on a set of queries\nsimultaneously, packed together into a "
    "matrix $Q$.",
    "The keys and\nvalues are also packed together into matrices $K$ and $V$.",
    "We\ncompute the matrix of outputs as:",
    "Multi-head attention allows the model to jointly attend to\ninformation from different representation "
    "subspaces at different\npositions.",
    "With a single attention head, averaging inhibits this.",
]


@pytest.fixture
def researcher(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A repository with the paper in docs/, `theory-claims init docs/attention.md` run in it."""
    for name in [*config.VARIABLES.values(), "THEORY_CLAIMS_ROOT"]:
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "attention.md").write_text(PAPER, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    earlier = config.chosen()
    assert main(["init", "docs/attention.md"]) == 0
    config.use(tmp_path)
    yield tmp_path
    config.restore(earlier)


def test_init_reads_the_paper_where_it_is_and_copies_nothing(researcher):
    settings = config.current()
    assert settings.sources == researcher / "docs"
    assert sorted(p.name for p in researcher.rglob("attention.md")) == ["attention.md"]
    (first,) = [claim for path in claim_files(settings.claims) for claim in load_claims(path)]
    assert first.sources[0].section == "3.2.1 Scaled Dot-Product Attention"
    assert first.sources[0].text == SENTENCES[0]


def test_markup_is_classified_by_itself_and_sentences_run_over_line_breaks(researcher):
    classified = classify_document("attention.md", [])
    kinds = [s.category for s in classified.sentences if s.sentence_class == "not-a-claim"]
    assert kinds == ["front-matter", "heading", "heading", "math", "code", "heading", "table"]
    unclassified = [s.text for s in classified.sentences if s.sentence_class == "unclassified"]
    assert unclassified == SENTENCES, "the eight sentences of prose, and nothing of the markup"
    assert "matrix $Q$." in unclassified[3] and unclassified[4].startswith("The keys")


@pytest.mark.parametrize(
    ("section", "accepted"),
    [
        ("3.2.2 Multi-Head Attention", True),
        ("## 3.2.2 Multi-Head Attention", True),
        ("3.2.1 Scaled Dot-Product Attention", False),  # the sentence stands under 3.2.2
    ],
)
def test_a_quote_names_its_section_by_its_words_or_its_line(researcher, section, accepted):
    quote = Quote("attention.md", section, SENTENCES[-1])
    if accepted:
        quote.verify()
    else:
        with pytest.raises(ValueError, match=re.escape("it stands under '3.2.2 Multi-Head Attention'")):
            quote.verify()


def test_the_site_shows_the_title_and_sections_without_markers(researcher):
    from checks.results import write_results
    from tests.records import environment

    settings = config.current()
    (claim,) = [claim for path in claim_files(settings.claims) for claim in load_claims(path)]
    results = researcher / "results.json"
    write_results(results, [Outcomes().record(claim)], environment())
    build_site([results], researcher / "site", documents=read_documents)
    page = (researcher / "site" / "documents" / "attention.md.html").read_text(encoding="utf-8")
    assert '<h1 lang="en">Attention Is All You Need (excerpts)</h1>' in page, "the title without its marker"
    claim_page = next((researcher / "site" / "claims").glob("*.html")).read_text(encoding="utf-8")
    assert 'section <span lang="en">3.2.1 Scaled Dot-Product Attention</span>' in claim_page
    assert "## 3.2.1" not in claim_page
    index = (researcher / "site" / "index.html").read_text(encoding="utf-8")
    assert '<span lang="en">Attention Is All You Need (excerpts)</span>' in index and "# Attention" not in index
    assert "lesson" not in index.lower()


LATEX = r"""\documentclass{article}
\title{Attention Is All You Need (excerpts)}
\begin{document}
\maketitle
\section{Why Self-Attention}
% a note to ourselves
As noted in Table~\ref{tab:op}, a self-attention layer connects all positions with a constant number of
sequentially executed operations, whereas a recurrent layer requires $O(n)$ sequential operations.\footnote{To
illustrate why the dot products get large, assume that the components of $q$ and $k$ are independent random
variables with mean $0$ and variance $1$.}
\begin{equation}
q \cdot k = \sum_{i=1}^{d_k} q_i k_i
\end{equation}
\begin{table}
\caption{Maximum path lengths.}
\begin{tabular}{ll} Self-Attention & $O(1)$ \\ \end{tabular}
\end{table}
\end{document}
"""


def test_a_latex_paper_keeps_its_footnote_as_prose_and_its_markup_apart(tmp_path, monkeypatch):
    monkeypatch.setenv("THEORY_CLAIMS_SOURCES", str(tmp_path))
    (tmp_path / "paper.tex").write_text(LATEX, encoding="utf-8")
    classified = classify_document("paper.tex", [], tmp_path)
    prose = [s.text for s in classified.sentences if s.sentence_class == "unclassified"]
    assert prose == [
        "As noted in Table~\\ref{tab:op}, a self-attention layer connects all positions with a constant number of\n"
        "sequentially executed operations, whereas a recurrent layer requires $O(n)$ sequential operations.",
        "To\nillustrate why the dot products get large, assume that the components of $q$ and $k$ are independent "
        "random\nvariables with mean $0$ and variance $1$.",
    ]
    kinds = [s.category for s in classified.sentences if s.sentence_class == "not-a-claim"]
    assert kinds == ["front-matter", "heading", "markup", "math", "table", "markup"]
    Quote("paper.tex", "Why Self-Attention", "assume that the components of $q$ and $k$ are independent").verify()


FOOTNOTE = r"""# Attention Is All You Need: footnotes

## Footnote 4

To illustrate why the dot products get large, assume that the components of $q$ and $k$ are independent random
variables with mean $0$ and variance $1$. Then their dot product, $q \cdot k = \sum_{i=1}^{d_k} q_i k_i$, has mean
$0$ and variance $d_k$.
"""
VARIANCE_CLAIM = '''"""{title}"""

import sympy as sp
from hypothesis import strategies as st

from checks import Claim, Document, given
from checks.statistics import draws

PAPER = Document("footnotes.md")
claim = Claim(
    id="{claim_id}",
    title="{title}",
    statement="For components of mean 0 and variance 1, independent, q · k has mean 0 and variance {variance}.",
    sources=[PAPER.quote("Footnote 4", "has mean\\n$0$ and variance $d_k$.")],
    expect="{expect}",
)
d_k = sp.Symbol("d_k", integer=True, positive=True)
i = sp.Symbol("i", integer=True, positive=True)


@claim.proof
def _(p):
    q = p.random_vector("q", mean=0, variance=1)
    k = p.random_vector("k", mean=0, variance=1)
    p.independent(q, k)
    dot = sp.Sum(q[i] * k[i], (i, 1, d_k))
    p.decide(p.expectation(dot), 0, label="E[q·k] = 0")
    p.decide(p.variance(dot), {variance}, label="Var[q·k] = {variance}")


@claim.check(dtypes=("float64", "float32"))
@given(d=st.integers(1, 32), draw=draws())
def dot_products(t, d, draw):
    q, k = (t.xp.array(a) for a in draw.arrays(2, (20_000, d)))
    products = t.xp.sum(q * k, axis=1)
    t.mean_is(products, 0.0, label="mean of q · k")
    t.variance_is(products, float(({variance}).subs(d_k, d)), mean=0.0, label="variance of q · k")
'''


def test_the_footnote_is_proved_from_its_assumptions_and_a_wrong_variance_refuted(researcher):
    """The researcher's footnote 4 as two claims of their repository: mean 0 and variance d_k decided from the stated
    distributional assumptions (shown beside "proved"), and the same proof with 6/5 d_k refuted with a witness; the
    same sentences checked on samples by the statistical comparator, which passes the first and refutes the second,
    and the page shows its statistic and threshold, not float tolerances."""
    from checks.evidence.check import CheckRun
    from checks.evidence.proof import ProofRecord
    from checks.results import write_results
    from tests.records import environment

    (researcher / "docs" / "footnotes.md").write_text(FOOTNOTE, encoding="utf-8")
    claims = config.current().claims
    cases = {
        "paper.dot-variance": ("d_k", "proved"),
        "paper.dot-variance-wrong": ("sp.Rational(6, 5) * d_k", "refuted"),
    }
    for claim_id, (variance, expect) in cases.items():
        source = VARIANCE_CLAIM.format(
            claim_id=claim_id, title=f"q · k has variance {variance}", variance=variance, expect=expect
        )
        (claims / f"{claim_id.replace('.', '_').replace('-', '_')}.py").write_text(source, encoding="utf-8")
    loaded = {claim.id: claim for path in claim_files(claims) for claim in load_claims(path)}
    outcomes = Outcomes()
    records = {claim_id: outcomes.record(loaded[claim_id]) for claim_id in cases}
    for claim_id, (_, expect) in cases.items():
        assert str(records[claim_id].observed) == expect, records[claim_id].errors
    (proved,) = records["paper.dot-variance"].of(ProofRecord)
    assert "q and k independent: all their components mutually independent" in proved.assumptions
    (wrong,) = records["paper.dot-variance-wrong"].of(ProofRecord)
    assert wrong.status == "refuted" and any(d.status == "refuted" for d in wrong.decisions)
    right_runs = [r for r in records["paper.dot-variance"].of(CheckRun) if r.ran]
    wrong_runs = [r for r in records["paper.dot-variance-wrong"].of(CheckRun) if r.ran]
    assert right_runs and {r.status for r in right_runs} == {"passed"}
    assert wrong_runs and {r.status for r in wrong_runs} == {"failed"}
    assert all(r.statistics and r.statistics.statistic > r.statistics.threshold for r in wrong_runs)
    results = researcher / "results.json"
    write_results(results, list(records.values()), environment())
    build_site([results], researcher / "site", documents=read_documents)
    page = (researcher / "site" / "claims" / "paper.dot-variance.html").read_text(encoding="utf-8")
    assert "proved, assuming:</strong> q: components q_i independent" in page
    assert 'section <span lang="en">Footnote 4</span>' in page
    assert '<th scope="col" class="num">|z|</th><th scope="col" class="num">threshold</th>' in page
    assert "its statistic and threshold are below" in page and "(seed " in page


def test_markup_a_parser_cannot_read_is_one_line_naming_the_document(researcher, capsys):
    """pylatexenc raises IndexError on a lone \\verb and RecursionError on deep braces: a quote of that document and
    `theory-claims sentences` say so in one line naming it, with no traceback. (The settings `init` wrote are the
    ones the next command reads: they were cached from before the table existed.)"""
    (researcher / "docs" / "broken.tex").write_text("\\section{Bounds}\n\\verb", encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.tex: its LaTeX could not be read \(IndexError"):
        Quote("broken.tex", "Bounds", "x").verify()
    with pytest.raises(ValueError, match=r"deep\.tex: its LaTeX could not be read \(RecursionError"):
        layout("deep.tex", "{" * 3000)
    assert main(["sentences"]) == 2
    captured = capsys.readouterr()
    assert "error: broken.tex: its LaTeX could not be read" in captured.err and "Traceback" not in captured.err
