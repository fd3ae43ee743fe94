"""A document's notation read from its formulas and symbol lists: what misleads a reader who follows the signs.

- a symbol list that does not describe the formula above it: a symbol of the formula the list leaves out, or a
  symbol the list describes that the formula does not contain (said with where else the document uses it);
- one letter with two kinds of meaning in one document: a number in one formula (inside sin, cos or exp) and a
  vector in another (transposed, or multiplied by a matrix), as ``k`` the shift and ``k`` the key;
- a subscript run into the next symbol in plain text (``ω_ik`` for ω_i·k), which a reader takes for one symbol;
- a direction word that contradicts the document's own for the same shift (``3칸 앞`` where PE(pos + k) is what
  the document elsewhere calls ``k칸 뒤``);
- a name whose subscript omits an index its value depends on (``\\underbrace{…\\omega_i k…}_{M_k}``);
- a function name without its backslash in LaTeX (``$PE(pos, 2i) = sin(…)$``), set as a product of italic letters;
- a capital letter applied to an argument (``R(m\\theta)\\,q``) that the document never defines: no formula says
  what it is and no sentence names it.

Each finding names its lines and says in English and Korean what the reader meets, with the lines as they could
read instead where the suite can write them (reports.errata makes them rows of severity notation).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from checks.written.conventions import counting
from checks.written.found import BARE_FUNCTIONS, Formula
from checks.written.operations import appended_sums
from checks.written.remarks import NotationFinding, Place, particle, sentence_around
from checks.written.tables import constant_columns

FUNCTIONS = frozenset({
    "sin", "cos", "tan", "exp", "log", "ln", "softmax", "max", "min", "argmax", "sqrt", "frac", "left", "right",
    "top", "mathrm", "text", "cdot", "big", "Big", "bigg", "sum", "prod", "begin", "end", "pmatrix", "bmatrix",
    "matrix", "underbrace", "overbrace", "approx", "times", "qquad", "quad", "operatorname", "mathbf",
    "boldsymbol", "dots", "ldots", "cdots", "vdots", "in", "le", "ge", "leq", "geq", "infty", "to", "pi", "mod",
    "PE", "Attention", "MultiHead", "Concat", "LayerNorm", "FFN", "ReLU", "det", "tr", "diag",
})  # fmt: skip
"""Names in a formula that are functions, operators or constants, not symbols a list describes."""
GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "zeta": "ζ", "eta": "η", "theta": "θ",
    "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "rho": "ρ", "sigma": "σ", "tau": "τ",
    "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
}  # fmt: skip
WRAPPED = re.compile(r"\\(?:text|mathrm|operatorname|mathbf|boldsymbol|mathit)\s*\{([^{}]*)\}")
SUBSCRIPT = re.compile(r"_\{([^{}]*)\}")
COMMAND = re.compile(r"\\([A-Za-z]+)")
TOKEN = re.compile(r"[A-Za-zα-ω]+(?:_[A-Za-z0-9α-ω]+)?")
SYMBOL = re.compile(r"(?:[A-Za-z]{1,3}|[α-ω])(?:_[A-Za-z0-9]+)?")
"""A symbol as a list names it: a letter or a short name ('pos'), with a subscript ('d_k', 'd_model', 'W_Q')."""
LIST_ITEM = re.compile(
    r"^(?P<prefix>\s*(?:[•·▪◦\-*]\s*)*)(?P<key>[^:：]{1,30}?)\s*(?P<colon>[:：])\s*(?P<meaning>\S.*)$"
)
WINDOW = 15
"""How many lines above a symbol list its formulas stand."""
TRIG_CALL = re.compile(r"\\(?:sin|cos|tan|exp)\s*(?:\\[!,;]\s*)?(?:\\left\s*)?\(")
TRANSPOSED = re.compile(r"(?<![A-Za-z\\])([a-z])\s*\^\s*(?:\{\s*)?(?:\\top|T|\\intercal)")
AFTER_TRANSPOSED = re.compile(r"\^\s*(?:\{\s*)?(?:\\top|T|\\intercal)\s*\}?\s*(?:\\[,;:!]\s*)*([a-z])(?![A-Za-z])")
MATRIX_TIMES = re.compile(r"(?<![A-Za-z\\])[A-Z]\([^()]*\)\s*(?:\\[,;:!]\s*)*([a-z])(?![A-Za-z])")
DIRECTION = re.compile(r"(\d+|[a-z]|몇)\s*칸\s*(앞|뒤)")
"""'k칸 뒤', '3칸 앞': how far and which way a Korean text moves along the positions."""
SHIFT = re.compile(r"pos\s*\+\s*k|M_k|M_\{k\}|k칸 이동|선형 변환")
"""What names the shift from pos to pos + k on a line."""
OPPOSITE = {"앞": "뒤", "뒤": "앞"}
RUN_ON = re.compile(r"(?<![A-Za-z\\{_$])([A-Za-zα-ω])_([A-Za-z])([A-Za-z])(?![A-Za-z0-9_{])")

MEANINGS = {
    "d_k": ("the dimension of queries and keys", "query·key 벡터의 차원 (점수를 √d_k로 나눔)"),
    "d_v": ("the dimension of the values", "value 벡터의 차원"),
    "d_model": ("the model's (embedding) dimension", "모델(임베딩) 차원"),
    "d": ("the embedding dimension", "임베딩 차원"),
    "pos": ("the token's position", "토큰의 위치"),
    "n": ("the sequence length (the number of tokens)", "시퀀스 길이(토큰 개수)"),
    "h": ("the number of heads", "헤드 수"),
    "Q": ("the queries", "query 행렬"),
    "K": ("the keys", "key 행렬"),
    "V": ("the values", "value 행렬"),
    "i": ("the index of a sin/cos pair", "sin·cos 쌍의 번호"),
    "k": ("the offset, in positions", "위치 차이(칸 수)"),
}  # fmt: skip
"""What the usual symbols of the Transformer's formulas mean: the line a symbol list is given for a symbol it
leaves out (no line is written for a symbol not here)."""


def symbols(formula: str) -> set[str]:
    """The symbols a formula's text uses (``d_{\\text{model}}`` → ``d_model``, ``QK^\\top`` → Q, K), without its
    functions, operators and numbers; Greek letters as letters (``\\omega_i`` → ``ω_i``)."""
    text = formula
    while WRAPPED.search(text):
        text = WRAPPED.sub(lambda m: f" {m.group(1)}", text)
    text = SUBSCRIPT.sub(lambda m: "_" + re.sub(r"[^A-Za-z0-9α-ω]", "", _greek(m.group(1))), text)
    text = _greek(text)
    text = COMMAND.sub(" ", text)
    found: set[str] = set()
    for match in TOKEN.finditer(text):
        token = match.group(0)
        called = text[match.end() : match.end() + 1] == "("
        if token in FUNCTIONS or (called and len(token) > 1 and "_" not in token):
            continue
        if "_" not in token and len(token) > 1 and token.isupper():
            found.update(token)  # 'QK' is Q times K
        else:
            found.add(token)
    return {s for s in found if s not in FUNCTIONS}


def _greek(text: str) -> str:
    return re.sub(r"\\(" + "|".join(GREEK) + r")(?![A-Za-z])", lambda m: GREEK[m.group(1)], text)


def findings(text: str, formulas: list[Formula]) -> list[NotationFinding]:
    """Every notation finding of a document, in line order."""
    lines = text.splitlines()
    found = [*_symbol_lists(lines, formulas), *_meanings(formulas), *_run_on_subscripts(lines, formulas)]
    found += _bare_functions(formulas) + _directions(lines) + _omitted_indices(lines, formulas)
    found += _backward_moves(lines) + _ordinal_positions(text, lines) + _dimension_levels(lines)
    bold = {v for f in found for p in f.places for v in re.findall(r"\\mathbf\{([a-z])\}", p.wording)}  # as bolded
    found += _undefined_operators(lines, formulas, bold) + appended_sums(lines) + constant_columns(lines)
    return sorted(found, key=lambda finding: finding.places[0].line)


@dataclass(frozen=True)
class _Item:
    """One line of a symbol list: where it stands, how it is written (its list mark and separator), what it names."""

    line: int
    prefix: str
    separator: str
    names: tuple[str, ...]


def _list_item(line: str, number: int) -> _Item | None:
    match = LIST_ITEM.match(line)
    if not match:
        return None
    key = match.group("key").strip()
    bare = re.sub(r"\$|\\[()]", " ", key)
    names = tuple(sorted(symbols(part)) for part in bare.split(",") if part.strip())
    if not names or any(len(n) != 1 or not SYMBOL.fullmatch(n[0]) for n in names):
        return None
    if not all(re.fullmatch(r"\s*(?:\$[^$]+\$|\\\(.+?\\\)|[A-Za-z_{}\\ ]+)\s*", part) for part in key.split(",")):
        return None
    separator = line[match.end("key") : match.end("colon")]
    return _Item(number, match.group("prefix"), separator + " ", tuple(n[0] for n in names))


def _symbol_lists(lines: list[str], formulas: list[Formula]) -> list[NotationFinding]:
    """Symbol lists (two or more consecutive 'symbol: meaning' lines) against the formulas just above them."""
    runs: list[list[_Item]] = []
    for number, line in enumerate(lines, 1):
        if item := _list_item(line, number):
            if runs and runs[-1][-1].line == number - 1:
                runs[-1].append(item)
            else:
                runs.append([item])
    found, previous_end = [], 0
    for run in (run for run in runs if len(run) >= 2):
        first, last = run[0].line, run[-1].line
        above = [f for f in formulas if max(first - WINDOW, previous_end) <= f.line < first]
        previous_end = last
        needed = set().union(*(_explained(f.correction or f.text) for f in above)) if above else set()
        used = set().union(*(symbols(f.correction or f.text) for f in above)) if above else set()
        described = {name for item in run for name in item.names}
        if not used or not used & described:
            continue
        missing = sorted(needed - described - _bound(above))
        extra = sorted(described - used)
        if missing or extra:
            found.append(_list_finding(lines, run, above, missing, extra))
    return found


def _explained(formula: str) -> set[str]:
    """The symbols a list under the formula should describe: all but those only its left side names (the quantity
    it defines, ``y`` of ``y = W x + b``; ``Attention(Q, K, V)``'s Q, K, V are on its right side too)."""
    _, equals, right = formula.strip("$").partition("=")
    return symbols(right if equals else formula)


def _bound(formulas: list[Formula]) -> set[str]:
    """Summation indices (``\\sum_{i=0}``): bound in their formula, described by no list."""
    return {m for f in formulas for m in re.findall(r"\\sum_\{?([A-Za-z])", f.text)}


def _list_finding(
    lines: list[str], run: list[_Item], formulas: list[Formula], missing: list[str], extra: list[str]
) -> NotationFinding:
    first, last = run[0].line, run[-1].line
    at = ", ".join(str(line) for line in sorted({f.line for f in formulas}))
    elsewhere = {
        name: _used_at(lines, name, {item.line for item in run} | {f.line for f in formulas}) for name in extra
    }
    added = [f"{run[-1].prefix}{name}{run[-1].separator}{MEANINGS[name][1]}" for name in missing if name in MEANINGS]
    kept = [
        _kept(lines[item.line - 1], item, elsewhere)
        for item in run
        if not any(n in extra and not elsewhere[n] for n in item.names)
    ]
    wording = "\n".join(kept + added) if len(added) == len(missing) else ""
    english, korean = [f"The symbol list (lines {first}–{last}) describes the formula on line(s) {at}, but"], []
    korean_parts = []
    if missing:
        english.append(f"leaves out {', '.join(missing)}, which the formula uses")
        korean_parts.append(f"식에 있는 {', '.join(missing)}{particle(missing[-1], '은는')} 설명하지 않")
    for name in extra:
        where = elsewhere[name]
        english.append(
            f"describes {name}, which the formula does not contain"
            + (f" (the document uses it on line {where[0]}: '{where[1]}')" if where else " and the document never uses")
        )
        korean_parts.append(
            f"식에 없는 {name}{particle(name, '을를')} 설명합니다"
            + (
                f"({name}{particle(name, '은는')} {where[0]}행 '{where[1]}'에서 쓰입니다)"
                if where
                else "(문서 어디에도 쓰이지 않습니다)"
            )
        )
        korean_parts[-1] = (
            korean_parts[-1].replace("설명합니다", "설명하고", 1) if name != extra[-1] else korean_parts[-1]
        )
    said = [part + ("고" if part.endswith("않") else "") for part in korean_parts[:-1]]
    said.append(korean_parts[-1] + ("습니다" if korean_parts[-1].endswith("않") else ""))
    korean.append(f"{first}–{last}행의 기호 설명은 {at}행의 식을 설명하지만, " + ", ".join(said) + ".")
    span = "\n".join(lines[first - 1 : last])
    return NotationFinding(
        "symbol list",
        (Place(first, span, wording),),
        " ".join(english[:1]) + " " + "; ".join(english[1:]) + ".",
        " ".join(korean),
        min(f.line for f in formulas),
    )


def _kept(line: str, item: _Item, elsewhere: dict[str, tuple[int, str] | None]) -> str:
    """A list line kept as it is, unless it describes one symbol the formula lacks and the document uses elsewhere:
    that line says where, with the symbol's usual meaning where there is one (``n : 시퀀스 길이(토큰 개수), 아래
    O(n²)의 n``)."""
    (name,) = item.names if len(item.names) == 1 else (None,)
    where = elsewhere.get(name) if name else None
    if where is None:
        return line
    meaning = MEANINGS[name][1] if name in MEANINGS else line.split(item.separator.strip(), 1)[1].strip()
    direction = "아래" if where[0] > item.line else "위"
    return f"{item.prefix}{name}{item.separator}{meaning}, {direction} {where[1]}의 {name}"


def _used_at(lines: list[str], name: str, skip: set[int]) -> tuple[int, str] | None:
    """The first line outside ``skip`` that uses ``name`` as a symbol, with the math around it."""
    pattern = re.compile(rf"(?<![A-Za-z_\\]){re.escape(name)}(?![A-Za-z_])")
    for number, line in enumerate(lines, 1):
        if number in skip:
            continue
        for match in pattern.finditer(line):
            around = re.search(r"[A-Za-z]*\([^()]*$", line[: match.start()])
            if around or re.match(r"[²³^/·+\-−)]", line[match.end() : match.end() + 1]):
                start = around.start() if around else match.start()
                end = line.find(")", match.end())
                return number, line[start : end + 1 if end >= 0 else match.end()].strip()
    return None


def _two_kinds(formulas: list[Formula]) -> list[NotationFinding]:
    """A letter that is a number in one formula (inside sin, cos, exp) and a vector in another."""
    number: dict[str, list[Formula]] = {}
    vector: dict[str, list[Formula]] = {}
    for formula in formulas:
        for name in _in_trig_arguments(formula.text):
            number.setdefault(name, []).append(formula)
        for name in {m.group(1) for m in _vector_evidence(formula.text)}:
            vector.setdefault(name, []).append(formula)
    found = []
    for name in sorted(number.keys() & vector.keys()):
        as_number = sorted({f.line for f in number[name]})
        as_vector = vector[name]
        vectors = sorted({m.group(1) for f in as_vector for m in _vector_evidence(f.text)})
        places = tuple(
            Place(f.line, f.span, _bold(f.span, vectors))
            for f in formulas
            if f.line > as_number[-1] and any(_mentions(f.text, v) for v in vectors)
        )
        lines_number = ", ".join(map(str, as_number))
        lines_vector = ", ".join(str(f.line) for f in as_vector)
        bold = ", ".join(_bold_letters(v) for v in vectors)
        found.append(
            NotationFinding(
                "two meanings",
                places,
                f"{name} is a number on line(s) {lines_number} (inside sin/cos: the offset) and a vector on line(s) "
                f"{lines_vector} (transposed or multiplied by a matrix): one letter, two meanings. Setting the "
                f"vectors in bold ({bold}) tells them apart.",
                f"{name}{_subject(name)} 두 가지 뜻으로 쓰입니다. "
                f"{lines_number}행에서는 sin·cos 안에 들어가는 수(위치 차이)이고, {lines_vector}행에서는 벡터"
                f"(전치되거나 행렬이 곱해지는 쪽)입니다. 벡터를 굵은 글씨({bold})로 쓰면 둘이 구분됩니다.",
                as_vector[0].line,
                vectors=tuple(vectors),
            )
        )
    return found


DEFINED = re.compile(r"^\s*\$*\s*(\\[a-z]+|[a-z])\s*=\s*([^=]+?)\s*\$*\s*$")
"""A formula that defines one symbol (``\\theta = \\omega_i \\cdot pos``)."""


def _meanings(formulas: list[Formula]) -> list[NotationFinding]:
    """One letter with two meanings, said once for all such letters: rewriting a formula for one keeps the other's
    rewriting (``k`` set in bold and ``θ`` replaced, in the same formula)."""
    found = _two_kinds(formulas) + _angle_as_rate(formulas)
    if not found:
        return []
    spans = sorted({(place.line, place.text) for finding in found for place in finding.places})
    places = []
    for line, span in spans:
        wording = span
        for finding in found:
            wording = _rewritten(finding, wording)  # a symbol it does not name is left as it is
        places.append(Place(line, span, wording))
    return [
        NotationFinding(
            "two meanings",
            tuple(places),
            " ".join(f.english for f in found),
            " ".join(f.korean for f in found),
            min(f.formula_line for f in found),
        )
    ]


def _rewritten(finding: NotationFinding, span: str) -> str:
    """``span`` as ``finding`` rewrites it (its symbols in bold, or one symbol replaced by another)."""
    if finding.rewrite:
        old, new = finding.rewrite
        return re.sub(rf"{re.escape(old)}(?![A-Za-z])", lambda _: new, span)
    return _bold(span, finding.vectors)


def _angle_as_rate(formulas: list[Formula]) -> list[NotationFinding]:
    """A symbol defined as an angle that grows with the position (``θ = ω_i·pos``) and later multiplied by a
    position (``R(mθ)``): there it is an angle per position, the role of ω_i, and read as defined it brings pos back
    into the formula."""
    found = []
    for formula in formulas:
        match = DEFINED.match(formula.text)
        if not match or "pos" not in match.group(2):
            continue
        name, value = match.group(1), match.group(2)
        rate = value.replace("pos", "").replace("\\cdot", "").replace("·", "").strip(" *")
        used = [
            f
            for f in formulas
            if f.line > formula.line and re.search(rf"\(\s*(?!pos)[a-z]\s*{re.escape(name)}(?![A-Za-z])", f.text)
        ]
        if not used or not rate:
            continue
        shown, rate_shown = _plain(name), _plain(rate)
        lines_used = ", ".join(str(f.line) for f in used)
        found.append(
            NotationFinding(
                "two meanings",
                tuple(Place(f.line, f.span, "") for f in used),
                f"{shown} is defined on line {formula.line} as {_plain(value)}, an angle that grows with pos, but on "
                f"line(s) {lines_used} it multiplies a position ({shown} per position, the role of {rate_shown}): read "
                f"as defined, pos comes back into the formula. Writing {rate_shown} there keeps the two apart.",
                f"{shown}{_subject(shown)} {formula.line}행에서는 {_plain(value)}, 곧 pos에 따라 커지는 각도로 "
                f"정의되는데, {lines_used}행에서는 위치에 곱해지는 한 칸당 각도({rate_shown}의 역할)로 쓰입니다. "
                f"정의대로 읽으면 식에 pos가 다시 들어갑니다. 그 자리에 {rate_shown}{particle(rate_shown, '을를')} "
                "쓰면 둘이 구분됩니다.",
                used[0].line,
                rewrite=(name, rate),
            )
        )
    return found


def _plain(latex: str) -> str:
    """A short formula as a reader's text shows it: Greek letters as letters, \\cdot as ·, braces dropped."""
    text = _greek(latex).replace("\\cdot", "·")
    return re.sub(r"\s+", " ", re.sub(r"[{}\\]", "", text)).strip()


def _bold_letters(name: str) -> str:
    """A name in mathematical bold letters (𝐤), as a plain text can show a bold vector."""
    return "".join(
        chr(0x1D41A + ord(c) - ord("a"))
        if "a" <= c <= "z"
        else chr(0x1D400 + ord(c) - ord("A"))
        if "A" <= c <= "Z"
        else c
        for c in name
    )


def _subject(word: str) -> str:
    return "이" if particle(word, "은는") == "은" else "가"


def _mentions(formula: str, name: str) -> bool:
    return bool(re.search(rf"(?<![A-Za-z\\]){re.escape(name)}(?![A-Za-z])", formula))


def _bold(span: str, names: Iterable[str]) -> str:
    """The span with each of ``names`` set in bold (``\\mathbf{k}``) wherever it stands as a symbol."""
    for name in names:
        span = re.sub(rf"(?<![A-Za-z\\{{]){re.escape(name)}(?![A-Za-z}}])", rf"\\mathbf{{{name}}}", span)
    return span


def _vector_evidence(text: str) -> list[re.Match[str]]:
    r"""Where a letter stands as a vector: transposed (``q^\top``), after a transposed one (``q^\top k``), or
    multiplied by a matrix-valued function (``R(n\theta)\,k``)."""
    return [*TRANSPOSED.finditer(text), *AFTER_TRANSPOSED.finditer(text), *MATRIX_TIMES.finditer(text)]


def _in_trig_arguments(text: str) -> set[str]:
    """The single letters inside the parentheses of sin, cos, tan or exp."""
    found: set[str] = set()
    for match in TRIG_CALL.finditer(text):
        depth, end = 1, match.end()
        while end < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        found |= {s for s in symbols(text[match.end() : end - 1]) if len(s) == 1 and s.isascii()}
    return found


def _run_on_subscripts(lines: list[str], formulas: list[Formula]) -> list[NotationFinding]:
    """``ω_ik`` in plain text where the formulas use ``ω_i`` and ``k``: a subscript run into the next symbol."""
    known = set().union(*(symbols(f.text) for f in formulas)) if formulas else set()
    found = []
    for number, line in enumerate(lines, 1):
        outside = re.sub(r"\$[^$]*\$", lambda m: " " * len(m.group(0)), line)
        for match in RUN_ON.finditer(outside):
            base, first, second = match.groups()
            if f"{base}_{first}" in known and second in known and f"{base}_{first}{second}" not in known:
                written, meant = match.group(0), f"{base}_{first}·{second}"
                found.append(
                    NotationFinding(
                        "run-on subscript",
                        (Place(number, line.strip(), line.strip().replace(written, meant)),),
                        f"'{written}' reads as {base} with the subscript {first}{second}; meant is {base}_{first} "
                        f"times {second} ({meant}), as the formulas write {base}_{first} and {second}.",
                        f"'{written}'는 {base}에 아래첨자 {first}{second}가 붙은 한 기호로 읽힙니다. 뜻은 "
                        f"{base}_{first}와 {second}의 곱({meant})입니다.",
                    )
                )
    return found


def _bare_functions(formulas: list[Formula]) -> list[NotationFinding]:
    """LaTeX formulas that write sin, cos, exp … without a backslash where the same document writes them with one
    (its own typography says what it means; a paper that never writes the backslash is consistent): one finding."""
    latex = [f for f in formulas if f.latex and not f.problems]
    commanded = {name for f in latex for name in re.findall(r"\\(sin|cos|tan|exp|log)(?![A-Za-z])", f.text)}
    bare = [f for f in latex if {m.group(1) for m in BARE_FUNCTIONS.finditer(f.text)} & commanded]
    if not bare:
        return []
    names = sorted({m.group(1) for f in bare for m in BARE_FUNCTIONS.finditer(f.text)} & commanded)
    shown = ", ".join(names)
    commands = ", ".join(f"\\{name}" for name in names)
    return [
        NotationFinding(
            "bare function",
            tuple(Place(f.line, f.span, BARE_FUNCTIONS.sub(r"\\\1", f.span)) for f in bare),
            f"{shown} without a backslash is set as a product of italic letters ({'·'.join(names[0])}), where the "
            f"document's other formulas write {commands}: the same function in two typefaces.",
            f"수식 안의 {shown}에 백슬래시가 없어 기울어진 글자 {'·'.join(names[0])}의 곱처럼 조판됩니다. 같은 문서의 "
            f"다른 식은 {commands}{'으로' if names[-1][-1] in 'mn' else '로'} 써서 함수 이름이 바로 서 있으므로, 같은 "
            "함수가 두 가지 모양으로 보입니다.",
            bare[0].line,
        )
    ]


def _directions(lines: list[str]) -> list[NotationFinding]:
    """A direction word for the shift to pos + k that the document's other words for it contradict: the majority
    direction is the document's; a line naming the shift (pos + k, M_k) with the other one is a finding."""
    said = [(n, m) for n, line in enumerate(lines, 1) for m in DIRECTION.finditer(line)]
    counts = {way: sum(1 for _, m in said if m.group(2) == way) for way in OPPOSITE}
    usual = max(counts, key=lambda way: counts[way])
    if counts[usual] <= counts[OPPOSITE[usual]]:
        return []
    found = []
    for number, match in said:
        if match.group(2) == usual or not SHIFT.search(lines[number - 1]):
            continue
        others = ", ".join(str(n) for n, m in said if m.group(2) == usual)
        line = lines[number - 1]
        sentence = sentence_around(line, match.start())
        meant = sentence.replace(match.group(0), match.group(0)[: -len(match.group(2))] + usual, 1)
        found.append(
            NotationFinding(
                "direction",
                (Place(number, sentence, meant),),
                f"'{match.group(0)}' on a line about the shift to pos + k, which the document calls "
                f"'… 칸 {usual}' on line(s) {others}: the same move, the opposite word.",
                f"'{match.group(0)}'{particle(match.group(0), '은는')} pos에서 pos + k로 가는 이동을 말하는데, "
                f"이 문서는 같은 이동을 {others}행에서 "
                f"'칸 {usual}'라고 부릅니다. 같은 이동에 반대 방향의 말을 쓰면 독자는 k의 부호를 헷갈립니다.",
            )
        )
    return found


LEVEL = re.compile(r"(낮은|높은) 차원(?!\s*(?:공간|벡터|데이터|임베딩))")
"""'낮은 차원' for the dimensions of small index: Korean reads it as low-dimensional (저차원)."""
BY_INDEX = {"낮은": "번호가 작은", "높은": "번호가 큰"}
ABOUT_FREQUENCIES = re.compile(r"sin|cos|주파수|주기|frequenc|변하", re.IGNORECASE)


def _dimension_levels(lines: list[str]) -> list[NotationFinding]:
    """'낮은/높은 차원' on lines about the frequencies of the dimensions: meant as the dimensions' index (i small or
    large), read as low- or high-dimensional; the wording says which dimensions by their place."""
    places = [
        Place(
            number,
            sentence_around(line, match.start()),
            sentence_around(line, match.start()).replace(match.group(0), f"{BY_INDEX[match.group(1)]} 차원", 1),
        )
        for number, line in enumerate(lines, 1)
        if ABOUT_FREQUENCIES.search(line)
        for match in LEVEL.finditer(line)
    ]
    if not places:
        return []
    return [
        NotationFinding(
            "dimension level",
            tuple(places),
            "'낮은/높은 차원' means the dimensions of small or large index here, but reads in Korean as "
            "low- or high-dimensional.",
            "'낮은/높은 차원'은 여기서 번호가 작은/큰 차원을 뜻하지만, '저차원/고차원'으로 읽힙니다. 차원의 "
            "번호로 말하면 헷갈리지 않습니다.",
        )
    ]


BACKWARD = re.compile(r"((?:\d+|[a-z]|몇)\s*칸\s*뒤)로(\s*가[가-힣]*)")
"""'k칸 뒤로 가기': in a document where 'k칸 뒤' is pos + k, '뒤로 가다' still reads as going back."""


def _backward_moves(lines: list[str]) -> list[NotationFinding]:
    """'k칸 뒤로 가' in a document whose word for pos + k is 'k칸 뒤': the phrase reads as moving back (to an earlier
    position), the opposite of the move it names; '뒤 위치로' says which way."""
    said = [m.group(2) for line in lines for m in DIRECTION.finditer(line)]
    if said.count("뒤") <= said.count("앞"):
        return []
    found = []
    for number, line in enumerate(lines, 1):
        for match in BACKWARD.finditer(line):
            sentence = sentence_around(line, match.start())
            meant = sentence.replace(match.group(0), f"{match.group(1)} 위치로{match.group(2)}", 1)
            found.append(
                NotationFinding(
                    "backward move",
                    (Place(number, sentence, meant),),
                    f"'{match.group(0)}' reads as going back (to an earlier position), though the document's "
                    f"'{match.group(1)}' is pos + k, a later one.",
                    f"'{match.group(0)}'{particle(match.group(0), '은는')} '뒤로 간다', 곧 앞 위치로 돌아간다는 "
                    f"뜻으로도 읽힙니다. 이 문서에서 '{match.group(1)}'{particle(match.group(1), '은는')} "
                    "pos + k(다음 위치)이므로 '뒤 위치로'라고 쓰면 방향이 분명해집니다.",
                )
            )
    return found


ORDINAL_POSITION = re.compile(r"(\d+)번째 위치(?=[^\n]*\(\s*\1\s*,)")
"""'513번째 위치의 PE(513, i)': an ordinal whose number is also the formula's pos (a bare '2번째 위치' is an
ordinary Korean ordinal)."""
"""'2번째 위치': the second word, or position 2, in a document that numbers positions from 0."""


def _ordinal_positions(text: str, lines: list[str]) -> list[NotationFinding]:
    """An ordinal position whose number the same line gives a formula as its pos ('513번째 위치의 PE(513, i)') in a
    document that numbers positions from 0: the N-th position is pos N − 1; the wording passes N − 1 to the formula."""
    counted = counting("", text)
    if counted is None or counted.first != 0:
        return []
    found = []
    for number, line in enumerate(lines, 1):
        for match in ORDINAL_POSITION.finditer(line):
            nth = int(match.group(1))
            sentence = sentence_around(line, match.start())
            at = sentence.find(match.group(0)) + len(match.group(0))
            argument = re.compile(rf"\(\s*{nth}\s*,")
            meant = sentence[:at] + argument.sub(f"({nth - 1},", sentence[at:], count=1)
            found.append(
                NotationFinding(
                    "ordinal position",
                    (Place(number, sentence, meant),),
                    f"'{match.group(0)}' is pos {nth - 1} in a document that numbers positions from 0 (line "
                    f"{counted.line}), but the formula beside it is given pos {nth}.",
                    f"이 문서는 위치를 0부터 셉니다({counted.line}행). 그래서 '{match.group(0)}'는 "
                    f"pos = {nth - 1}인데, 바로 옆 식에는 pos = {nth}가 들어가 있습니다.",
                )
            )
    return found


NAMED = re.compile(r"\\underbrace\{(?P<body>.+?)\}_\{\s*(?P<name>[A-Za-z])_(?P<sub>[a-z]|\{[a-z,]+\})")
"""A value named under a brace: ``\\underbrace{…}_{M_k …}``."""
INDEXED = re.compile(r"(?:\\[a-z]+|[A-Za-z])_(?:\{([a-z])\}|([a-z]))(?![A-Za-z])")


def _indices_omitted(match: re.Match[str]) -> list[str]:
    """The indices a value named under a brace varies with that its name leaves out (``M_k`` over ``ω_i k``: i)."""
    named = set(match.group("sub").strip("{}").split(","))
    body = _balanced(match.string, match.start("body"))
    return sorted({a or b for a, b in INDEXED.findall(body)} - named)


def _part_of(lines: list[str], line: int) -> str:
    """The numbered part a line stands in, as its reader names it ('5절'); empty where the parts are not numbered."""
    for above in range(line, 0, -1):
        if numbered := re.match(r"\s*(\d+)\.\s+\S", lines[above - 1]):
            return f"{numbered.group(1)}절"
    return ""


def _omitted_indices(lines: list[str], formulas: list[Formula]) -> list[NotationFinding]:
    """A value named with the indices it varies with, less one: ``M_k`` over a matrix of ``ω_i k`` varies with i."""
    found = []
    for formula in formulas:
        for match in NAMED.finditer(formula.text):
            omitted = _indices_omitted(match)
            if not omitted:
                continue
            body = _balanced(formula.text, match.start("body"))
            name = f"{match.group('name')}_{match.group('sub').strip('{}')}"
            index = omitted[0]
            symbol = _plain(next(m.group(0) for m in INDEXED.finditer(body) if index in m.groups()))
            indexed = f"{name}^{{({index})}}"
            wording = formula.span.replace(f"_{{{name}", f"_{{{indexed}", 1)
            places = [Place(formula.line, formula.span, wording)]
            if said := _sentence_naming(lines[formula.line - 1], formula.span, name):
                whole = f"모든 {index}의 {name}^({index})를 대각선에 모은 블록 대각 행렬이 {name}이며, "
                places.append(Place(formula.line, said, whole + said))
            found.append(
                NotationFinding(
                    "omitted index",
                    tuple(places),
                    f"the matrix named {name} holds {symbol} (its values differ for every {index}), "
                    f"but its name has no {index}: write {name}^({index}), or say that {name} gathers the blocks of "
                    f"every {index}, for '{name} depends on {match.group('sub').strip('{}')} alone' to hold.",
                    f"{name}라고 이름 붙인 행렬에는 {symbol}{particle(symbol, '이가')} 들어 있어 {index}마다 값이 "
                    f"다른데, 이름에는 {index}가 없습니다. {name}^({index})처럼 {index}를 "
                    f"이름에 넣거나, {name}가 모든 {index}의 블록을 대각선에 모은 행렬이라고 밝혀야 '{name}는 "
                    f"{match.group('sub').strip('{}')}에만 달려 있다'가 정확합니다.",
                    formula.line,
                )
            )
    return found


def _sentence_naming(line: str, span: str, name: str) -> str:
    """The first sentence after ``span`` on its line that names ``name`` (a note run on after a display formula)."""
    after = line[line.find(span) + len(span) :] if span in line else ""
    for sentence in re.split(r"(?<=[.?!])\s+", after.strip()):
        if re.search(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z^])", sentence):
            return sentence
    return ""


def _balanced(text: str, start: int) -> str:
    """The text of a brace group that opens just before ``start``, up to its matching close."""
    depth, end = 1, start
    while end < len(text) and depth:
        depth += {"{": 1, "}": -1}.get(text[end], 0)
        end += 1
    return text[start : end - 1]


APPLIED = re.compile(r"(?<![A-Za-z\\])([A-Z])\s*(?:\\(?:big|Big|bigg|Bigg|left)\s*)?\(")
"""A capital letter applied to an argument: ``R(m\\theta)``, ``R\\big((n-m)\\theta\\big)``."""
LANDAU = frozenset("O")
"""Capital letters whose application every reader knows without a definition (O(n²))."""
KNOWN_OPERATORS = {
    ("회전", "rotat"): (
        "a 2×2 rotation by the angle in its argument",
        r"$R(\alpha)=\begin{pmatrix}\cos\alpha & -\sin\alpha\\ \sin\alpha & \cos\alpha\end{pmatrix}$는 "
        r"2차원 벡터를 각도 $\alpha$만큼 돌리는 회전 행렬",
        r"the matrix that rotates a 2-vector by the angle $\alpha$, "
        r"$R(\alpha)=\begin{pmatrix}\cos\alpha & -\sin\alpha\\ \sin\alpha & \cos\alpha\end{pmatrix}$",
    ),
}
"""What an undefined operator is, read from the words of the sentence it stands in: the definition a wording adds."""


def _undefined_operators(lines: list[str], formulas: list[Formula], bold: set[str]) -> list[NotationFinding]:
    """A capital letter applied to an argument in a formula that no formula defines (``R(x) = …`` with no R on
    its right side) and no sentence outside the formulas names: the reader meets a symbol with no meaning."""
    first: dict[str, Formula] = {}
    for formula in sorted(formulas, key=lambda f: f.line):
        for letter in APPLIED.findall(formula.text):
            first.setdefault(letter, formula)
    found = []
    for letter, formula in first.items():
        if letter in LANDAU or _defines(formulas, letter) or _named(lines, letter):
            continue
        line = lines[formula.line - 1]
        known = next((v for keys, v in KNOWN_OPERATORS.items() if any(k in line.lower() for k in keys)), None)
        after = line[line.find(formula.span) + len(formula.span) :].strip() if formula.span in line else ""
        places: tuple[Place, ...] = ()
        if known:
            added = _definition(letter, known, formula, lines, bold)
            if after:
                sentence = sentence_around(after, 0)
                places = (Place(formula.line, sentence, f"{added} {sentence}"),)
            else:
                places = (Place(formula.line, formula.span, f"{formula.span} {added}"),)
        else:
            places = (Place(formula.line, formula.span),)
        meaning_en = f" (from its sentence: {known[0]})" if known else ""
        fix = "처음 쓰는 곳에 그 정의를 덧붙였습니다." if known else "처음 쓰는 곳에서 무엇인지 정의해 주세요."
        found.append(
            NotationFinding(
                "undefined operator",
                places,
                f"{letter}(·) is applied in the formula on line {formula.line} but defined nowhere in the document"
                f"{meaning_en}: the reader cannot tell what {letter} does to its argument.",
                f"{formula.line}행의 식에 쓰인 {letter}(·){particle(letter, '은는')} 문서 어디에도 정의되어 있지 "
                f"않아, 독자는 {letter}{particle(letter, '이가')} 어떤 행렬(함수)인지 알 수 없습니다. {fix}",
                formula.line,
            )
        )
    return found


def _definition(letter: str, known: tuple[str, str, str], formula: Formula, lines: list[str], bold: set[str]) -> str:
    """The sentence that defines an operator, in the language of its line; for a rotation applied to vectors in a
    paragraph about pairs (RoPE's 2-dimensional pairs), it says the vectors stand for one pair."""
    line = lines[formula.line - 1]
    korean = bool(re.search("[가-힣]", line))
    meaning = known[1 if korean else 2].replace("R(", letter + "(")
    if "회전" in known[1] and (own := _own_rotation(lines)):
        sign, at, name = own  # the document's own rotation has -sin in its second row: write R the same way
        if sign:
            meaning = meaning.replace(
                "\\cos\\alpha & -\\sin\\alpha\\\\ \\sin\\alpha", "\\cos\\alpha & \\sin\\alpha\\\\ -\\sin\\alpha"
            )
        part = _part_of(lines, at)  # readers see sections, not line numbers
        shown = f"${name}$" if name else ("앞의 회전 행렬" if korean else "the rotation matrix above")
        where = f"{part}의 " if part and name else ""
        joined = particle(name or "행렬", "과와")
        same = f"{where}{shown}{joined} 같은 꼴" if korean else f"the form of {shown}" + (f" in {part}" if part else "")
        meaning = meaning.replace("$는 ", f"$({same})는 ", 1) if korean else f"{meaning} ({same})"
        if sign and korean and "시계 방향" in "\n".join(lines):  # (cos, sin; −sin, cos): the document's clockwise
            meaning = meaning.replace("각도 $\\alpha$만큼", "시계 방향으로 각도 $\\alpha$만큼", 1)
    found = [m.group(1) for m in MATRIX_TIMES.finditer(formula.text) if m.group(0).startswith(letter)]
    operands = list(dict.fromkeys(found))
    paragraph = " ".join(lines[max(0, formula.line - 3) : formula.line])
    pairs = bool(operands) and bool(re.search(r"쌍|\bpairs?\b", paragraph))
    named = ", ".join(f"$\\mathbf{{{o}}}$" if o in bold else f"${o}$" for o in operands)
    if not pairs:
        return f"여기서 {meaning}입니다." if korean else f"Here {letter}(·) is {meaning}."
    if korean:
        return (
            f"여기서 {meaning}이고, 식의 {named}{particle(operands[-1], '은는')} 2차원 쌍 하나입니다"
            "(벡터 전체의 점수는 모든 쌍의 점수를 더한 값입니다)."
        )
    return (
        f"Here {letter}(·) is {meaning}; {named} stand for one 2-dimensional pair "
        "(the whole vectors' score sums over the pairs)."
    )


ROTATION = re.compile(
    r"\\begin\{pmatrix\}\s*\\cos\s*\(?[^&]*&\s*(-?)\s*\\sin[^\\]*(?:\\[a-z]+[^\\]*)*?\\\\\s*-?\s*\\sin[^&]*&\s*\\cos"
)
"""A 2×2 rotation written out: cos, ±sin over ∓sin, cos (group 1: the first row's sign before sin)."""


def _own_rotation(lines: list[str]) -> tuple[bool, int, str] | None:
    """The document's own 2×2 rotation matrix: whether its first row reads (cos, +sin), the line it stands on and
    the name it is given under a brace (``M_k``), if it writes one out."""
    for number, line in enumerate(lines, 1):
        match = ROTATION.search(line)
        if match:
            named = NAMED.search(line)
            name = named.group("name") + "_" + named.group("sub").strip("{}") if named else ""
            if named and _indices_omitted(named):  # the name the omitted-index finding gives it (M_k^{(i)})
                name += "^{(" + ",".join(_indices_omitted(named)) + ")}"
            return match.group(1) != "-", number, name
    return None


NAMING = re.compile(r"여기서|이란|란 |는 |은 |: |\bwhere\b|\bdenotes?\b|\bis (?:the|a|an)\b|\bbe the\b", re.IGNORECASE)
"""Words with which a sentence says what a symbol is ('여기서 R(θ)는 …', 'where R is the rotation matrix')."""


def _named(lines: list[str], letter: str) -> bool:
    """Whether a sentence names ``letter``: the letter outside the formulas, or in a short inline formula of a
    sentence that says what it is ('where $R(\\theta)$ is the rotation matrix')."""
    for line in lines:
        outside = re.sub(r"\$\$.*?\$\$|\$[^$]*\$", " ", line)
        if _mentions(outside, letter):
            return True
        for inline in re.findall(r"(?<!\$)\$([^$]{1,30})\$(?!\$)", line):
            if _mentions(inline, letter) and "=" not in inline and NAMING.search(outside):
                return True
    return False


def _defines(formulas: list[Formula], letter: str) -> bool:
    """Whether a formula defines ``letter``: ``R(x) = …`` or ``R = …`` with no ``R`` on its right side."""
    for formula in formulas:
        left, equals, right = formula.text.partition("=")
        if equals and re.fullmatch(rf"\s*{letter}\s*(?:\(.*\))?\s*", left) and not _mentions(right, letter):
            return True
    return False
