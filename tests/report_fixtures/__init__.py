"""Results files for the report tests: three real claims evaluated in-process, plus made-up records.

The made-up records exercise what the real claims do not: hostile text (escaping), unsafe
MathML, failed and crashed runs, figures of every kind, a second machine with CUDA.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

from checks.engine.discovery import find_claim
from checks.engine.environment import environment
from checks.engine.evaluate import broken_file
from checks.engine.outcomes import Outcomes
from checks.implementations.third_party import THIRD_PARTY_ENV
from checks.results.codec import to_json
from checks.results.files import write_json
from checks.results.records import SCHEMA_VERSION

REAL_CLAIMS = ("pe.constant-norm", "pe.shift-is-rotation", "rope.relative-score")
ESCAPE_ID = "report.escaping"
ESCAPE_TITLE = '<script>alert(1)</script> & "x"'
ESCAPE_QUOTE = "짝이 되는 cos가 그 답을 줍니다."
ESCAPE_DOCUMENT = "002_86fa32f25d4c4c54.txt"


SHARED: Path | None = None
"""A folder every pytest-xdist worker of this run sees (tests/conftest.py sets it): the real records are evaluated
by the first worker that asks and read by the others."""


@functools.cache
def _real() -> str:
    if SHARED is None:
        return _evaluate_real()
    cached = SHARED / "real-records.json"
    with FileLock(str(cached) + ".lock"):
        if not cached.exists():
            cached.write_text(_evaluate_real(), encoding="utf-8")
        return cached.read_text(encoding="utf-8")


def _evaluate_real() -> str:
    """The three claims against the references and the project's own adapters: a report test reads their pages,
    never the third-party libraries' cells (those only add minutes)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(THIRD_PARTY_ENV, "0")
        outcomes = Outcomes()
        return json.dumps([to_json(outcomes.record(find_claim(claim_id))) for claim_id in REAL_CLAIMS])


def real_records() -> list[dict[str, Any]]:
    """Fresh copies of the three model claims' records (evaluated once per process)."""
    return json.loads(_real())


def figures() -> list[dict[str, Any]]:
    xs = list(range(0, 200, 2))
    return [
        {
            "name": "error-growth",
            "kind": "lines",
            "title": "Error grows with position",
            "alt": "Two rising lines: float16 error above float32 error; a dashed mark at position 128.",
            "x_label": "position",
            "y_label": "max error",
            "series": {
                "float16": {"x": xs, "y": [1e-4 * (1 + x) for x in xs]},
                "float32": {"x": xs, "y": [1e-8 * (1 + x) for x in xs]},
            },
            "matrix": [],
            "marks": {"limit 2⁷": 128},
            "log_x": False,
            "log_y": False,
        },
        {
            "name": "ellipse",
            "kind": "scatter",
            "title": "sin(ω pos) against sin(ω (pos + k))",
            "alt": "Points on an ellipse: one sin value has two successors.",
            "x_label": "sin(ω pos)",
            "y_label": "sin(ω (pos + k))",
            "series": {
                "pairs": {"x": [0.1 * i for i in range(-9, 10)], "y": [(-1) ** i * 0.05 * i for i in range(19)]}
            },
            "matrix": [],
            "marks": {},
            "log_x": False,
            "log_y": False,
        },
        {
            "name": "heatmap",
            "kind": "heatmap",
            "title": "PE values",
            "alt": "A 16 by 16 heatmap of values between −1 and 1.",
            "x_label": "dimension",
            "y_label": "position",
            "series": {},
            "matrix": [[((r * c) % 7 - 3) / 3 for c in range(16)] for r in range(16)],
            "marks": {},
            "log_x": False,
            "log_y": False,
        },
    ]


def escaping_record() -> dict[str, Any]:
    """A refuted claim whose every text field holds markup that must render as text."""
    run = {
        "kind": "check",
        "name": "hostile <b>check</b>",
        "implementation": "numpy",
        "reference": True,
        "device": "cpu",
        "dtype": "float32",
        "status": "failed",
        "examples": 3,
        "max_error": 0.5,
        "tolerance": 1e-6,
        "worst_input": {"x": "<script>alert(5)</script>"},
        "counterexample": {"x": "<script>alert(5)</script>"},
        "message": "AssertionError: </pre><script>alert(7)</script>",
        "seconds": 0.01,
    }
    passed = {**run, "implementation": "torch", "dtype": "float64", "status": "passed", "max_error": 1e-9}
    skipped = {**run, "device": "cuda", "status": "skipped", "examples": 0, "message": "cuda is not available"}
    return {
        "id": ESCAPE_ID,
        "title": ESCAPE_TITLE,
        "statement": 'Markup in a statement: <b>bold</b> & "quoted" stays text.',
        "sources": [{"document": ESCAPE_DOCUMENT, "section": "§3 <i>sin</i> 하나로는 부족하다", "text": ESCAPE_QUOTE}],
        "citations": [
            {
                "title": "A <b>cited</b> work",
                "authors": "<i>Author</i>",
                "year": 2021,
                "section": "§1 <script>alert(8)</script>",
                "text": "A sentence as written there.",
                "arxiv": "2104.09864v2",
            }
        ],
        "origin": "claims/report_escaping.py",
        "erratum": {
            "severity": "error",
            "problem": "A <b>problem</b> & its markup stay text.",
            "wording": "고친 문장 <script>alert(9)</script>도 글자로 나옵니다.",
            "sentence": "",
        },
        "depends": ["pe.constant-norm", "missing.claim"],
        "expected": "refuted",
        "observed": "refuted",
        "out_of_scope": "",
        "evidence": [
            {
                "kind": "proof",
                "status": "refuted",
                "seconds": 0.01,
                "steps": [
                    {
                        "label": "<img src=x onerror=alert(2)>",
                        "text": "x = 1",
                        "mathml": "<mi>x</mi><mo>=</mo><mn>1</mn>",
                    },
                    {
                        "label": "  an event handler falls back to text",
                        "text": "x",
                        "mathml": '<mi onclick="alert(3)">x</mi>',
                    },
                    {
                        "label": "  a script falls back to text",
                        "text": "x",
                        "mathml": "<mi>x</mi><script>alert(4)</script>",
                    },
                ],
                "facts": [{"label": "<u>fact</u>", "holds": False}],
                "conditions": [],
                "decisions": [
                    {
                        "status": "refuted",
                        "statement": "Eq(sin(x), x) </pre><script>alert(8)</script>",
                        "reason": "<b>nonzero remainder</b>",
                        "witness": {"x": "1.0"},
                        "conditions": [],
                        "certificates": [],
                        "expected": "proved",
                        "mathml": "",
                    }
                ],
                "witness": {"x": "1.0"},
            },
            run,
            passed,
            skipped,
            {
                "kind": "probe",
                "name": "figures <i>probe</i>",
                "seconds": 0.01,
                "measurements": {"<b>key</b>": [1, 2.5, "</td><script>alert(9)</script>"]},
                "findings": [],
                "figures": figures(),
            },
        ],
        "findings": [{"kind": "counterexample", "text": "x = 1 </p><script>alert(6)</script>", "data": {"<x>": "<y>"}}],
        "errors": [],
        "seconds": 0.1,
        "date": "2026-01-01T00:00:00+00:00",
    }


def probe_figures(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The figures of a record's first probe."""
    return next(item for item in record["evidence"] if item["kind"] == "probe")["figures"]


def proof_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The steps of a record's proof."""
    return next(item for item in record["evidence"] if item["kind"] == "proof")["steps"]


def on_cuda(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same records as a GPU machine would write them: every cuda check run copied from its cpu twin, passed."""
    moved = copy.deepcopy(records)
    for record in moved:
        checks = [item for item in record["evidence"] if item["kind"] == "check"]
        cpu = {(r["name"], r["implementation"], r["dtype"]): r for r in checks if r["device"] == "cpu"}
        for run in checks:
            twin = cpu.get((run["name"], run["implementation"], run["dtype"]))
            if run["device"] == "cuda" and twin and twin["status"] == "passed":
                run.update({**twin, "device": "cuda"})
    return moved


def write_document(path: Path, claims: list[dict[str, Any]], env: dict[str, Any]) -> Path:
    """A results file holding these records as written (JSON in the current schema)."""
    document = {"schema": SCHEMA_VERSION, "environment": env, "claims": sorted(claims, key=lambda c: c["id"])}
    write_json(path, {**document, "reran": [], "implementations": []})
    return path


def write_fixture_results(folder: Path) -> tuple[Path, Path]:
    """cpu.json (real claims, the escaping record, a broken file) and cuda.json (real claims on a GPU machine)."""
    folder.mkdir(parents=True, exist_ok=True)
    real = real_records()
    env = to_json(environment("ci", "derandomized"))
    broken = to_json(broken_file(Path("claims/not_loading.py"), "SyntaxError: <unexpected> & broken"))
    cpu = write_document(folder / "cpu.json", [*real, escaping_record(), broken], env)
    gpu_env = {**env, "gpus": ["NVIDIA H200 (fixture)"], "cuda": "12.9", "hypothesis_seed": "12345"}
    cuda = write_document(folder / "cuda.json", on_cuda(real), gpu_env)
    return cpu, cuda


def many_claims(results: Path, count: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """``count`` copies of a fixture claim, each with a figure of every kind, and the file's environment."""
    document = json.loads(results.read_text(encoding="utf-8"))
    template = next(c for c in document["claims"] if c["id"] == "pe.shift-is-rotation")
    probe = {
        "kind": "probe",
        "name": "figures",
        "seconds": 0.0,
        "measurements": {},
        "findings": [],
        "figures": probe_figures(escaping_record()),
    }
    claims = []
    for n in range(count):
        claim = copy.deepcopy(template)
        claim["id"] = f"speed.claim-{n}"
        claim["evidence"].append(probe)
        claims.append(claim)
    return claims, document["environment"]
