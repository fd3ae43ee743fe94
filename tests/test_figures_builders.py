"""checks.figures: a probe's figure from arrays, as the report draws it."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from checks.figures import heatmap, lines, scatter
from checks.results import Figure
from checks.results.codec import from_json, to_json
from checks.results.records import Series
from reports import figures


def test_arrays_and_tensors_become_plain_floats_and_y_alone_counts_from_zero():
    figure = lines(
        "curve",
        "A curve",
        "alt",
        {"a": (np.arange(3), torch.tensor([1.0, 2.0, 3.0])), "b": np.array([4, 5])},
        marks={"edge": np.float32(1.5)},
    )
    assert figure.series["a"].x == [0.0, 1.0, 2.0] and figure.series["a"].y == [1.0, 2.0, 3.0]
    assert figure.series["b"].x == [] and figure.series["b"].y == [4.0, 5.0]
    assert figure.marks == {"edge": 1.5} and all(type(v) is float for v in figure.series["a"].y)


def test_each_builder_gives_a_figure_the_report_draws_and_the_results_file_keeps():
    built = [
        lines("l", "t", "alt", {"a": ([1, 2], [3, 4])}, x_label="x", y_label="y", log_y=True),
        scatter("s", "t", "alt", {"a": ([1, 2], [3, 4])}),
        heatmap("h", "t", "alt", np.eye(2)),
    ]
    for figure in built:
        assert from_json(Figure, to_json(figure)) == figure
        assert "<svg" in str(figures.render(figure))
    assert built[1].kind == "scatter" and built[2].matrix == [[1.0, 0.0], [0.0, 1.0]]


def test_an_intervals_figure_needs_low_middle_high_and_cuts_long_row_names():
    long_name = "positions 12 … 23 (not seen in training; the same step back applies there too)"
    good = Figure("f", "intervals", "t", "a", series={long_name: Series(x=[0.1], y=[0.0, 0.1, 0.2])})
    svg = str(figures.render(good))
    assert f">{long_name}</text>" not in svg and f"<title>{long_name}</title>" in svg and "…</text>" in svg
    bad = Figure("f", "intervals", "t", "a", series={"row": Series(x=[], y=[0.0, 0.1])})
    with pytest.raises(figures.FigureError, match=r"\[low, middle, high\]"):
        figures.render(bad)


def test_a_mark_label_that_would_pass_the_right_edge_is_written_left_of_its_line():
    figure = lines("f", "t", "a", {"y": ([1, 100], [1, 2])}, marks={"a long label near the edge": 99})
    svg = str(figures.render(figure))
    x = float(svg.split('font-size="11">a long label')[0].rsplit('<text x="', 1)[1].split('"')[0])
    assert x + 6.2 * len("a long label near the edge") <= figures.WIDTH
