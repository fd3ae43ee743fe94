"""Issue 28's cases, one test each where tests/test_package.py does not already show them end to end: the
settings of a repository, the command acting on it, English sentences and sections, products of numbers in
MathML."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from checks.documents.segmentation import sentence_spans
from checks.documents.sources import Quote, in_section, section_of
from checks.engine.cli import main
from checks.settings import config

ROOT = Path(__file__).resolve().parent.parent
POST = """\
# Sinusoidal encodings

Vaswani et al. (2017) add sines and cosines, e.g. sin(pos/10000). See Fig. 2 for the heatmap. It is bounded!

## Relative positions

A shift by k is a rotation. The value 1.5 stays whole.
"""


@pytest.fixture
def research(tmp_path, monkeypatch) -> Iterator[Path]:
    """A researcher's repository with claims in claims_of_post/ and its document in docs/: the working directory
    and the repository whose settings are current, with no THEORY_CLAIMS_* variable set."""
    for name in [*config.VARIABLES.values(), "THEORY_CLAIMS_ROOT"]:
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "post.txt").write_text(POST, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.theory-claims]\nclaims = "claims_of_post"\nsources = "docs"\nout = "site"\nprofile = "ci"\n'
    )
    monkeypatch.chdir(tmp_path)
    earlier = config.chosen()
    config.use(tmp_path)
    yield tmp_path
    config.restore(earlier)


# Settings: the table, the command line, the variables (case 2)


def test_the_table_sets_every_path_relative_to_the_root_and_the_sentences_follow_the_sources(research):
    settings = config.load()
    assert settings.root == research.resolve() and settings.configured
    assert (settings.claims, settings.sources, settings.out) == (
        research / "claims_of_post",
        research / "docs",
        research / "site",
    )
    assert settings.sentences == research / "docs" / "sentences"
    assert settings.results == research / "site" / "results.json" and settings.profile == "ci"


def test_the_command_line_overrides_the_table_and_a_variable_overrides_both(research, monkeypatch):
    assert config.load(options={"profile": "dev"}).profile == "dev"
    monkeypatch.setenv("THEORY_CLAIMS_PROFILE", "thorough")
    assert config.load(options={"profile": "dev"}).profile == "thorough"


def test_the_root_is_found_from_a_folder_inside_the_repository(research):
    inner = research / "claims_of_post" / "deeper"
    inner.mkdir(parents=True)
    assert config.find_root(inner) == research.resolve()


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('claim = "x"', "unknown setting(s) claim; the settings are claims, sources"),
        ("claims = 3", "claims must be a non-empty string"),
        ('profile = "fast"', "profile 'fast' (from [tool.theory-claims] of"),
        ("claims = ", "is not valid TOML"),
    ],
)
def test_a_wrong_setting_is_one_line_naming_it_and_where_to_set_it(research, table, message, capsys):
    (research / "pyproject.toml").write_text(f"[tool.theory-claims]\n{table}\n")
    with pytest.raises(config.ConfigError, match=re.escape(message)):
        config.load()
    assert main(["list"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: ") and error.count("\n") == 1 and "Traceback" not in error


def test_the_plugin_is_a_pytest11_entry_point_and_the_command_a_console_script():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["pytest11"] == {"theory-claims": "checks.engine.plugin"}
    assert project["scripts"] == {"theory-claims": "checks.engine.cli:main"}


# The command acts on the repository it runs in (case 3)


def test_new_writes_into_the_repositorys_claims_folder_and_sentences_counts_its_document(research, capsys):
    assert (
        main(
            [
                "new",
                "post.rotation",
                "--document",
                "post",
                "--section",
                "## Relative positions",
                "--quote",
                "A shift by k is a rotation.",
            ]
        )
        == 0
    )
    assert (research / "claims_of_post" / "post_rotation.py").is_file()
    capsys.readouterr()
    main(["sentences"])
    out = capsys.readouterr().out
    assert "post.txt: total 7, checked 0, out-of-scope 1" in out, out


def test_the_settings_are_in_each_commands_help(capsys):
    with pytest.raises(SystemExit):
        main(["new", "--help"])
    text = capsys.readouterr().out
    assert "--claims-dir" in text and "--sources-dir" in text and "[tool.theory-claims]" in text


# A missing document says where documents are set (case 5)


def test_a_quote_of_a_document_not_in_the_sources_folder_names_the_setting(research):
    with pytest.raises(FileNotFoundError, match=r"set sources = '…' in \[tool.theory-claims\]"):
        Quote("missing.txt", "# A", "text").verify()


# English sentences, sections, MathML (case 7)


def test_english_sentences_are_not_split_at_abbreviations():
    sentences = [POST[a:b] for a, b in sentence_spans(POST, "en")]
    assert sentences == [
        "# Sinusoidal encodings",
        "Vaswani et al. (2017) add sines and cosines, e.g. sin(pos/10000).",
        "See Fig. 2 for the heatmap.",
        "It is bounded!",
        "## Relative positions",
        "A shift by k is a rotation.",
        "The value 1.5 stays whole.",
    ]


def test_the_lesson_documents_keep_the_rule_their_classes_were_written_against():
    text = (ROOT / "sources" / "002_86fa32f25d4c4c54.txt").read_text(encoding="utf-8")
    korean = [text[a:b] for a, b in sentence_spans(text, "en")]  # Hangul: the configured language does not apply
    assert korean == [text[a:b] for a, b in sentence_spans(text, "ko")]
    assert "1. 어텐션은 순서를 모른다" in korean


def test_a_quote_under_a_heading_it_does_not_stand_under_is_refused(research):
    assert in_section(POST, "## Relative positions", "A shift by k is a rotation.")
    assert not in_section(POST, "## Relative positions", "It is bounded!")
    assert section_of(POST, "It is bounded!") == "# Sinusoidal encodings"
    with pytest.raises(ValueError, match="not under the heading '## Relative positions'; it stands under '# Sin"):
        Quote("post.txt", "## Relative positions", "It is bounded!").verify()
    Quote("post.txt", "# Sinusoidal encodings", "A shift by k is a rotation.").verify()  # a subsection's sentence


def test_numbered_sections_end_at_the_next_number_of_their_depth():
    text = textwrap.dedent("""\
        1. First
        one.
        1.1 Inner
        inner.
        2. Second
        two.
    """)
    assert in_section(text, "1. First", "inner.") and not in_section(text, "1. First", "two.")
    assert not in_section(text, "1.1 Inner", "two.")


def test_a_run_that_finds_no_claim_files_says_where_it_looked(pytester, monkeypatch):
    """Case 4: claims kept in a folder the settings do not name: one line naming the folder and the setting."""
    monkeypatch.delenv("THEORY_CLAIMS_CLAIMS", raising=False)
    pytester.makepyprojecttoml('[tool.theory-claims]\nclaims = "claims"\n')
    (pytester.mkdir("my_claims") / "one.py").write_text("from checks import Claim\n")
    outcome = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "checks.engine.plugin")
    said = outcome.stdout.str()
    assert (
        f"theory-claims: no claim files in {pytester.path / 'claims'}; set claims = '…' in [tool.theory-claims]" in said
    )


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('topics = "nosuch:TOPIC"', "topic 'nosuch:TOPIC': importing nosuch raised ModuleNotFoundError"),
        ('topics = "json:dumps"', "topic 'json:dumps': json:dumps is not a Topic or a sequence of Topics"),
        ('implementations = "json"', "implementations 'json': expected module:NAME"),
    ],
)
def test_a_wrong_topic_or_implementation_spec_is_one_line_naming_it(research, table, message):
    """A repository's topics and implementations are loaded before any claim: a wrong one stops the run with one
    line naming the spec, never a traceback."""
    (research / "pyproject.toml").write_text(f'[tool.theory-claims]\nclaims = "claims_of_post"\n{table}\n')
    (research / "claims_of_post").mkdir()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "checks.engine.plugin",
            "claims_of_post",
        ],
        cwd=research,
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in os.environ.items() if not k.startswith("THEORY_CLAIMS_")} | {"PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 4, done.stdout + done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_init_writes_every_key_and_a_gitignore_and_overwrites_nothing(tmp_path, monkeypatch):
    """Issue 45: init left out evidence and language and wrote no .gitignore for the out folder and .hypothesis/.
    A second init (another document) keeps the table as the researcher edited it and adds no line twice."""
    for name in [*config.VARIABLES.values(), "THEORY_CLAIMS_ROOT"]:
        monkeypatch.delenv(name, raising=False)
    repository = tmp_path / "repo"
    repository.mkdir()
    (repository / ".gitignore").write_text("*.pyc", encoding="utf-8")  # the researcher's own, no final newline
    (tmp_path / "post.txt").write_text(POST, encoding="utf-8")
    monkeypatch.chdir(repository)
    earlier = config.chosen()
    try:
        assert main(["init", str(tmp_path / "post.txt")]) == 0
        table = tomllib.loads((repository / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["theory-claims"]
        assert set(table) == set(config.KEYS)
        assert table["evidence"] == "reports/evidence" and table["language"] == "en"
        assert config.load(repository).sentences == repository / "sources" / "sentences"
        assert (repository / ".gitignore").read_text(encoding="utf-8").splitlines() == [
            "*.pyc",
            "# written by theory-claims init: what a run writes",
            "reports/html/",
            ".hypothesis/",
            ".venv/",
        ]
        pyproject = (repository / "pyproject.toml").read_text(encoding="utf-8").replace('"dev"', '"ci"')
        (repository / "pyproject.toml").write_text(pyproject, encoding="utf-8")
        (tmp_path / "other.txt").write_text(POST.replace("Sinusoidal", "Other"), encoding="utf-8")
        assert main(["init", str(tmp_path / "other.txt")]) == 0
        assert (repository / "pyproject.toml").read_text(encoding="utf-8") == pyproject
        assert (repository / ".gitignore").read_text(encoding="utf-8").count("reports/html/") == 1
    finally:
        config.restore(earlier)


def test_a_single_capital_letter_ends_a_sentence_before_a_word_that_starts_one():
    """Issue 45: "matrix Q. The keys" in plain letters was one sentence (nupunkt takes "Q." for an initial); an
    initial before a name stays inside its sentence."""
    text = (
        "In practice, we pack them into a matrix Q. The keys and values are packed into matrices K and V. We compute "
        "the outputs. J. Smith and A. Vaswani wrote it."
    )
    assert [text[a:b] for a, b in sentence_spans(text, "en")] == [
        "In practice, we pack them into a matrix Q.",
        "The keys and values are packed into matrices K and V.",
        "We compute the outputs.",
        "J. Smith and A. Vaswani wrote it.",
    ]


ATTENTION_CLAIM = """
import numpy as np

from checks import Claim, Document, given
from checks.topics import topic

ATTENTION = topic("attention")
claim = Claim(
    id="post.attention",
    title="Attention computes its definition",
    statement="attention(x, W_Q, W_K, W_V) = softmax(x W_Q (x W_K)ᵀ / √d_k) x W_V.",
    sources=[Document("paper.md").quote("Attention", "Each output is a weighted sum of the values.")],
    expect="holds",
)


@claim.check(uses="attention")
@given(inputs=ATTENTION.strategy())
def as_defined(t, inputs):
    x, *weights = (t.xp.array(a) for a in inputs)
    expected = ATTENTION.references["numpy"](*(t.xp.to_float64(a) for a in (x, *weights)))
    t.close_attention(t.impl.attention(x, *weights), expected, x, weights, label="outputs")
"""
PAPER = "# A paper\n\n## Attention\n\nEach output is a weighted sum of the values. We use $h = 8$ heads.\n"
FOREIGN = [
    "Korean",
    "lesson",
    "catalog",
    "sandbox",
    "rope",
    "sinusoidal",
    "RoPE",
    "layer_norm",
    "objective",
    "demo",
    "checks.engine",
    "tox",
    "##",
]
"""Words of this repository's lessons and tooling that a page of another repository must not hold."""


def test_a_repositorys_pages_speak_only_of_itself(pytester, monkeypatch):
    """Issue 61, item 5: in a repository whose claims examine attention alone, no page names the lessons, this
    repository's tooling or another topic (no RoPE chart, no norm contract, no sandbox line, no mutation command),
    and the document shows no raw heading markers."""
    from reports.build import build_site

    for name in [*config.VARIABLES.values(), "THEORY_CLAIMS_ROOT"]:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("THEORY_CLAIMS_THIRD_PARTY", "0")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    pytester.makepyprojecttoml('[tool.theory-claims]\nclaims = "claims"\nsources = "docs"\nprofile = "dev"\n')
    pytester.mkdir("docs").joinpath("paper.md").write_text(PAPER, encoding="utf-8")
    pytester.mkdir("claims").joinpath("attention.py").write_text(ATTENTION_CLAIM, encoding="utf-8")
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    outcome = pytester.runpytest_subprocess("claims", "-p", "no:cacheprovider")  # its own modules, as a user's run
    outcome.assert_outcomes(passed=1)
    earlier = config.chosen()
    try:
        config.use(pytester.path)
        build_site(
            [pytester.path / "reports" / "html" / "results.json"],
            pytester.path / "site",
            say=lambda _: None,
        )
    finally:
        config.restore(earlier)
    found = {}
    for page in (pytester.path / "site").rglob("*.html"):
        text = re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8"))
        for word in FOREIGN:
            if seen := re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text):
                at = seen.start()
                found.setdefault(f"{page.name}: {word}", " ".join(text[max(0, at - 60) : at + 60].split()))
    assert not found, found


@pytest.mark.parametrize("command", ["", "init", "new", "list", "sentences", "flake", "compare", "diff"])
def test_the_commands_help_speaks_only_of_the_repository(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"] if command else ["--help"])
    said = capsys.readouterr().out
    assert not [w for w in [*FOREIGN, "pe.", "d_model"] if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", said)], said


def test_new_help_shows_the_folders_the_repository_configured(research, capsys):
    """Issue 61: `new --help` showed the built-in defaults (sources), not the repository's (docs)."""
    with pytest.raises(SystemExit):
        main(["new", "--help"])
    said = capsys.readouterr().out
    assert "(here: docs)" in said and "(here: claims_of_post)" in said and "(here: site)" in said
