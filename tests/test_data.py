"""ek.data: sources, transformations, TF's shuffle-buffer semantics, iterators and errors."""

import collections

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.data import Dataset
from eagerkit.errors import InvalidArgumentError, OutOfRangeError


def values(dataset):
    return [x.numpy().tolist() for x in dataset]


def test_from_tensor_slices_arrays_tuples_dicts():
    ds = Dataset.from_tensor_slices(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    rows = list(ds)
    assert [r.dtype for r in rows] == [ek.float64] * 3  # numpy float64 stays float64
    assert values(ds) == [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    pairs = list(Dataset.from_tensor_slices(([1.0, 2.0], [3, 4])))
    assert [(float(x), int(y)) for x, y in pairs] == [(1.0, 3), (2.0, 4)]
    assert (pairs[0][0].dtype, pairs[0][1].dtype) == (ek.float32, ek.int32)
    records = list(Dataset.from_tensor_slices({"x": np.arange(2.0), "label": [7, 8]}))
    assert list(records[1]) == ["x", "label"]
    assert float(records[1]["x"]) == 1.0 and int(records[1]["label"]) == 8
    Point = collections.namedtuple("Point", "x y")
    first = next(iter(Dataset.from_tensor_slices(Point([1, 2], [3, 4]))))
    assert isinstance(first, Point) and (int(first.x), int(first.y)) == (1, 3)


def test_from_tensor_slices_errors():
    with pytest.raises(
        InvalidArgumentError,
        match=r"same size along axis 0, got shapes "
        r"\[\(3,\), \(2,\)\]",
    ):
        Dataset.from_tensor_slices(([1, 2, 3], [1, 2]))
    with pytest.raises(InvalidArgumentError, match="cannot slice a scalar"):
        Dataset.from_tensor_slices(3.0)


def test_elements_leave_the_tape():
    x = ek.constant([1.0, 2.0])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = next(iter(Dataset.from_tensor_slices(x))) * 2.0
    assert tape.gradient(y, x) is None


def test_tf15_guide_example_is_deterministic_with_a_seed():
    def pipeline(seed):
        numbers = Dataset.from_tensor_slices([1, 2, 3, 4, 5, 6])
        return numbers.map(ek.square).shuffle(2, seed=seed).batch(2)

    first = values(pipeline(7))
    assert first == values(pipeline(7))  # same seed, same order
    assert [len(b) for b in first] == [2, 2, 2]
    squares = [1, 4, 9, 16, 25, 36]
    flat = [v for b in first for v in b]
    assert sorted(flat) == squares
    for position, value in enumerate(flat):  # a buffer of 2 moves an element up by at most 1
        assert squares.index(value) <= position + 1
    orders = {tuple(v for b in values(pipeline(seed)) for v in b) for seed in range(8)}
    assert len(orders) > 1  # the seed matters


@pytest.mark.parametrize("buffer_size", [1, 2, 3, 5, 20])
def test_shuffle_buffer_bounds_how_far_elements_move_up(buffer_size):
    for seed in range(10):
        order = [int(x) for x in Dataset.range(20).shuffle(buffer_size, seed=seed)]
        assert sorted(order) == list(range(20))
        for position, value in enumerate(order):
            assert value <= position + buffer_size - 1
        if buffer_size == 1:
            assert order == list(range(20))  # a buffer of one cannot reorder anything


def test_a_full_buffer_can_put_any_element_first():
    firsts = {int(next(iter(Dataset.range(5).shuffle(5, seed=s)))) for s in range(60)}
    assert firsts == {0, 1, 2, 3, 4}


def test_reshuffle_each_iteration():
    ds = Dataset.range(10).shuffle(10, seed=3)
    epochs = [values(ds) for _ in range(3)]
    assert len({tuple(e) for e in epochs}) == 3  # each pass has its own order...
    again = Dataset.range(10).shuffle(10, seed=3)
    assert [values(again) for _ in range(3)] == epochs  # ...repeatably
    fixed = Dataset.range(10).shuffle(10, seed=3, reshuffle_each_iteration=False)
    assert values(fixed) == values(fixed)


def test_shuffle_without_seed_follows_the_global_seed():
    ek.set_random_seed(5)
    a = values(Dataset.range(10).shuffle(10))
    ek.set_random_seed(5)
    assert values(Dataset.range(10).shuffle(10)) == a


def test_batch_and_drop_remainder():
    assert values(Dataset.range(5).batch(2)) == [[0, 1], [2, 3], [4]]
    assert values(Dataset.range(5).batch(2, drop_remainder=True)) == [[0, 1], [2, 3]]
    x, y = next(iter(Dataset.from_tensor_slices((np.ones((5, 3)), np.arange(5))).batch(4)))
    assert (x.shape, y.shape, x.dtype) == ((4, 3), (4,), ek.float64)
    with pytest.raises(
        InvalidArgumentError,
        match=r"batch: cannot put element 1 \(float32 shape "
        r"\(2,\)\) in one batch with element 0 \(float32 shape \(1,\)\)",
    ):
        list(Dataset.from_generator(lambda: iter([[1.0], [1.0, 2.0]]), ek.float32).batch(2))
    with pytest.raises(InvalidArgumentError, match="batch: batch_size must be >= 1, got 0"):
        Dataset.range(3).batch(0)


def test_repeat_take_skip_prefetch():
    assert values(Dataset.range(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert values(Dataset.range(2).repeat().take(5)) == [0, 1, 0, 1, 0]
    assert values(Dataset.range(0).repeat()) == []  # repeating nothing ends
    assert values(Dataset.range(5).skip(2)) == [2, 3, 4]
    assert values(Dataset.range(5).skip(-1)) == [] and values(Dataset.range(3).take(-1)) == [
        0,
        1,
        2,
    ]
    assert values(Dataset.range(3).prefetch(1)) == [0, 1, 2]
    epochs = Dataset.range(4).shuffle(4, seed=1).repeat(2)
    order = values(epochs)
    assert sorted(order[:4]) == sorted(order[4:]) == [0, 1, 2, 3] and order[:4] != order[4:]


def test_map_unpacks_tuples_and_passes_dicts():
    ds = Dataset.from_tensor_slices(([1.0, 2.0], [10.0, 20.0])).map(lambda x, y: x + y)
    assert values(ds) == [11.0, 22.0]
    ds = Dataset.from_tensor_slices({"a": [1, 2]}).map(lambda d: (d["a"], 0.5))
    first = next(iter(ds))
    assert int(first[0]) == 1 and first[1].dtype == ek.float32


def test_from_generator_types_shapes_and_errors():
    def gen():
        yield 1, [1.0, 2.0]
        yield 2, [3.0]

    ds = Dataset.from_generator(gen, (ek.int64, ek.float32), ((), (None,)))
    assert [(int(i), x.numpy().tolist()) for i, x in ds] == [(1, [1.0, 2.0]), (2, [3.0])]
    assert next(iter(ds))[0].dtype == ek.int64
    strict = Dataset.from_generator(gen, (ek.int64, ek.float32), ((), (2,)))
    with pytest.raises(
        InvalidArgumentError,
        match=r"element 1 has shape \(1,\) but "
        r"output_shapes says \(2,\)",
    ):
        list(strict)
    with pytest.raises(InvalidArgumentError, match="does not have the structure of output_types"):
        list(Dataset.from_generator(gen, ek.float32))
    with pytest.raises(TypeError, match="must be callable"):
        Dataset.from_generator(gen(), ek.float32)


def test_range_gives_int64():
    elements = list(Dataset.range(3))
    assert [e.dtype for e in elements] == [ek.int64] * 3
    assert values(Dataset.range(2, 9, 3)) == [2, 5, 8]


def test_a_dataset_is_not_an_iterator():
    ds = Dataset.range(3)
    with pytest.raises(TypeError, match=r"a Dataset is not an iterator.*iter\(dataset\)"):
        next(ds)
    it = iter(ds)
    assert int(next(it)) == 0 and int(next(it)) == 1
    assert values(ds) == [0, 1, 2]  # a new pass starts from the beginning


def test_tfe_iterator():
    it = ek.Iterator(Dataset.range(2))
    assert iter(it) is it
    assert int(it.get_next()) == 0 and int(it.next()) == 1
    with pytest.raises(OutOfRangeError, match="End of sequence"):
        it.get_next()
    with pytest.raises(StopIteration):
        next(it)
    assert ek.data.Iterator is ek.Iterator
    with pytest.raises(TypeError, match="Iterator expects an ek.data.Dataset, got list"):
        ek.Iterator([1, 2])
    assert int(Dataset.range(3).make_one_shot_iterator().get_next()) == 0


def test_repr_shows_the_pipeline():
    ds = Dataset.from_tensor_slices(([1.0], [2])).shuffle(4, seed=1).batch(2).repeat()
    assert repr(ds) == (
        "<ek.data.Dataset from_tensor_slices(shape=((1,), (1,))).shuffle(4).batch(2).repeat()>"
    )
