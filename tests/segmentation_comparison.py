"""Sentence splitters compared on real sentences: ``python -m tests.segmentation_comparison``.

For each candidate, on the labelled corpus (tests/segmentation_corpus.py): the sentences it gets exactly right, the
ones it gets wrong, split-wrong (a piece of one expected sentence) or joined-wrong (running over the boundary
between two), the passages it gets wholly right, and its time per 1,000 sentences; printed as Markdown, one table
per language, then a few of each candidate's wrong sentences. For each Korean candidate, also what it would change
in the three lessons' current sentences (``checks.documents.segmentation.sentence_spans``: the rule their classification
files were written against), line by line, with each changed sentence's class.

The candidates are imported when they run: one that is not installed is named as missing and the rest still run.
The project does not depend on them; install them in a scratch environment (docs/segmentation.md says how).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import time
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from checks.documents import segmentation
from tests.segmentation_corpus import ENGLISH, KOREAN, Passage

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "sources"

Span = tuple[int, int]
Split = Callable[[str, tuple[int, ...]], list[Span]]
"""A candidate at work: (text, the offsets of its line ends written as spaces) -> its sentences' spans."""


class Candidate(NamedTuple):
    name: str
    language: str
    needs: tuple[str, ...]
    """The modules it imports: it is missing when one is not installed."""
    load: Callable[[], Split]
    """Imports and builds the splitter (timed apart, as 'load')."""


def trimmed(text: str, spans: Iterable[Span]) -> list[Span]:
    """Each span without its leading and trailing spaces; empty ones dropped."""
    found = []
    for start, end in spans:
        piece = text[start:end]
        if piece.strip():
            begin = start + len(piece) - len(piece.lstrip())
            found.append((begin, begin + len(piece.strip())))
    return found


class Altered(ValueError):
    """A splitter returned a sentence that is not a piece of the text it was given."""


def located(text: str, pieces: Iterable[str]) -> list[Span]:
    """The spans of ``pieces`` (strings a splitter returned, in order) in ``text``."""
    spans, at = [], 0
    for piece in pieces:
        stripped = piece.strip()
        if not stripped:
            continue
        start = text.find(stripped, at)
        if start < 0:
            raise Altered(f"{stripped!r} is not in the text after offset {at}")
        spans.append((start, start + len(stripped)))
        at = start + len(stripped)
    return spans


def _lined(text: str, breaks: tuple[int, ...]) -> str:
    """``text`` with its line ends restored (each a space in the corpus): the same length, so spans carry over."""
    chars = list(text)
    for offset in breaks:
        chars[offset] = "\n"
    return "".join(chars)


def _adopted_per_line() -> Split:
    return lambda text, breaks: segmentation.sentence_spans(_lined(text, breaks), "en")


def _adopted_per_paragraph() -> Split:
    return lambda text, breaks: segmentation.paragraph_spans(text, 0, len(text), "en")


def _korean_rule() -> Split:
    return lambda text, breaks: segmentation.sentence_spans(text, "ko")


def _sentencex(language: str) -> Callable[[], Split]:
    def load() -> Split:
        import sentencex

        return lambda text, breaks: located(text, sentencex.segment(language, text))

    return load


def _syntok() -> Split:
    from syntok import segmenter

    def split(text: str, breaks: tuple[int, ...]) -> list[Span]:
        return [
            (sentence[0].offset, sentence[-1].offset + len(sentence[-1].value))
            for paragraph in segmenter.analyze(text)
            for sentence in paragraph
            if sentence
        ]

    return split


def _nupunkt() -> Split:
    import nupunkt

    nupunkt.sent_spans("Load the model. Then time it.")
    return lambda text, breaks: nupunkt.sent_spans(text)


def _kiwi() -> Split:
    from kiwipiepy import Kiwi

    kiwi = Kiwi()
    return lambda text, breaks: [(s.start, s.end) for s in kiwi.split_into_sents(text)]


def _kss() -> Split:
    import kss

    kss.split_sentences("모델을 불러옵니다. 그다음 잽니다.")
    return lambda text, breaks: located(text, kss.split_sentences(text, num_workers=1))


CANDIDATES = [
    Candidate(
        "checks.documents.segmentation, per line (nupunkt and the letter rules; a plain-text document)",
        "en",
        ("nupunkt",),
        _adopted_per_line,
    ),
    Candidate(
        "checks.documents.segmentation, per paragraph (paragraph_spans: Markdown, LaTeX)",
        "en",
        ("nupunkt",),
        _adopted_per_paragraph,
    ),
    Candidate("sentencex", "en", ("sentencex",), _sentencex("en")),
    Candidate("syntok", "en", ("syntok",), _syntok),
    Candidate("nupunkt", "en", ("nupunkt",), _nupunkt),
    Candidate("the current rule (checks.documents.segmentation.KOREAN_SENTENCE)", "ko", (), _korean_rule),
    Candidate("kss", "ko", ("kss",), _kss),
    Candidate("kiwipiepy (Kiwi().split_into_sents)", "ko", ("kiwipiepy",), _kiwi),
    Candidate("sentencex", "ko", ("sentencex",), _sentencex("ko")),
]


@dataclass
class Score:
    expected: int = 0
    right: int = 0
    split_wrong: int = 0
    joined_wrong: int = 0
    altered: int = 0
    passages_right: int = 0
    seconds: float = 0.0
    load_seconds: float = 0.0
    wrong: list[tuple[str, str, str]] = field(default_factory=list)
    """(kind, predicted sentence, source) of each wrong one."""


def judged(passage: Passage, predicted: list[Span]) -> list[tuple[str, Span]]:
    """Each predicted sentence with its verdict: 'right', 'joined' (it runs over a boundary between two expected
    sentences) or 'split' (it is a piece of one expected sentence, cut where none ends)."""
    expected = passage.spans
    verdicts = []
    for span in trimmed(passage.text, predicted):
        if span in expected:
            verdicts.append(("right", span))
            continue
        overlapping = [e for e in expected if e[0] < span[1] and span[0] < e[1]]
        verdicts.append(("joined" if len(overlapping) > 1 else "split", span))
    return verdicts


def scored(split: Split, passages: list[Passage], repeat: int) -> Score:
    score = Score()
    for passage in passages:
        score.expected += len(passage.sentences)
        try:
            verdicts = judged(passage, split(passage.text, passage.breaks))
        except Altered as error:
            score.altered += 1
            score.wrong.append(("altered", str(error), passage.source))
            continue
        kinds = [kind for kind, _ in verdicts]
        score.right += kinds.count("right")
        score.split_wrong += kinds.count("split")
        score.joined_wrong += kinds.count("joined")
        score.passages_right += kinds == ["right"] * len(passage.sentences)
        score.wrong += [(kind, passage.text[a:b], passage.source) for kind, (a, b) in verdicts if kind != "right"]
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        for passage in passages:
            with contextlib.suppress(Altered):
                split(passage.text, passage.breaks)
        timings.append(time.perf_counter() - started)
    score.seconds = min(timings)
    return score


def missing(candidate: Candidate) -> list[str]:
    return [name for name in candidate.needs if importlib.util.find_spec(name) is None]


def table(rows: list[tuple[Candidate, Score]], passages: list[Passage]) -> list[str]:
    sentences = sum(len(p.sentences) for p in passages)
    lines = [
        f"{len(passages)} passages, {sentences} sentences.",
        "",
        "| candidate | right | split-wrong | joined-wrong | passages wholly right | ms per 1,000 sentences | load s |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for candidate, s in rows:
        altered = f" (+{s.altered} passages altered)" if s.altered else ""
        lines.append(
            f"| {candidate.name} | {s.right} / {s.expected} ({100 * s.right / s.expected:.1f} %) | {s.split_wrong} | "
            f"{s.joined_wrong}{altered} | {s.passages_right} / {len(passages)} | "
            f"{1000 * 1000 * s.seconds / s.expected:.1f} | {s.load_seconds:.2f} |"
        )
    return lines


def examples(rows: list[tuple[Candidate, Score]], count: int) -> list[str]:
    lines = []
    for candidate, s in rows:
        lines += ["", f"{candidate.name}: {len(s.wrong)} wrong"]
        for kind in ("split", "joined", "altered"):
            shown = [w for w in s.wrong if w[0] == kind][:count]
            lines += [f"- {kind}-wrong: {text!r} ({source})" for _, text, source in shown]
    return lines


# What a candidate changes in the lessons: it runs on each line of each lesson as the current rule does (a line is
# never joined to the next; blank lines and '---' rules are not sentences).


def classes(document: Path) -> dict[str, str]:
    """Each listed sentence's class in the document's classification file; a sentence not listed is quoted by a
    claim."""
    path = LESSONS / "sentences" / f"{document.stem}.toml"
    rows = tomllib.loads(path.read_text(encoding="utf-8"))["sentence"]
    return {row["text"]: row.get("category", "unchecked") for row in rows}


@dataclass
class Change:
    document: str
    line: int
    now: list[str]
    then: list[str]
    now_classes: list[str]


def line_sentences(line: str, split: Split) -> list[str]:
    """The candidate's sentences of one line of a lesson, as the engine would take them."""
    if not line.strip() or line.strip() == "---":
        return []
    try:
        return [line[a:b] for a, b in trimmed(line, split(line, ()))]
    except Altered as error:
        return [f"(not a piece of the line: {error})"]


def changes(split: Split) -> list[Change]:
    found = []
    for document in sorted(LESSONS.glob("*.txt")):
        text = document.read_text(encoding="utf-8")
        listed = classes(document)
        now = segmentation.sentence_spans(text, "ko")
        offset = 0
        for number, line in enumerate(text.splitlines(keepends=True), 1):
            here = [text[a:b] for a, b in now if offset <= a < offset + len(line)]
            there = line_sentences(line.rstrip("\r\n"), split)
            if here != there:
                found.append(
                    Change(document.name, number, here, there, [listed.get(t, "quoted by a claim") for t in here])
                )
            offset += len(line)
    return found


def change_report(candidate: Candidate, split: Split) -> list[str]:
    found = changes(split)
    lost = sum(len(c.now) for c in found)
    gained = sum(len(c.then) for c in found)
    lines = [
        "",
        f"### {candidate.name}",
        "",
        f"{len(found)} lines change: {lost} of the current sentences give way to {gained}.",
    ]
    for c in found:
        now = "; ".join(f"{t!r} [{k}]" for t, k in zip(c.now, c.now_classes, strict=True))
        lines.append(f"- {c.document}:{c.line}: {now} → {' | '.join(map(repr, c.then))}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=3, help="wrong sentences shown per kind and candidate")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs over the corpus (the fastest counts)")
    args = parser.parse_args(argv)
    corpora = {"en": ("English", ENGLISH), "ko": ("Korean", KOREAN)}
    absent = [(c, missing(c)) for c in CANDIDATES if missing(c)]
    if absent:
        names = sorted({name for _, needs in absent for name in needs})
        print(
            "Missing, left out: " + "; ".join(f"{c.name} [{c.language}]" for c, _ in absent) + f" (pip install "
            f"{' '.join(names)}; docs/segmentation.md)"
        )
    for language, (title, passages) in corpora.items():
        rows, splits = [], []
        for candidate in CANDIDATES:
            if candidate.language != language or missing(candidate):
                continue
            started = time.perf_counter()
            split = candidate.load()
            load_seconds = time.perf_counter() - started
            score = scored(split, passages, args.repeat)
            score.load_seconds = load_seconds
            rows.append((candidate, score))
            splits.append((candidate, split))
        print(f"\n## {title}\n")
        print("\n".join(table(rows, passages)))
        print(f"\n### What each gets wrong ({args.examples} of each kind)")
        print("\n".join(examples(rows, args.examples)))
        if language == "ko":
            print("\n## What each Korean candidate changes in the three lessons' sentences")
            for candidate, split in splits:
                print("\n".join(change_report(candidate, split)))


if __name__ == "__main__":
    main()
