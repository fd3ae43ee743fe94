"""``new``: an out-of-scope claim file quoting one sentence, written from templates/claim.py.txt."""

from __future__ import annotations

import json
import re
import unicodedata
from importlib.resources import files
from pathlib import Path
from string import Template

from checks.documents.sources import Quote, documents
from checks.results.files import write_text

LINE = 120
"""Line length of the project (pyproject.toml [tool.ruff]): generated files keep to it."""
TEMPLATE = Template(files("checks.engine").joinpath("templates/claim.py.txt").read_text(encoding="utf-8"))


class ScaffoldError(ValueError):
    """Why the claim file was not written, in one line."""


def claim_path(claim_id: str, claims_dir: Path) -> Path:
    """<claims_dir>/<id with '.' and '-' as '_'>.py"""
    return claims_dir / (re.sub(r"[.-]", "_", claim_id) + ".py")


def new_claim(
    claim_id: str, document: str, section: str, text: str, title: str, statement: str, claims_dir: Path
) -> Path:
    """Write the skeleton of claim ``claim_id`` quoting ``text`` under ``section`` of ``document`` (a name or a
    unique prefix of one); atomic, so a crash leaves no half-written file to block a retry."""
    from checks.claim import CLAIM_ID

    if not CLAIM_ID.fullmatch(claim_id):
        raise ScaffoldError(
            f"claim id {claim_id!r} must look like 'pe.constant-norm' (lowercase words joined by . and -)"
        )
    path = claim_path(claim_id, claims_dir)
    if path.exists():
        raise ScaffoldError(f"{path} exists already; choose another id or edit that file")
    elsewhere = _declared_ids(claims_dir).get(claim_id)
    if elsewhere:
        raise ScaffoldError(f"claim id {claim_id!r} is already declared in {elsewhere}")
    if not text.strip():
        raise ScaffoldError("--quote is empty: copy the sentence the claim checks, byte-exact from sources/")
    quote = Quote(_document(document), section, text)
    try:
        quote.verify()
    except ValueError as error:
        raise ScaffoldError(str(error)) from None
    source = skeleton(claim_id, title, statement, quote)
    try:
        source.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ScaffoldError(
            f"the claim file cannot be written as UTF-8 ({error.reason}: {error.object[error.start : error.end]!r}); "
            "check --title and --statement"
        ) from None
    write_text(path, source)
    return path


def skeleton(claim_id: str, title: str, statement: str, quote: Quote) -> str:
    """An out-of-scope claim file that passes as it is and says what to fill in (ruff-formatted as written)."""
    field, inner = " " * 8, " " * 16
    return TEMPLATE.substitute(
        docstring=_docstring(statement),
        document=_literal(quote.document, len("DOCUMENT = Document("), " " * 4),
        claim_id=_literal(claim_id, 4 + len("id="), field),
        title=_literal(title, 4 + len("title="), field),
        statement=_literal(statement, 4 + len("statement="), field),
        section=_literal(quote.section, 12, inner),
        quote=_literal(quote.text, 12, inner),
    )


def _declared_ids(claims_dir: Path) -> dict[str, str]:
    """Claim ids declared by the files in ``claims_dir`` (files that fail to load are left out)."""
    from checks.engine.discovery import claim_files, load_claims

    declared: dict[str, str] = {}
    for path in claim_files(claims_dir):
        try:
            declared.update({claim.id: str(path) for claim in load_claims(path)})
        except Exception:  # reported when the catalog runs
            continue
    return declared


def _document(name: str) -> str:
    """The document file name for a name or a unique prefix of it."""
    known = documents()
    matches = [d for d in known if d == name] or [d for d in known if d.startswith(name)]
    if len(matches) != 1:
        raise ScaffoldError(f"document {name!r} matches {len(matches)} of {known}")
    return matches[0]


def _width(text: str) -> int:
    """Columns as ruff counts them: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _docstring(statement: str) -> str:
    printable = " ".join("".join(c if c.isprintable() else " " for c in statement).split())
    text = printable.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    while _width(text) + 7 > LINE:
        text = text[:-2] + "…"
    return text[:-1] + '\\"' if text.endswith('"') else text


def _literal(text: str, column: int, indent: str) -> str:
    """A string literal in ruff's preferred quotes; split into implicitly joined parts past the line length."""
    whole = _quoted(text)
    if column + _width(whole) + 1 <= LINE:
        return whole
    width = LINE - len(indent) - 1
    parts, current = [], ""
    for word in re.split(r"(?<= )", text):
        if current and _width(_quoted(current + word)) > width:
            parts.append(current)
            current = ""
        current += word
    parts.append(current)
    joined = "\n".join(indent + _quoted(part) for part in parts)
    return f"(\n{joined}\n{indent[:-4]})"


def _quoted(text: str) -> str:
    body = json.dumps(text, ensure_ascii=False)[1:-1]
    if '"' in text and "'" not in text:
        return "'" + body.replace('\\"', '"') + "'"
    return f'"{body}"'


def table_text(sources: str = "") -> str:
    """The table ``init`` writes: every key of checks.settings.config.KEYS at its default (``sources`` where given),
    each under a comment saying what it is, so that the file says where things are (a key whose default is empty
    stays empty)."""
    from checks.settings import config

    values = {**config.KEYS, "sources": sources or config.KEYS["sources"]}
    values["sentences"] = f"{values['sources']}/sentences"
    lines = [f"[{config.TABLE}]"]
    for key, value in values.items():
        lines += [f"# {config.MEANINGS[key]}", f'{key} = "{value}"']
    return "\n".join(lines) + "\n"


IGNORED = (".hypothesis/", ".venv/")
"""What a run leaves in the repository besides the out folder (Hypothesis's example database), and the virtual
environment the setup of the README makes there."""


def ignore_outputs(root: Path, out: str) -> Path | None:
    """Add the out folder and IGNORED to ``root/.gitignore`` (created if missing), each line only if absent; returns
    the file when it wrote to it."""
    path = root / ".gitignore"
    existing = path.read_text(encoding="utf-8") if path.exists() else ""
    present = {line.strip().strip("/") for line in existing.splitlines()}
    missing = [line for line in (f"{out.strip('/')}/", *IGNORED) if line.strip("/") not in present]
    if not missing:
        return None
    head = existing if not existing or existing.endswith("\n") else existing + "\n"
    write_text(path, head + "# written by theory-claims init: what a run writes\n" + "\n".join(missing) + "\n")
    return path


def init_repository(root: Path, document: Path, claim_id: str = "") -> list[Path]:
    """Give the repository at ``root`` a ``[tool.theory-claims]`` table (appended to its pyproject.toml, or in a new
    one), a .gitignore for what runs write, and a first out-of-scope claim quoting the first sentence of ``document``.

    A document inside the repository is read where it is: a new table's ``sources`` is its folder. One from outside
    (or lying loose at the root) is copied into the sources folder. Nothing that exists is overwritten. Returns what
    was written."""
    from checks.documents.markup import format_of
    from checks.settings import config

    try:
        format_of(document.name)
        text = document.read_text(encoding="utf-8")
    except ValueError as error:
        raise ScaffoldError(str(error)) from None
    except (OSError, UnicodeDecodeError) as error:
        raise ScaffoldError(f"{document}: not a readable UTF-8 text file ({error})") from None
    folder = _folder_in(root, document)
    written: list[Path] = []
    pyproject = root / "pyproject.toml"
    existing = pyproject.read_text(encoding="utf-8") if pyproject.exists() else ""
    if "[tool.theory-claims]" not in existing:
        write_text(pyproject, existing.rstrip("\n") + ("\n\n" if existing else "") + table_text(folder))
        written.append(pyproject)
    settings = config.load(root)
    if ignored := ignore_outputs(root, settings.shown(settings.out)):
        written.append(ignored)
    settings.claims.mkdir(parents=True, exist_ok=True)
    if folder and document.resolve().parent != settings.sources.resolve():
        raise ScaffoldError(
            f"{document} lies in {folder}/, not in the sources folder {settings.shown(settings.sources)}/: set "
            f'sources = "{folder}" in [tool.theory-claims] of {pyproject}, or move it (it is never copied)'
        )
    if not folder:
        settings.sources.mkdir(parents=True, exist_ok=True)
        copy = settings.sources / document.name
        if not copy.exists():
            write_text(copy, text)
            written.append(copy)
        elif copy.read_text(encoding="utf-8") != text:
            raise ScaffoldError(f"{copy} exists and differs from {document}; remove one or rename the document")
    section, sentence = _first_sentence(text, document)
    config.use(root)
    claim = claim_id or "doc." + re.sub(r"[^a-z0-9]+", "-", document.stem.lower()).strip("-") + "-first-sentence"
    written.append(
        new_claim(
            claim, document.name, section, sentence, "TODO: a short title", "TODO: the statement.", settings.claims
        )
    )
    return written


def _folder_in(root: Path, document: Path) -> str:
    """The document's folder relative to ``root`` (POSIX), or "" for one outside the repository or at its root."""
    try:
        relative = document.resolve().parent.relative_to(root.resolve())
    except ValueError:
        return ""
    return relative.as_posix() if relative.parts else ""


def _first_sentence(text: str, document: Path) -> tuple[str, str]:
    """The first sentence of the document's prose that stands under a heading, and that heading (the nearest one
    above it; in plain text, the first short line whose section holds it)."""
    from checks.documents.coverage import sentence_spans
    from checks.documents.sources import headings, in_section, is_heading_line, section_of

    spans = sentence_spans(text, document.name)
    for start, end in spans:
        sentence = text[start:end]
        section = section_of(text, sentence, document.name)
        if section and not is_heading_line(sentence) and in_section(text, section, sentence, document.name):
            return section, sentence
    for heading in headings(text, document.name):
        for start, end in spans:
            sentence = text[start:end]
            if sentence.strip() != heading and in_section(text, heading, sentence, document.name):
                return heading, sentence
    raise ScaffoldError(f"{document}: found no heading line with a sentence under it to quote")
