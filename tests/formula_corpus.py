r"""Real documents about Transformers with every formula labelled by hand, for the formula checker's false-alarm test.

``tests/formula_corpus/`` holds seven verbatim excerpts of public texts that this project did not write and the
checker was not built on: Markdown with ``$...$``/``$$...$$`` math (a notebook's Markdown cells, a Hugo blog post,
two GitHub documentation pages), Markdown whose math is plain text and Unicode, and two files of the LaTeX source of
"Attention Is All You Need". Each file's first line names its source (repository, path, commit, lines); the only
changes are the ones that line states (the notebook's "# " prefixes removed and its code cells left out; cutting to
the excerpt). Nothing is invented and nothing is corrected: the real mistakes are kept. The files were taken with git
from the repositories' public snapshots; the formulas were listed with a small span scanner, then read and judged one
by one.

A label is one formula: ``line`` is the 1-based line of the file on which it starts, ``formula`` the text exactly as
written (delimiters included, line ends as "\n"), ``broken`` empty when the document's reader sees the formula as the
author meant it, else what the reader meets. What counts as a formula:

- every delimited math span (``$...$``, ``$$...$$``) and every LaTeX math environment (``equation``, ``align*``,
  from ``\begin`` to ``\end``, as one formula);
- every plain-text math expression in prose: assignments ("d_model = 512", "B=8"), expressions ("1/√d_k",
  "2\*3\*4=24"), symbols a sentence uses as variables ("B is the batch size", "W^Q"); not quantities with units
  ("45 degrees", "100k steps"), citations ("[12, 13]"), "1D"/"3-dimensional", or "C" the programming language;
- not code blocks, inline code in backticks, URLs, and not LaTeX inside ``%`` comments (the compiled paper never
  shows it; an environment that contains a comment line is labelled with that line in it).

Each formula is judged for the reader the document was written for, after that document's own Markdown layer:

- annotated_transformer.md: Jupyter and the rendered notebook, MathJax; Markdown does not touch the math.
- rotary_embeddings.md: the EleutherAI blog, Hugo/Goldmark then MathJax 3. Goldmark consumes CommonMark backslash
  escapes inside ``$...$`` (its passthrough covers only ``\[...\]``), so the author writes ``\\\\`` for a row break
  and ``\_`` for ``_``: correct. Where that layer eats a command's backslash the formula is broken (one case).
- alibi_mask.md, layernorm_llmc.md, aiayn_plaintext_notes.md: GitHub. ppl.pmx writes ``\\_`` for an underscore in
  math, which GitHub hands MathJax as ``\_``: correct (see the comment at its first label).
- the two .tex files: the compiled paper, whose preamble (ms.tex) defines ``\dmodel``; the files are ``\input``
  sections and use it without defining it: correct.
- function names written without a backslash (``sin``, ``cos``, ``log`` in the paper's source) print as italic
  letters and read as the functions, as in the published paper: correct, with a comment.

Of 239 formulas, 2 are labelled broken: ppl.pmx's ALiBi formula ``\{softmax}\left(...\right)`` (an extra close brace;
fixed upstream afterwards) and the rotation matrix of the RoPE post whose ``\\\sin`` loses the backslash of ``\sin``
to Goldmark. A comment sits above every label whose judgement is in doubt.
"""

from __future__ import annotations

from typing import NamedTuple


class Label(NamedTuple):
    document: str
    """File name in tests/formula_corpus/."""
    line: int
    """The 1-based line on which the formula starts."""
    formula: str
    """The formula exactly as written, delimiters included; for plain-text math the span as written."""
    broken: str = ""
    """Empty when a reader sees it as the author meant; else, in a few words, what a reader meets."""
    doubtful: bool = False
    """The judgement depends on a renderer the document does not name (broken for one reader, right for another):
    the checker may say nothing of it."""


DOCUMENTS: dict[str, str] = {
    "annotated_transformer.md": (
        "The Annotated Transformer (harvardnlp/annotated-transformer, the_annotated_transformer.py @ debc9fd7), "
        "Markdown cells of sections 3.2-3.5: attention, multi-head attention, FFN, embeddings, positional encoding"
    ),
    "rotary_embeddings.md": (
        "Rotary Embeddings: A Relative Revolution (EleutherAI/website, content-blog/rotary-embeddings.md @ a4e41834), "
        "TL;DR to the comparison with sinusoidal embeddings: RoPE derivation in Hugo Markdown"
    ),
    "alibi_mask.md": (
        "ALiBiMask operator (OpenPPL/ppl.pmx, docs/operators/ALiBiMask.md @ f82184bc, before the fix 7eaa0779), "
        "whole file: the ALiBi formula and tensor shapes, GitHub Markdown"
    ),
    "layernorm_llmc.md": (
        "layernorm tutorial (karpathy/llm.c, doc/layernorm/layernorm.md @ f1e2ace6), lines 37-120: the LayerNorm "
        "formula and shapes in prose, GitHub Markdown"
    ),
    "aiayn_plaintext_notes.md": (
        "Attention Is All You Need, condensed with plain-text/Unicode math (trironkk/tinyterp, "
        "raw/llm-from-scratch/2017-06-12-attention-is-all-you-need.md @ 40fa5624), whole file"
    ),
    "aiayn_model_architecture.tex": (
        "Attention Is All You Need, arXiv LaTeX source (HowardZorn/AttentionIsAllYouNeedCN, model_architecture.tex "
        "@ d151da24), lines 24-155: sections 3.2-3.5"
    ),
    "aiayn_why_self_attention.tex": (
        "Attention Is All You Need, arXiv LaTeX source (HowardZorn/AttentionIsAllYouNeedCN, why_self_attention.tex "
        "@ d151da24), whole file: section 4 and Table 1"
    ),
}
"""Each document of the corpus, with a one-line description of its source."""

LABELS: list[Label] = [
    # ---- annotated_transformer.md ----
    Label("annotated_transformer.md", 11, "$d_k$"),
    Label("annotated_transformer.md", 12, "$d_v$"),
    Label("annotated_transformer.md", 13, r"$\sqrt{d_k}$"),
    Label("annotated_transformer.md", 22, "$Q$"),
    Label("annotated_transformer.md", 23, "$K$"),
    Label("annotated_transformer.md", 23, "$V$"),
    # The notebook's Markdown cells are read in Jupyter and on the rendered site, both with MathJax.
    Label(
        "annotated_transformer.md",
        26,
        "$$"
        "\n"
        r"   \mathrm{Attention}(Q, K, V) = \mathrm{softmax}(\frac{QK^T}{\sqrt{d_k}})V"
        "\n"
        "$$",
    ),
    Label("annotated_transformer.md", 35, r"$\frac{1}{\sqrt{d_k}}$"),
    Label("annotated_transformer.md", 43, "$d_k$"),
    Label("annotated_transformer.md", 45, "$d_k$"),
    Label("annotated_transformer.md", 47, "$d_k$"),
    Label("annotated_transformer.md", 50, "$q$"),
    Label("annotated_transformer.md", 50, "$k$"),
    Label("annotated_transformer.md", 51, "$0$"),
    Label("annotated_transformer.md", 51, "$1$"),
    Label("annotated_transformer.md", 52, r"$q \cdot k = \sum_{i=1}^{d_k} q_ik_i$"),
    Label("annotated_transformer.md", 52, "$0$"),
    Label("annotated_transformer.md", 53, "$d_k$"),
    Label("annotated_transformer.md", 54, r"$\frac{1}{\sqrt{d_k}}$"),
    # A top-level `\\` inside $$...$$ (no aligned environment): MathJax and KaTeX accept it (a line break, or
    # nothing); the formula renders either way.
    Label(
        "annotated_transformer.md",
        65,
        "$$"
        "\n"
        r"\mathrm{MultiHead}(Q, K, V) ="
        "\n"
        "    \\mathrm{Concat}(\\mathrm{head_1}, ..., \\mathrm{head_h})W^O \\\\"
        "\n"
        r"    \text{where}~\mathrm{head_i} = \mathrm{Attention}(QW^Q_i, KW^K_i, VW^V_i)"
        "\n"
        "$$",
    ),
    Label(
        "annotated_transformer.md",
        71,
        r"$W^Q_i \in"
        "\n"
        r"\mathbb{R}^{d_{\text{model}} \times d_k}$",
    ),
    Label(
        "annotated_transformer.md",
        72,
        r"$W^K_i \in"
        "\n"
        r"\mathbb{R}^{d_{\text{model}} \times d_k}$",
    ),
    Label(
        "annotated_transformer.md",
        73,
        r"$W^V_i \in"
        "\n"
        r"\mathbb{R}^{d_{\text{model}} \times d_v}$",
    ),
    Label(
        "annotated_transformer.md",
        74,
        r"$W^O \in"
        "\n"
        r"\mathbb{R}^{hd_v \times d_{\text{model}}}$",
    ),
    Label("annotated_transformer.md", 77, "$h=8$"),
    Label("annotated_transformer.md", 78, r"$d_k=d_v=d_{\text{model}}/h=64$"),
    Label("annotated_transformer.md", 106, r"$-\infty$"),
    Label("annotated_transformer.md", 117, r"$$\mathrm{FFN}(x)=\max(0, xW_1 + b_1) W_2 + b_2$$"),
    Label("annotated_transformer.md", 123, r"$d_{\text{model}}=512$"),
    Label("annotated_transformer.md", 124, "$d_{ff}=2048$"),
    Label("annotated_transformer.md", 130, r"$d_{\text{model}}$"),
    Label("annotated_transformer.md", 136, r"$\sqrt{d_{\text{model}}}$"),
    Label("annotated_transformer.md", 146, r"$d_{\text{model}}$"),
    Label("annotated_transformer.md", 152, r"$$PE_{(pos,2i)} = \sin(pos / 10000^{2i/d_{\text{model}}})$$"),
    Label("annotated_transformer.md", 154, r"$$PE_{(pos,2i+1)} = \cos(pos / 10000^{2i/d_{\text{model}}})$$"),
    Label("annotated_transformer.md", 156, "$pos$"),
    Label("annotated_transformer.md", 156, "$i$"),
    Label("annotated_transformer.md", 158, r"$2\pi$"),
    Label(
        "annotated_transformer.md",
        158,
        r"$10000 \cdot"
        "\n"
        r"2\pi$",
    ),
    Label("annotated_transformer.md", 161, "$k$"),
    Label("annotated_transformer.md", 161, "$PE_{pos+k}$"),
    Label("annotated_transformer.md", 162, "$PE_{pos}$"),
    Label("annotated_transformer.md", 166, "$P_{drop}=0.1$"),
    # ---- rotary_embeddings.md ----
    Label("rotary_embeddings.md", 10, r"$N \times N$"),
    Label("rotary_embeddings.md", 20, r"$f(\mathbf{x}, \ell)$"),
    Label("rotary_embeddings.md", 20, r"$\mathbf{x}$"),
    Label("rotary_embeddings.md", 20, r"$\ell$"),
    Label("rotary_embeddings.md", 20, r"$\mathbf{q}$"),
    Label("rotary_embeddings.md", 20, r"$\mathbf{k}$"),
    Label("rotary_embeddings.md", 20, "$m$"),
    Label("rotary_embeddings.md", 20, "$n$"),
    Label("rotary_embeddings.md", 20, r"$f(\mathbf{q}, m)$"),
    Label("rotary_embeddings.md", 20, r"$f(\mathbf{k}, n)$"),
    Label("rotary_embeddings.md", 20, r"$\mathbf{q}$"),
    Label("rotary_embeddings.md", 20, r"$\mathbf{k}$"),
    Label("rotary_embeddings.md", 20, "$m-n$"),
    Label(
        "rotary_embeddings.md",
        20,
        r"$\mathbf{q} \cdot \mathbf{k} = \lVert \mathbf{q} \rVert \lVert \mathbf{k} \rVert "
        r"\cos(\theta_{qk})$",
    ),
    Label("rotary_embeddings.md", 25, r"$0 < \varepsilon \leq \frac \pi {2N}$"),
    Label("rotary_embeddings.md", 25, "$N$"),
    Label("rotary_embeddings.md", 25, r"$\mathbf{q}$"),
    Label("rotary_embeddings.md", 25, r"$\mathbf{k}$"),
    Label("rotary_embeddings.md", 25, "$j$"),
    # The blog is Markdown for Hugo/Goldmark, which consumes backslash escapes inside $...$ before MathJax 3 reads the
    # page (config-blog.toml passes through only \[...\]): `\\\\` reaches MathJax as the row break `\\`, `\_` as `_`.
    # An align environment inside $$ is accepted by MathJax.
    Label(
        "rotary_embeddings.md",
        27,
        "$$"
        "\n"
        r"\begin{align}"
        "\n"
        "    \\mathrm{RoPE}(x, m) &= xe^{mi\\varepsilon} \\\\\\\\"
        "\n"
        r"    \langle \mathrm{RoPE}(q_j, m), \mathrm{RoPE}(k_j, n)\rangle &= \langle q_j "
        "e^{mi\\varepsilon}, k_j e^{ni\\varepsilon} \\rangle \\\\\\\\"
        "\n"
        "    &= q_j k_j e^{mi\\varepsilon} \\overline{e^{ni\\varepsilon}} \\\\\\\\"
        "\n"
        "    &= q_j k_j e^{(m - n)i\\varepsilon} \\\\\\\\"
        "\n"
        r"    &= \mathrm{RoPE}(q_j k_j, m - n)"
        "\n"
        r"\end{align}"
        "\n"
        "$$",
    ),
    Label("rotary_embeddings.md", 58, r"$\mathbb{R}^d$"),
    Label("rotary_embeddings.md", 58, r"$\mathbb{C}^{d/2}$"),
    Label("rotary_embeddings.md", 58, r"$\mathbf{q}=(q_1,q_2,q_3,q_4,\ldots,q_{d})$"),
    Label("rotary_embeddings.md", 58, "$d$"),
    Label("rotary_embeddings.md", 58, r"$\mathbf{q}=(q_1+iq_2, q_3+iq_4,\ldots q_{d-1} + iq_{d})\in\mathbb{C}^{d/2}$"),
    Label("rotary_embeddings.md", 58, "$d$"),
    Label("rotary_embeddings.md", 58, "$d$"),
    Label("rotary_embeddings.md", 60, r"$\mathbf{q}$"),
    Label("rotary_embeddings.md", 60, r"$\mathbf{k}$"),
    Label("rotary_embeddings.md", 60, "$m$"),
    Label("rotary_embeddings.md", 60, "$n$"),
    Label("rotary_embeddings.md", 60, r"$f(\mathbf{x}, \ell)$"),
    Label("rotary_embeddings.md", 60, r"$\mathbf{x}$"),
    Label("rotary_embeddings.md", 60, r"$\ell$"),
    Label("rotary_embeddings.md", 60, "$f$"),
    # `\label` under MathJax 3's default tags 'none' is accepted and produces no number.
    Label(
        "rotary_embeddings.md",
        62,
        r"$$\label{fg}\langle f(\mathbf{q}, m),f(\mathbf{k},n) \rangle = g(\mathbf{q}, \mathbf{k}, m "
        "- n)$$",
    ),
    Label("rotary_embeddings.md", 64, r"$g(\mathbf{q},\mathbf{k},m-n)$"),
    Label(
        "rotary_embeddings.md",
        66,
        "$$"
        "\n"
        r"\begin{align*}"
        "\n"
        "    f(\\mathbf{q}, m) &= R_f(\\mathbf{q}, m)e^{i\\Theta_f(\\mathbf{q}, m)}\\\\\\\\"
        "\n"
        "    f(\\mathbf{k}, n) &= R_f(\\mathbf{k}, n)e^{i\\Theta_f(\\mathbf{k}, n)}\\\\\\\\"
        "\n"
        r"    g(\mathbf{q}, \mathbf{k}, m - n) &= R_g(\mathbf{q}, \mathbf{k}, m - "
        r"n)e^{i\Theta_g(\mathbf{q}, \mathbf{k}, m - n)}"
        "\n"
        r"\end{align*}"
        "\n"
        "$$",
    ),
    # The last row ends with a row break before \end{align*}: an empty last row, nothing visible.
    Label(
        "rotary_embeddings.md",
        76,
        "$$"
        "\n"
        r"\begin{align*}"
        "\n"
        "    R_f(\\mathbf{q}, m) R_f(\\mathbf{k}, n) &= R_g(\\mathbf{q}, \\mathbf{k}, m - n)\\\\\\\\"
        "\n"
        r"    \Theta_f(\mathbf{q}, m) - \Theta_f(\mathbf{k}, n) &= \Theta_g(\mathbf{q}, \mathbf{k}, m "
        "- n)\\\\\\\\"
        "\n"
        r"\end{align*}"
        "\n"
        "$$",
    ),
    Label("rotary_embeddings.md", 83, "$m=n$"),
    Label("rotary_embeddings.md", 83, r"$f(\mathbf{x}, 0) = \mathbf{x}$"),
    Label(
        "rotary_embeddings.md",
        85,
        r"$$R_f(\mathbf{q}, m) R_f(\mathbf{k}, m) = R_g(\mathbf{q}, \mathbf{k}, 0) = R_f(\mathbf{q}, "
        r"0) R_f(\mathbf{k}, 0) = \mathbf{q}\mathbf{k}$$",
    ),
    Label("rotary_embeddings.md", 87, "$m$"),
    Label("rotary_embeddings.md", 87, "$R_f$"),
    Label("rotary_embeddings.md", 87, "$m$"),
    Label("rotary_embeddings.md", 87, r"$R_f(\mathbf{x}, y) = \mathbf{x}$"),
    Label("rotary_embeddings.md", 87, r"$\Theta(\mathbf{x}) = \Theta_f(\mathbf{x}, 0)$"),
    Label(
        "rotary_embeddings.md",
        87,
        r"$$\Theta_f(\mathbf{q}, m) - \Theta_f(\mathbf{k}, m) = \Theta_g(\mathbf{q}, \mathbf{k}, 0) = "
        r"\Theta_f(\mathbf{q}, 0) - \Theta_f(\mathbf{k}, 0) = \Theta(\mathbf{q}) - "
        r"\Theta(\mathbf{k})$$",
    ),
    Label(
        "rotary_embeddings.md",
        87,
        r"$\Theta_f(\mathbf{q}, m) - \Theta(\mathbf{q}) = \Theta_f(\mathbf{k}, m) - "
        r"\Theta(\mathbf{k})$",
    ),
    Label("rotary_embeddings.md", 87, r"$\mathbf{q},\mathbf{k},m$"),
    Label("rotary_embeddings.md", 87, r"$\Theta_f$"),
    Label("rotary_embeddings.md", 87, r"$\Theta_f(\mathbf{x}, y) = \Theta(\mathbf{x}) + \varphi(y)$"),
    Label("rotary_embeddings.md", 87, "$m = n + 1$"),
    Label(
        "rotary_embeddings.md",
        89,
        r"$$\varphi(m)-\varphi(m-1) = \Theta_g(\mathbf{q}, \mathbf{k}, 1) + \Theta(\mathbf{q}) - "
        r"\Theta(\mathbf{k})$$",
    ),
    Label("rotary_embeddings.md", 91, "$m$"),
    Label("rotary_embeddings.md", 91, r"$\varphi$"),
    Label("rotary_embeddings.md", 91, r"$\varphi(0)=0$"),
    Label("rotary_embeddings.md", 91, r"$\varphi(1)=\theta$"),
    Label("rotary_embeddings.md", 91, r"$\varphi(m)=m\theta$"),
    Label(
        "rotary_embeddings.md",
        95,
        r"$$f(\mathbf{q}, m) = R_f(\mathbf{q}, m)e^{i\Theta_f(\mathbf{q}, "
        r"m)}=\mathbf{q}e^{i(\Theta(\mathbf{q})+m\mathbf{\theta})} = \sum_{j=1}^{d/2} "
        r"q_je^{im\theta_j} \vec{e_j}$$",
    ),
    Label("rotary_embeddings.md", 97, r"$\mathbf{k}$"),
    Label(
        "rotary_embeddings.md",
        99,
        "$$"
        "\n"
        r"    f(\mathbf{q}, m) ="
        "\n"
        r"    \begin{pmatrix}"
        "\n"
        "\t    M_1 & & & \\\\\\\\"
        "\n"
        "\t   & M_2 & & \\\\\\\\"
        "\n"
        "\t   & & \\ddots & \\\\\\\\"
        "\n"
        "	   & & & M_{d/2}"
        "\n"
        r"    \end{pmatrix}"
        "\n"
        r"    \begin{pmatrix}"
        "\n"
        "\t   q_1\\\\\\\\"
        "\n"
        "\t   q_2\\\\\\\\"
        "\n"
        "\t   \\vdots\\\\\\\\"
        "\n"
        "	   q_d"
        "\n"
        r"    \end{pmatrix} = \mathbf{\Theta_m Q_m} = \mathbf{\Theta_m W_q X_m}"
        "\n"
        "$$",
    ),
    # Doubtful: still a readable 2x2 matrix; labelled broken because the author's \sin loses its backslash in the
    # blog's Markdown layer (the same text read raw, e.g. on GitHub, is right).
    Label(
        "rotary_embeddings.md",
        115,
        r"$M_j=\begin{pmatrix}\cos m\theta_j & -\sin m\theta_j \\\sin m\theta_j & \cos "
        r"m\theta_j\end{pmatrix}$",
        r"Goldmark turns `\\\sin` into `\\sin`: the row break swallows the backslash of \sin, so the second "
        "row shows italic s, i, n run into m (sinmθ_j), not the sine",
        doubtful=True,
    ),
    Label("rotary_embeddings.md", 115, r"$\mathbf{\Theta_m}$"),
    Label("rotary_embeddings.md", 115, r"$\mathbf{W_q}$"),
    Label("rotary_embeddings.md", 115, r"$\mathbf{X_m}$"),
    Label("rotary_embeddings.md", 115, "$m$"),
    Label("rotary_embeddings.md", 115, r"$\mathbf{k}$"),
    Label("rotary_embeddings.md", 119, r"$\mathbf{q}$"),
    Label("rotary_embeddings.md", 119, r"$\mathbf{k}$"),
    # `\_` is the Markdown escape of an underscore: Goldmark hands MathJax `\mathbf{q}_{:d/2}`, a subscript.
    Label(
        "rotary_embeddings.md",
        121,
        "$$"
        "\n"
        r"\begin{align*}"
        "\n"
        r"    \langle f(\mathbf{q}, m, i),f(\mathbf{k}, n, j) \rangle &= \langle "
        r"f_1(\mathbf{q}\_{:d/2}, m),f_1(\mathbf{k}\_{:d/2}, n) \rangle + \langle "
        "f_2(\\mathbf{q}\\_{d/2:}, i),f_2(\\mathbf{k}\\_{d/2:}, j) \\rangle \\\\\\\\"
        "\n"
        r"    &= g_1(\mathbf{q}\_{:d/2}, \mathbf{k}\_{:d/2}, m - n) + g_2(\mathbf{q}\_{d/2:}, "
        "\\mathbf{k}\\_{d/2:}, i - j) \\\\\\\\"
        "\n"
        r"    &= g(\mathbf{q}, \mathbf{k}, m - n, i - j)"
        "\n"
        r"\end{align*}"
        "\n"
        "$$",
    ),
    Label("rotary_embeddings.md", 136, r"$\cos(m\theta)$"),
    Label("rotary_embeddings.md", 136, r"$\sin(m\theta)$"),
    # ---- alibi_mask.md ----
    # The file before the upstream commit 7eaa0779 '[fix] fix latex equation (#81)', which replaced `\{softmax}` by
    # `softmax`.
    Label(
        "alibi_mask.md",
        11,
        "$$"
        "\n"
        r"\{softmax}\left(\mathbf{q}_i \mathbf{K}^{\top}+m \cdot[-(i-1), \ldots,-2,-1,0]\right)"
        "\n"
        "$$",
        r"does not render: `\{` is a literal brace, so the `}` after softmax is an extra close brace (MathJax "
        "reports an error)",
    ),
    Label("alibi_mask.md", 19, r"$\mathbf{q}_i \cdot \mathbf{k}_j$"),
    Label("alibi_mask.md", 19, "$m$"),
    Label("alibi_mask.md", 35, "$m$"),
    # `\\_` is this repository's convention for an underscore on GitHub: GitHub's Markdown hands MathJax `\_`
    # (mathjax/MathJax-src#1257, where dpvc explains that GitHub needs `\\_`). `>=` sets two relation symbols side by
    # side, read as ≥. Same for the labels below.
    Label("alibi_mask.md", 63, r"$(seqlen\\_q, >=seqlen\\_kv)$"),
    Label("alibi_mask.md", 65, r"$seqlen\\_kv$"),
    Label("alibi_mask.md", 67, r"$(seqlen\\_q, >=seqlen\\_kv)$"),
    Label("alibi_mask.md", 67, r"$(num\\_heads, seqlen\\_q, >=seqlen\\_kv)$"),
    Label("alibi_mask.md", 67, r"$(batch, num\\_heads, seqlen\\_q, >=seqlen\\_kv)$"),
    Label("alibi_mask.md", 74, r"$(num\\_heads, seqlen\\_q, >=seqlen\\_kv)$"),
    Label("alibi_mask.md", 74, r"$(batch, num\\_heads, seqlen\\_q, >=seqlen\\_kv)$"),
    # ---- layernorm_llmc.md ----
    Label("layernorm_llmc.md", 30, r"$\text{LayerNorm}(x) = w \odot \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}} + b$"),
    Label("layernorm_llmc.md", 32, r"$\odot$"),
    Label("layernorm_llmc.md", 32, r"$\mu$"),
    Label("layernorm_llmc.md", 32, r"$\sigma^2$"),
    Label("layernorm_llmc.md", 32, r"$\epsilon$"),
    # plain-text math in the prose (what is inside backticks is code and is not labelled; "C" at line 61 is the
    # language)
    Label("layernorm_llmc.md", 2, "B"),
    Label("layernorm_llmc.md", 2, "T"),
    Label("layernorm_llmc.md", 2, "C"),
    Label("layernorm_llmc.md", 2, "B=8"),
    Label("layernorm_llmc.md", 2, "T=1024"),
    Label("layernorm_llmc.md", 2, "C=768"),
    # "each C-dimensional fibre": the symbol C inside a hyphenated word
    Label("layernorm_llmc.md", 16, "C"),
    Label("layernorm_llmc.md", 26, "x,w,b"),
    Label("layernorm_llmc.md", 78, "2x3x4"),
    # Markdown escapes: GitHub shows 2*3*4=24
    Label("layernorm_llmc.md", 78, r"2\*3\*4=24"),
    # ---- aiayn_plaintext_notes.md ----
    # plain-text math only (Unicode and caret/underscore notation); the formulas in backticks are code and are not
    # labelled
    Label("aiayn_plaintext_notes.md", 24, "N = 6"),
    Label("aiayn_plaintext_notes.md", 28, "d_model = 512"),
    Label("aiayn_plaintext_notes.md", 36, "1/√d_k"),
    Label("aiayn_plaintext_notes.md", 37, "d_k"),
    Label("aiayn_plaintext_notes.md", 42, "h = 8"),
    Label("aiayn_plaintext_notes.md", 42, "d_k = d_v = d_model / h = 64"),
    Label("aiayn_plaintext_notes.md", 43, "W^Q"),
    Label("aiayn_plaintext_notes.md", 43, "W^K"),
    Label("aiayn_plaintext_notes.md", 43, "W^V"),
    Label("aiayn_plaintext_notes.md", 43, "W^O"),
    Label("aiayn_plaintext_notes.md", 44, "d_model"),
    Label("aiayn_plaintext_notes.md", 51, "d_ff = 2048"),
    Label("aiayn_plaintext_notes.md", 53, "√d_model"),
    # the relation n < d with words between its two sides, labelled as the whole span
    Label("aiayn_plaintext_notes.md", 70, "n < representation dimension d"),
    Label("aiayn_plaintext_notes.md", 75, "β₁ = 0.9"),
    Label("aiayn_plaintext_notes.md", 75, "β₂ = 0.98"),
    Label("aiayn_plaintext_notes.md", 75, "ε = 10⁻⁹"),
    Label("aiayn_plaintext_notes.md", 76, "warmup_steps = 4000"),
    Label("aiayn_plaintext_notes.md", 78, "P_drop = 0.1"),
    Label("aiayn_plaintext_notes.md", 79, "ε_ls = 0.1"),
    # ---- aiayn_model_architecture.tex ----
    Label("aiayn_model_architecture.tex", 14, "$d_k$"),
    Label("aiayn_model_architecture.tex", 14, "$d_v$"),
    Label("aiayn_model_architecture.tex", 14, r"$\sqrt{d_k}$"),
    Label("aiayn_model_architecture.tex", 16, "$Q$"),
    Label("aiayn_model_architecture.tex", 16, "$K$"),
    Label("aiayn_model_architecture.tex", 16, "$V$"),
    Label(
        "aiayn_model_architecture.tex",
        18,
        r"\begin{equation}"
        "\n"
        r"   \mathrm{Attention}(Q, K, V) = \mathrm{softmax}(\frac{QK^T}{\sqrt{d_k}})V"
        "\n"
        r"\end{equation}",
    ),
    Label("aiayn_model_architecture.tex", 22, r"$\frac{1}{\sqrt{d_k}}$"),
    Label("aiayn_model_architecture.tex", 31, "$d_k$"),
    Label("aiayn_model_architecture.tex", 31, "$d_k$"),
    Label("aiayn_model_architecture.tex", 31, "$d_k$"),
    Label("aiayn_model_architecture.tex", 31, "$q$"),
    Label("aiayn_model_architecture.tex", 31, "$k$"),
    Label("aiayn_model_architecture.tex", 31, "$0$"),
    Label("aiayn_model_architecture.tex", 31, "$1$"),
    Label("aiayn_model_architecture.tex", 31, r"$q \cdot k = \sum_{i=1}^{d_k} q_ik_i$"),
    Label("aiayn_model_architecture.tex", 31, "$0$"),
    Label("aiayn_model_architecture.tex", 31, "$d_k$"),
    Label("aiayn_model_architecture.tex", 31, r"$\frac{1}{\sqrt{d_k}}$"),
    # Doubtful only for a reader of this file alone: `\dmodel` is defined in the paper's ms.tex
    # (`\newcommand{\dmodel}{d_{\text{model}}}`), which \inputs this file; the compiled paper shows d_model. Same for
    # every `\dmodel` below.
    Label("aiayn_model_architecture.tex", 60, r"$\dmodel$"),
    Label("aiayn_model_architecture.tex", 60, "$h$"),
    Label("aiayn_model_architecture.tex", 60, "$d_k$"),
    Label("aiayn_model_architecture.tex", 60, "$d_k$"),
    Label("aiayn_model_architecture.tex", 60, "$d_v$"),
    Label("aiayn_model_architecture.tex", 61, "$d_v$"),
    # The second line is a TeX comment inside the environment (it holds a double subscript that would fail); LaTeX
    # drops it.
    Label(
        "aiayn_model_architecture.tex",
        65,
        r"\begin{align*}"
        "\n"
        r"    \mathrm{MultiHead}(Q, K, V) &= \mathrm{Concat}(\mathrm{head_1}, ..., "
        "\\mathrm{head_h})W^O\\\\"
        "\n"
        r"%    \mathrm{where} \mathrm{head_i} &= \mathrm{Attention}(QW_Q_i^{\dmodel \times d_q}, "
        "KW_K_i^{\\dmodel \\times d_k}, VW^V_i^{\\dmodel \\times d_v})\\\\"
        "\n"
        "    \\text{where}~\\mathrm{head_i} &= \\mathrm{Attention}(QW^Q_i, KW^K_i, VW^V_i)\\\\"
        "\n"
        r"\end{align*}",
    ),
    Label("aiayn_model_architecture.tex", 71, r"$W^Q_i \in \mathbb{R}^{\dmodel \times d_k}$"),
    Label("aiayn_model_architecture.tex", 71, r"$W^K_i \in \mathbb{R}^{\dmodel \times d_k}$"),
    Label("aiayn_model_architecture.tex", 71, r"$W^V_i \in \mathbb{R}^{\dmodel \times d_v}$"),
    Label("aiayn_model_architecture.tex", 71, r"$W^O \in \mathbb{R}^{hd_v \times \dmodel}$"),
    Label("aiayn_model_architecture.tex", 76, "$h=8$"),
    Label("aiayn_model_architecture.tex", 76, r"$d_k=d_v=\dmodel/h=64$"),
    Label("aiayn_model_architecture.tex", 87, r"$-\infty$"),
    Label(
        "aiayn_model_architecture.tex",
        95,
        r"\begin{equation}"
        "\n"
        r"   \mathrm{FFN}(x)=\max(0, xW_1 + b_1) W_2 + b_2"
        "\n"
        r"\end{equation}",
    ),
    Label("aiayn_model_architecture.tex", 99, r"$\dmodel=512$"),
    Label("aiayn_model_architecture.tex", 99, "$d_{ff}=2048$"),
    Label("aiayn_model_architecture.tex", 118, r"$\dmodel$"),
    Label("aiayn_model_architecture.tex", 118, r"$\sqrt{\dmodel}$"),
    Label("aiayn_model_architecture.tex", 122, r"$\dmodel$"),
    # Doubtful: `sin` and `cos` without a backslash print as italic letters; the published paper shows them so and
    # readers read sine and cosine, so labelled correct. Rows without `&` are accepted by align*.
    Label(
        "aiayn_model_architecture.tex",
        126,
        r"\begin{align*}"
        "\n"
        "    PE_{(pos,2i)} = sin(pos / 10000^{2i/\\dmodel}) \\\\"
        "\n"
        r"    PE_{(pos,2i+1)} = cos(pos / 10000^{2i/\dmodel})"
        "\n"
        r"\end{align*}",
    ),
    Label("aiayn_model_architecture.tex", 131, "$pos$"),
    Label("aiayn_model_architecture.tex", 131, "$i$"),
    Label("aiayn_model_architecture.tex", 131, r"$2\pi$"),
    Label("aiayn_model_architecture.tex", 131, r"$10000 \cdot 2\pi$"),
    Label("aiayn_model_architecture.tex", 131, "$k$"),
    Label("aiayn_model_architecture.tex", 131, "$PE_{pos+k}$"),
    Label("aiayn_model_architecture.tex", 131, "$PE_{pos}$"),
    # ---- aiayn_why_self_attention.tex ----
    Label("aiayn_why_self_attention.tex", 4, "$(x_1, ..., x_n)$"),
    Label("aiayn_why_self_attention.tex", 4, "$(z_1, ..., z_n)$"),
    Label("aiayn_why_self_attention.tex", 4, r"$x_i, z_i \in \mathbb{R}^d$"),
    Label("aiayn_why_self_attention.tex", 15, "$n$"),
    Label("aiayn_why_self_attention.tex", 15, "$d$"),
    Label("aiayn_why_self_attention.tex", 15, "$k$"),
    Label("aiayn_why_self_attention.tex", 15, "$r$"),
    Label("aiayn_why_self_attention.tex", 27, r"$O(n^2 \cdot d)$"),
    Label("aiayn_why_self_attention.tex", 27, "$O(1)$"),
    Label("aiayn_why_self_attention.tex", 27, "$O(1)$"),
    Label("aiayn_why_self_attention.tex", 28, r"$O(n \cdot d^2)$"),
    Label("aiayn_why_self_attention.tex", 28, "$O(n)$"),
    Label("aiayn_why_self_attention.tex", 28, "$O(n)$"),
    Label("aiayn_why_self_attention.tex", 30, r"$O(k \cdot n \cdot d^2)$"),
    Label("aiayn_why_self_attention.tex", 30, "$O(1)$"),
    # Doubtful: `log` without a backslash prints as italic letters, as in the published paper's Table 1; read as
    # log_k(n), so labelled correct. Same at line 89.
    Label("aiayn_why_self_attention.tex", 30, "$O(log_k(n))$"),
    Label("aiayn_why_self_attention.tex", 32, r"$O(r \cdot n \cdot d)$"),
    Label("aiayn_why_self_attention.tex", 32, "$O(1)$"),
    Label("aiayn_why_self_attention.tex", 32, "$O(n/r)$"),
    Label("aiayn_why_self_attention.tex", 85, "$O(n)$"),
    Label("aiayn_why_self_attention.tex", 86, "$n$"),
    Label("aiayn_why_self_attention.tex", 86, "$d$"),
    Label("aiayn_why_self_attention.tex", 87, "$r$"),
    Label("aiayn_why_self_attention.tex", 87, "$O(n/r)$"),
    Label("aiayn_why_self_attention.tex", 89, "$k < n$"),
    Label("aiayn_why_self_attention.tex", 89, "$O(n/k)$"),
    Label("aiayn_why_self_attention.tex", 89, "$O(log_k(n))$"),
    Label("aiayn_why_self_attention.tex", 90, "$k$"),
    Label("aiayn_why_self_attention.tex", 90, r"$O(k \cdot n \cdot d + n \cdot d^2)$"),
    Label("aiayn_why_self_attention.tex", 90, "$k=n$"),
]
