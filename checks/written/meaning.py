"""What a parsed formula means, as a SymPy expression built node by node (never from a string)."""

from __future__ import annotations

from fractions import Fraction

import sympy

from checks.written.parse import Node

FUNCTIONS = {"sin": sympy.sin, "cos": sympy.cos, "tan": sympy.tan, "exp": sympy.exp, "log": sympy.log, "ln": sympy.log}
GREEK = {"pi": sympy.pi}


class NoMeaning(ValueError):
    """A formula with no single SymPy meaning here: a tuple, a matrix, a vector function, text."""


def name_of(node: Node) -> str:
    """The name a node spells: ``pos``, ``d_model`` (``d_{\\text{model}}``), ``omega_i``; NoMeaning otherwise."""
    if node.kind in {"name", "text"} and isinstance(node.parts[0], str) and node.parts[0].isascii():
        return str(node.parts[0])
    if node.kind in {"subscript", "braced"}:
        parts = [name_of(part) for part in node.parts if isinstance(part, Node)]
        return "_".join(parts)
    if node.kind == "number":
        return str(node.parts[0])
    raise NoMeaning(f"no name in {node.kind}")


def expression(node: Node) -> sympy.Expr:
    """The SymPy expression of an arithmetic node: names become symbols, applications undefined functions."""
    kind, parts = node.kind, node.parts
    sub = [part for part in parts if isinstance(part, Node)]
    if kind == "number":
        value = Fraction(str(parts[0]))
        return sympy.Rational(value.numerator, value.denominator)
    if kind in {"name", "text", "subscript"}:
        name = name_of(node)
        return GREEK.get(name, sympy.Symbol(name))
    if kind == "braced":
        return expression(sub[0])
    if kind == "add":
        return expression(sub[0]) + expression(sub[1])
    if kind == "sub":
        return expression(sub[0]) - expression(sub[1])
    if kind in {"mul", "implicit"}:
        return expression(sub[0]) * expression(sub[1])
    if kind in {"div", "frac"}:
        return expression(sub[0]) / expression(sub[1])
    if kind == "neg":
        return -expression(sub[0])
    if kind == "power":
        return expression(sub[0]) ** expression(sub[1])
    if kind == "sqrt":
        return sympy.sqrt(expression(sub[0]))
    if kind == "function":
        return _function(str(parts[0]), sub)
    if kind == "sum":
        bound, upper, body = sub
        variable = sympy.Symbol(name_of(bound.parts[0]))
        return sympy.Sum(expression(body), (variable, expression(bound.parts[-1]), expression(upper)))
    if kind == "underbrace":
        return expression(sub[0])
    if kind == "matrix":
        rows = [
            [expression(cell) for cell in row.parts if isinstance(cell, Node)]
            for row in sub[0].parts
            if isinstance(row, Node)
        ]
        return sympy.Matrix(rows)
    if kind == "application":
        arguments = [expression(arg) for arg in sub]
        known = FUNCTIONS.get(str(parts[0]))
        if known is not None and len(arguments) == 1:  # sin(x) written without its backslash: still the sine
            return known(arguments[0])
        return sympy.Function(str(parts[0]))(*arguments)
    raise NoMeaning(f"a {kind} has no single value")


def _function(name: str, parts: list[Node]) -> sympy.Expr:
    apply = FUNCTIONS.get(name)
    if apply is None or not parts:
        raise NoMeaning(f"\\{name} without an argument")
    if len(parts) == 2:  # \sin^2 x: the power, then the argument
        return apply(expression(parts[1])) ** expression(parts[0])
    return apply(expression(parts[0]))
