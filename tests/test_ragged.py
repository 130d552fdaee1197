"""RaggedTensor beyond the guide: every construction agrees with the nested lists it
stands for, indexing agrees with Python's on those lists, and gradients reach the flat
values through ragged math, reductions, indexing and ``to_tensor``."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

rows = st.lists(st.lists(st.integers(-50, 50), max_size=4), min_size=1, max_size=5)
FAST = settings(max_examples=40, deadline=None, derandomize=True)


@FAST
@given(rows)
def test_every_construction_gives_the_same_rows(pylist):
    rt = ek.ragged.constant(pylist)
    values = [v for row in pylist for v in row]
    lengths = [len(row) for row in pylist]
    splits = np.concatenate([[0], np.cumsum(lengths)]).tolist()
    rowids = [i for i, n in enumerate(lengths) for _ in range(n)]
    for built in (
        ek.RaggedTensor.from_row_lengths(ek.constant(values, dtype=ek.int32), lengths),
        ek.RaggedTensor.from_row_splits(ek.constant(values, dtype=ek.int32), splits),
        ek.RaggedTensor.from_value_rowids(
            ek.constant(values, dtype=ek.int32), rowids, nrows=len(pylist)
        ),
        ek.RaggedTensor.from_row_starts(ek.constant(values, dtype=ek.int32), splits[:-1]),
        ek.RaggedTensor.from_row_limits(ek.constant(values, dtype=ek.int32), splits[1:]),
    ):
        assert built.to_list() == rt.to_list() == pylist
    assert rt.row_lengths().numpy().tolist() == lengths
    assert rt.row_splits.numpy().tolist() == splits
    assert rt.value_rowids().numpy().tolist() == rowids
    assert rt.shape.as_list() == [len(pylist), None]
    width = max(lengths)
    padded = [row + [-7] * (width - len(row)) for row in pylist]
    assert rt.to_tensor(default_value=-7).numpy().tolist() == padded
    assert ek.RaggedTensor.from_tensor(padded, lengths=lengths).to_list() == pylist
    assert ek.RaggedTensor.from_sparse(rt.to_sparse()).to_list() == pylist


@FAST
@given(rows, st.integers(-6, 6), st.integers(-6, 6), st.data())
def test_indexing_agrees_with_python_lists(pylist, start, stop, data):
    rt = ek.ragged.constant(pylist)
    assert rt[start:stop].to_list() == pylist[start:stop]
    assert rt[:, start:stop].to_list() == [row[start:stop] for row in pylist]
    row = data.draw(st.integers(-len(pylist), len(pylist) - 1))
    assert rt[row].numpy().tolist() == pylist[row]
    if pylist[row]:
        column = data.draw(st.integers(-len(pylist[row]), len(pylist[row]) - 1))
        assert rt[row, column].numpy() == pylist[row][column]


def test_gradients_reach_the_flat_values():
    values = ek.Variable([1.0, 2.0, 3.0, 4.0, 5.0])
    with ek.GradientTape() as tape:
        rt = ek.RaggedTensor.from_row_lengths(values, [2, 0, 3])
        squared = rt * rt + ek.exp(rt)  # elementwise on the flat values
        row_sums = ek.reduce_sum(squared, axis=1)  # a reduction over the ragged axis
        means = ek.reduce_mean(rt, axis=1)  # the empty row's mean is nan: not in the loss
        firsts = squared[:, :1].to_tensor()  # indexing and padding are gathers
        loss = ek.reduce_sum(row_sums * [1.0, 10.0, 100.0]) + means[0] + ek.reduce_sum(firsts)
    v = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    weight = np.array([1.0, 1.0, 100.0, 100.0, 100.0])
    expected = weight * (2 * v + np.exp(v)) + [0.5, 0.5, 0, 0, 0]
    expected += np.array([1.0, 0, 1.0, 0, 0]) * (2 * v + np.exp(v))
    np.testing.assert_allclose(tape.gradient(loss, values).numpy(), expected, rtol=1e-6)


def test_gradient_through_broadcast_dense_operand_and_map_flat_values():
    dense = ek.Variable([[1.0], [2.0]])
    with ek.GradientTape() as tape:
        rt = ek.ragged.constant([[1.0, 2.0, 3.0], [4.0]])
        scaled = ek.ragged.map_flat_values(ek.square, rt * dense)
        loss = ek.reduce_sum(scaled, axis=None)
    # d/dd of sum((x d)^2) = 2 d sum(x^2) per row
    np.testing.assert_allclose(tape.gradient(loss, dense).numpy(), [[2 * 14.0], [2 * 2 * 16.0]])


def test_reductions_follow_tf_on_empty_rows():
    rt = ek.ragged.constant([[1.0, 5.0], [], [2.0]])
    assert ek.reduce_sum(rt, axis=1).numpy().tolist() == [6.0, 0.0, 2.0]
    assert ek.reduce_max(rt, axis=1).numpy().tolist() == [5.0, np.finfo(np.float32).min, 2.0]
    assert ek.reduce_min(rt, axis=-1).numpy().tolist() == [1.0, np.finfo(np.float32).max, 2.0]
    assert ek.reduce_sum(rt, axis=0).numpy().tolist() == [3.0, 5.0]
    assert ek.reduce_mean(rt, axis=0).numpy().tolist() == [1.5, 5.0]
    assert ek.reduce_sum(rt).numpy() == 8.0
    with_inf = ek.ragged.constant([[1.0, np.inf], [2.0]])
    assert ek.reduce_mean(with_inf, axis=1).numpy().tolist() == [np.inf, 2.0]  # counts stay 2, 1


def test_ragged_refuses_what_does_not_fit_with_clear_errors():
    with pytest.raises(InvalidArgumentError, match="row_splits must start with 0"):
        ek.RaggedTensor.from_row_splits([1, 2], [1, 2])
    with pytest.raises(InvalidArgumentError, match="must equal the number of values"):
        ek.RaggedTensor.from_row_lengths([1, 2, 3], [1, 1])
    with pytest.raises(InvalidArgumentError, match="build one with ek.ragged.constant"):
        ek.RaggedTensor([1], [0, 1])
    with pytest.raises(InvalidArgumentError, match="out of range in row 1"):
        ek.ragged.constant([[1, 2], [3]])[:, 1]
    with pytest.raises(InvalidArgumentError, match="inner values must be rectangular"):
        ek.ragged.constant([[[1, 2], [3]]], ragged_rank=1)
    with pytest.raises(InvalidArgumentError, match="rectangular array"):
        ek.shape(ek.ragged.constant([[1], []]))
    assert ek.ragged.constant([]).shape == (0,) and ek.ragged.constant([[], []]).shape == (2, None)
