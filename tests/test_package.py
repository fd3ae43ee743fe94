"""The tool as a package (issue 28): a wheel installed into a fresh environment runs a researcher's repository —
its own pyproject.toml, its document in docs/, three claims (an identity, a bound, a qualified one) — with
``pytest`` and ``theory-claims``, from a folder outside this checkout, writing nothing into the installed
package or the checkout.

The fresh environment takes its dependencies (torch, sympy, ...) from this one through a .pth file, so the test
stays fast; the tool itself comes only from the wheel.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest

from checks.results.files import read_results
from checks.results.records import Run

ROOT = Path(__file__).resolve().parent.parent
DOCUMENT = """\
# Sinusoidal encodings, briefly

Vaswani et al. (2017) give every position a vector of sines and cosines, e.g. sin(pos/10000^(2i/d)). Each pair \
of entries lies on the unit circle.

## Bounds

Every entry lies between -1 and 1. A sine alone, e.g. sin(pos), repeats, so two positions can share it.

## Relative positions

A shift by k positions is a rotation of each pair, see Fig. 2 of the paper.
"""
CLAIMS = {
    "unit_circle.py": '''
        """Each pair of entries lies on the unit circle."""
        import sympy as sp

        from checks import Claim, Document

        POST = Document("post.txt")
        claim = Claim(
            id="post.unit-circle",
            title="sin² + cos² = 1",
            statement="sin(x)² + cos(x)² = 1 for every real x.",
            sources=[POST.quote("# Sinusoidal encodings, briefly", "Each pair of entries lies on the unit circle.")],
            expect="proved",
        )


        @claim.proof
        def _(p):
            (x,) = p.reals("x")
            p.decide(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1, label="the radius is 1")
    ''',
    "bounded.py": '''
        """Every entry lies between -1 and 1: sin(x)² ≤ 1, proved by a certificate."""
        import sympy as sp

        from checks import Claim, Document

        POST = Document("post.txt")
        claim = Claim(
            id="post.bounded",
            title="Entries lie in [-1, 1]",
            statement="sin(x)² ≤ 1 for every real x.",
            sources=[POST.quote("## Bounds", "Every entry lies between -1 and 1.")],
            expect="proved",
        )


        @claim.proof
        def _(p):
            (x,) = p.reals("x")
            p.decide(sp.sin(x) ** 2, 1, relation="<=", label="sin² ≤ 1")
    ''',
    "sine_repeats.py": '''
        """A sine alone repeats: sin(0) = sin(π), but at integer positions no two agree exactly."""
        import math

        from checks import Claim, Document

        POST = Document("post.txt")
        claim = Claim(
            id="post.sine-repeats",
            title="A sine alone repeats",
            statement="sin(pos) takes a value twice within a period; at integer positions only up to rounding.",
            sources=[POST.quote("## Bounds", "A sine alone, e.g. sin(pos), repeats, so two positions can share it.")],
            expect="qualified",
        )


        @claim.probe
        def _(r):
            values = {pos: math.sin(pos) for pos in range(200)}
            closest = min(
                (abs(values[a] - values[b]), a, b) for a in values for b in values if a < b
            )
            r.measure("closest pair of integer positions", closest)
            r.condition(
                "sin(pos) repeats over real positions; at integer positions two values only come close",
                gap=closest[0],
                positions=[closest[1], closest[2]],
            )
    ''',
}


def _run(command: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """A command of the fresh environment, in ``cwd``, with no THEORY_CLAIMS_* or PYTHONPATH inherited."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("THEORY_CLAIMS_") and k != "PYTHONPATH"}
    return subprocess.run(
        command, cwd=cwd, env={**clean, **env}, capture_output=True, text=True, timeout=600, check=False
    )


def _snapshot(folder: Path) -> dict[str, int]:
    """Every file under ``folder`` with its modification time (what a run must leave as it was)."""
    return {
        str(p.relative_to(folder)): p.stat().st_mtime_ns
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh environment with the wheel built from a copy of this checkout; its bin folder."""
    work = tmp_path_factory.mktemp("package")
    source = work / "source"
    ignored = shutil.ignore_patterns(".git", ".tox", "html", "__pycache__", ".hypothesis", "*.egg-info", "build")
    shutil.copytree(ROOT, source, ignore=ignored)
    # setuptools in this environment builds the wheel offline; without it pip fetches it from the registry
    isolation = ["--no-build-isolation"] if _has("setuptools") else []
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work / "wheel"), str(source), *isolation],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (work / "wheel").glob("theory_claims-*.whl")
    environment = work / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(environment)], check=True)
    python = environment / "bin" / "python"
    purelib = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (purelib / "dependencies.pth").write_text(
        "\n".join(dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])) + "\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q", str(wheel)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return environment / "bin"


def _has(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


@pytest.fixture
def repository(tmp_path) -> Path:
    """A researcher's repository: its own pyproject.toml, its document in docs/, three claims, a git commit."""
    repo = tmp_path / "research"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "post.txt").write_text(DOCUMENT, encoding="utf-8")
    (repo / "claims_of_post").mkdir()
    for name, body in CLAIMS.items():
        (repo / "claims_of_post" / name).write_text(textwrap.dedent(body).lstrip(), encoding="utf-8")
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "research"\nversion = "0"\n\n'
        '[tool.theory-claims]\nclaims = "claims_of_post"\nsources = "docs"\nout = "site"\nprofile = "ci"\n'
    )
    for command in (["init", "-q"], ["add", "."], ["-c", "user.name=r", "-c", "user.email=r@x", "commit", "-qm", "x"]):
        subprocess.run(["git", *command], cwd=repo, check=True, capture_output=True)
    return repo


def test_the_wheel_holds_what_the_engine_and_the_report_read(installed):
    site = Path(
        subprocess.run(
            [installed / "python", "-c", "import checks, reports; print(checks.__file__); print(reports.__file__)"],
            capture_output=True,
            text=True,
            check=True,
            cwd="/",
        ).stdout.split()[0]
    ).parents[1]
    assert "site-packages" in str(site), site
    templates = [path.relative_to(ROOT).as_posix() for path in (ROOT / "reports" / "templates").rglob("*.*")]
    for data in ("checks/results/schema.json", "checks/engine/templates/claim.py.txt", *templates):
        assert (site / data).is_file(), f"{data} is not in the installed package (pyproject's package-data)"
    assert (installed / "theory-claims").is_file()


def test_the_wheel_requires_the_core_and_names_each_extra(installed):
    """Issue 45: the core install pulls only what the engine, the proofs and the report need; torch, the SOS solver,
    the browser tests, the optional libraries and the developer tools are extras, each its own requirements file."""
    import zipfile

    from checks.settings.extras import EXTRAS

    (wheel,) = (installed.parent.parent / "wheel").glob("theory_claims-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        metadata = next(archive.read(n).decode() for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
    requires = [line.removeprefix("Requires-Dist: ") for line in metadata.splitlines() if line.startswith("Requires-")]
    core = sorted(r.split("==")[0] for r in requires if ";" not in r and not r.startswith("Requires-Python"))
    assert "torch" not in core and "cvxpy" not in core and "playwright" not in core and "transformers" not in core
    assert {"numpy", "sympy", "hypothesis", "pytest", "jinja2"} <= set(core)
    extras = {line.removeprefix("Provides-Extra: ") for line in metadata.splitlines() if line.startswith("Provides-")}
    assert extras == set(EXTRAS)
    assert 'torch==2.13.0; extra == "torch"' in requires, requires


LESSON_MARKERS = (
    "000_1100ff0056b332e7",
    "001_53050abb35828e70",
    "002_86fa32f25d4c4c54",
    "LESSON_00",
    "DEMO_",
    "catalog.lesson",
    "tox -e",
)
"""What only this repository's lesson catalog names: its documents, their handles, the demos' constants, the
lesson-code adapters and this repository's tox environments."""


def test_the_wheel_holds_no_lesson_file_name_demo_constant_or_tox_environment(installed):
    (wheel,) = (installed.parent.parent / "wheel").glob("theory_claims-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        found = {
            (name, marker)
            for name in archive.namelist()
            for marker in LESSON_MARKERS
            if marker in archive.read(name).decode("utf-8", errors="replace")
        }
        names = archive.namelist()
    assert not found, "\n".join(map(str, sorted(found)))
    assert not [name for name in names if name.startswith(("claims/", "sources/", "tests/"))]


TOPIC = '''
    """Softmax as a topic of this repository: a NumPy reference, torch's and a faulty one."""
    import numpy as np
    import torch

    from checks.topics import Topic


    def reference(x):
        """exp(x − max) / Σ exp(x − max) over the last axis, in the array's own library and dtype."""
        if isinstance(x, np.ndarray):
            e = np.exp(x - x.max(-1, keepdims=True))
            return e / e.sum(-1, keepdims=True)
        return torch.softmax(x, dim=-1)


    class TorchSoftmax:
        name = "torch-softmax"

        def softmax(self, x):
            return torch.nn.functional.softmax(x, dim=-1)


    class LogSumExp:
        name = "logsumexp-softmax"

        def softmax(self, x):
            return torch.exp(x - torch.logsumexp(x, dim=-1, keepdim=True))


    class OverQueries:
        """A faulty softmax: normalised over the wrong axis."""

        name = "softmax-wrong-axis"

        def softmax(self, x):
            return torch.softmax(x, dim=0)


    SOFTMAX = Topic(
        name="softmax",
        summary="exp(x) / Σ exp(x) over the last axis",
        arguments=("x",),
        inputs=lambda rng, d: (rng.uniform(-4.0, 4.0, (6, d)),),
        references={"numpy": reference, "torch": reference},
        value_cases={"scores up to 8": lambda: (np.random.default_rng(1).uniform(-8.0, 8.0, (5, 7)),)},
        rounding_scale=lambda dtype, x: float(x.shape[-1] + 4),
        implementations=(TorchSoftmax(), LogSumExp(), OverQueries()),
    )
'''
SOFTMAX_CLAIM = '''
    """Softmax rows sum to one."""
    import numpy as np

    from checks import Citation, Claim, given
    from mytopics import SOFTMAX

    claim = Claim(
        id="softmax.rows-sum-to-one",
        title="Each softmax row sums to one",
        statement="Σ_j softmax(x)_j = 1 for every row x.",
        sources=[
            Citation(
                title="Attention Is All You Need",
                authors="Vaswani et al.",
                year=2017,
                section="3.2.1",
                text="We compute the dot products of the query with all keys, divide each by √d_k, and apply a "
                "softmax function to obtain the weights on the values.",
                arxiv="1706.03762",
            )
        ],
        expect="holds",
    )


    @claim.check(uses="softmax")
    @given(inputs=SOFTMAX.strategy())
    def rows_sum_to_one(t, inputs):
        (x,) = inputs
        out = t.impl.softmax(t.xp.array(x))
        total = np.sum(t.xp.to_float64(out), axis=-1)
        t.close(total, np.ones_like(total), scale=float(x.shape[-1]), label="row sums")
'''


@pytest.mark.needs("torch")
def test_a_repositorys_own_topic_gets_its_matrix_and_finding_with_no_package_edit(installed, tmp_path):
    """A topic defined in a researcher's repository (softmax, three implementations, one faulty), named in its
    [tool.theory-claims]: the installed package runs the contract and the claim against each implementation."""
    repo = tmp_path / "research"
    (repo / "claims").mkdir(parents=True)
    (repo / "docs").mkdir()
    (repo / "mytopics.py").write_text(textwrap.dedent(TOPIC).lstrip(), encoding="utf-8")
    (repo / "claims" / "softmax_rows.py").write_text(textwrap.dedent(SOFTMAX_CLAIM).lstrip(), encoding="utf-8")
    (repo / "pyproject.toml").write_text(
        '[tool.theory-claims]\nclaims = "claims"\nsources = "docs"\nout = "site"\nprofile = "ci"\n'
        'topics = "mytopics:SOFTMAX"\n'
    )
    ran = _run([installed / "python", "-m", "pytest", "-q", "-p", "no:cacheprovider"], repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    results = read_results(repo / "site" / "results.json")
    (claim,) = results.claims
    assert str(claim.observed) == "holds"
    cells = {run.implementation: run.status for run in claim.of(Run) if (run.dtype, run.device) == ("float32", "cpu")}
    assert cells["torch-softmax"] == cells["logsumexp-softmax"] == "passed", cells
    assert cells["softmax-wrong-axis"] == "failed", cells
    contracts = {record.name: record for record in results.implementations}
    assert contracts["torch-softmax"].capabilities == ["softmax"]
    assert any(f.check == "values" for f in contracts["softmax-wrong-axis"].contract)
    assert not contracts["torch-softmax"].contract and not contracts["reference-numpy"].contract
    built = _run([installed / "theory-claims", "report", "--from", str(repo / "site" / "results.json")], repo)
    assert built.returncode == 0, built.stdout + built.stderr
    page = (repo / "site" / "implementations.html").read_text(encoding="utf-8")
    assert "softmax-wrong-axis" in page and "values" in page


@pytest.mark.needs("sos")
def test_pytest_in_a_researchers_repository_runs_its_claims_and_the_command_builds_its_site(installed, repository):
    package = Path(
        subprocess.run(
            [installed / "python", "-c", "import checks; print(checks.__file__)"],
            capture_output=True,
            text=True,
            check=True,
            cwd="/",
        ).stdout.strip()
    ).parents[1]
    before_package, before_checkout = _snapshot(package), _snapshot(ROOT / "checks")

    ran = _run([installed / "python", "-m", "pytest", "-q", "-p", "no:cacheprovider"], repository)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    results = read_results(repository / "site" / "results.json")
    assert {c.id: str(c.observed) for c in results.claims} == {
        "post.unit-circle": "proved",
        "post.bounded": "proved",
        "post.sine-repeats": "qualified",
    }
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repository, capture_output=True, text=True).stdout
    environment = results.environment
    assert (environment.commit, environment.repository) == (commit.strip(), str(repository.resolve()))
    assert environment.tool.startswith("theory-claims 0.")
    assert environment.hypothesis_profile == "ci", "the profile in [tool.theory-claims] is the run's"

    with_variable = _run(
        [
            installed / "python",
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--results",
            str(repository / "site" / "dev.json"),
        ],
        repository,
        THEORY_CLAIMS_PROFILE="dev",
    )
    assert with_variable.returncode == 0, with_variable.stdout
    assert read_results(repository / "site" / "dev.json").environment.hypothesis_profile == "dev"

    built = _run([installed / "theory-claims", "report"], repository)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "002_86fa32f25d4c4c54" not in built.stderr, built.stderr  # no lesson document of the tool's is read
    page = (repository / "site" / "claims" / "post.bounded.html").read_text(encoding="utf-8")
    assert "pytest claims_of_post/bounded.py -k post.bounded" in page
    assert "tox" not in page
    index = (repository / "site" / "index.html").read_text(encoding="utf-8")
    assert '<label for="fd-post">post ' in index
    document = (repository / "site" / "documents" / "post.html").read_text(encoding="utf-8")
    assert 'lang="en"' in document and "<code>docs/post.txt</code>" in document, "the document's own folder"

    listed = _run([installed / "theory-claims", "list"], repository)
    assert listed.returncode == 0 and "post.bounded" in listed.stdout, listed.stderr
    assert _snapshot(package) == before_package, "nothing is written into the installed package"
    assert _snapshot(ROOT / "checks") == before_checkout, "nothing is written into the tool's checkout"
    assert json.loads((repository / "site" / "coverage.json").read_text())


def test_init_then_new_then_pytest_pass_in_an_empty_folder(installed, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    draft = tmp_path / "post.txt"
    draft.write_text(DOCUMENT, encoding="utf-8")
    started = _run([installed / "theory-claims", "init", str(draft)], empty)
    assert started.returncode == 0, started.stdout + started.stderr
    assert "[tool.theory-claims]" in (empty / "pyproject.toml").read_text()
    assert (empty / "sources" / "post.txt").read_text(encoding="utf-8") == DOCUMENT
    added = _run(
        [
            installed / "theory-claims",
            "new",
            "post.shift-is-rotation",
            "--document",
            "post.txt",
            "--section",
            "## Relative positions",
            "--quote",
            "A shift by k positions is a rotation of each pair, see Fig. 2 of the paper.",
        ],
        empty,
    )
    assert added.returncode == 0, added.stdout + added.stderr
    assert (empty / "claims" / "post_shift_is_rotation.py").is_file()
    ran = _run([installed / "python", "-m", "pytest", "-q", "-p", "no:cacheprovider"], empty)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "2 passed" in ran.stdout
