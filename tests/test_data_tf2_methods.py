"""ek.data's TF 2 Dataset methods from the tf.data guide: AUTOTUNE and parallel knobs,
zip, concatenate, enumerate, from_tensors, unbatch, padded_batch, flat_map, cache, reduce,
as_numpy_iterator, len, and from_generator's args / output_signature."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.data import Dataset
from eagerkit.errors import InvalidArgumentError


def values(dataset):
    return [x.numpy().tolist() for x in dataset]


def test_autotune_and_the_parallel_knobs_of_the_usual_pipeline():
    assert ek.data.AUTOTUNE == ek.data.experimental.AUTOTUNE == -1
    pipeline = (
        Dataset.range(6)
        .map(lambda x: x * 2, num_parallel_calls=ek.data.AUTOTUNE, deterministic=True)
        .cache()
        .batch(4, num_parallel_calls=2)
        .prefetch(ek.data.AUTOTUNE)
    )
    assert values(pipeline) == [[0, 2, 4, 6], [8, 10]]
    with pytest.raises(InvalidArgumentError, match=r"map: num_parallel_calls must be >= 1, or"):
        Dataset.range(3).map(lambda x: x, num_parallel_calls=0)
    with pytest.raises(InvalidArgumentError, match="batch: deterministic must be True or False"):
        Dataset.range(3).batch(2, deterministic="yes")


def test_the_tf_data_guides_zip_and_batch():
    inc, dec = Dataset.range(100), Dataset.range(0, -100, -1)
    batches = [[a.numpy().tolist() for a in b] for b in Dataset.zip((inc, dec)).batch(4).take(2)]
    assert batches == [[[0, 1, 2, 3], [0, -1, -2, -3]], [[4, 5, 6, 7], [-4, -5, -6, -7]]]
    # several arguments give a tuple; a dict gives a dict; the shortest ends it
    pairs = Dataset.zip(Dataset.range(3), Dataset.from_tensor_slices(["a", "b"]))
    assert [(int(n), s.numpy()) for n, s in pairs] == [(0, b"a"), (1, b"b")]
    records = list(Dataset.zip({"x": Dataset.range(2), "y": Dataset.range(5, 7)}))
    assert [{k: int(v) for k, v in r.items()} for r in records] == [
        {"x": 0, "y": 5},
        {"x": 1, "y": 6},
    ]
    assert int(pairs.cardinality()) == 2
    assert int(Dataset.zip(Dataset.range(3), Dataset.range(1).repeat()).cardinality()) == 3
    with pytest.raises(InvalidArgumentError, match="Dataset.zip: expects datasets"):
        Dataset.zip([1, 2], Dataset.range(2))


def test_a_failed_part_fails_its_zipped_element_alone():
    def halve(x):
        if int(x) == 1:
            raise ValueError("odd one out")
        return x // 2

    it = iter(Dataset.zip(Dataset.range(3).map(halve), Dataset.range(3)))
    assert [int(v) for v in next(it)] == [0, 0]
    with pytest.raises(ValueError, match="odd one out"):
        next(it)
    assert [int(v) for v in next(it)] == [1, 2]


def test_concatenate_enumerate_and_from_tensors():
    both = Dataset.range(2).concatenate(Dataset.range(5, 7))
    assert values(both) == [0, 1, 5, 6] and int(both.cardinality()) == 4
    assert int(Dataset.range(2).concatenate(Dataset.range(1).repeat()).cardinality()) == -1
    assert [(int(i), int(x)) for i, x in Dataset.range(5, 7).enumerate(start=3)] == [
        (3, 5),
        (4, 6),
    ]
    assert next(iter(Dataset.range(1).enumerate()))[0].dtype == ek.int64
    single = Dataset.from_tensors(([1, 2], 3.0))
    assert int(single.cardinality()) == 1
    [(vector, scalar)] = list(single)
    assert vector.shape == (2,) and scalar.dtype == ek.float32
    with pytest.raises(InvalidArgumentError, match="concatenate: dataset must be an ek.data"):
        Dataset.range(2).concatenate([3])


@settings(max_examples=60, deadline=None)
@given(sizes=st.lists(st.integers(0, 5), min_size=1, max_size=6), batch=st.integers(1, 4))
def test_padded_batch_pads_to_the_longest_and_unbatch_undoes_batch(sizes, batch):
    rows = [list(range(1, n + 1)) for n in sizes]
    ds = Dataset.from_generator(lambda: iter(rows), ek.int32, (None,))
    got = values(ds.padded_batch(batch, padding_values=-1))
    expected = []
    for start in range(0, len(rows), batch):
        group = rows[start : start + batch]
        longest = max(len(r) for r in group)
        expected.append([r + [-1] * (longest - len(r)) for r in group])
    assert got == expected
    flat = Dataset.range(len(sizes) * 2)
    assert values(flat.batch(batch).unbatch()) == values(flat)


def test_padded_batch_the_tf_data_guides_example_and_errors():
    ds = Dataset.range(100).map(lambda x: ek.fill([ek.cast(x, ek.int32)], x))
    first, second = [b.numpy().tolist() for b in ds.padded_batch(4, padded_shapes=(None,)).take(2)]
    assert first == [[0, 0, 0], [1, 0, 0], [2, 2, 0], [3, 3, 3]]
    assert second[0] == [4, 4, 4, 4, 0, 0, 0]
    words = Dataset.from_tensor_slices(([[1], [2]], ["a", "b"])).map(lambda x, s: (x, s))
    fixed = next(iter(words.padded_batch(2, padded_shapes=([3], []))))
    assert fixed[0].numpy().tolist() == [[1, 0, 0], [2, 0, 0]]
    with pytest.raises(InvalidArgumentError, match=r"element 0 of the batch has shape \(3,\)"):
        list(Dataset.from_tensors([1, 2, 3]).padded_batch(1, padded_shapes=[2]))
    with pytest.raises(InvalidArgumentError, match="does not have the structure of the elements"):
        list(words.padded_batch(2, padded_shapes=[3]))


def test_unbatch_of_an_element_without_rows_fails_it_alone():
    it = iter(Dataset.from_generator(lambda: iter([[1, 2], 3, [4]]), ek.int32).unbatch())
    assert [int(next(it)), int(next(it))] == [1, 2]
    with pytest.raises(InvalidArgumentError, match="unbatch: every tensor of an element needs"):
        next(it)
    assert int(next(it)) == 4


def test_flat_map():
    def repeated(x):
        return Dataset.from_tensors(x).repeat(2)

    assert values(Dataset.range(3).flat_map(repeated)) == [0, 0, 1, 1, 2, 2]
    it = iter(Dataset.range(2).flat_map(lambda x: x))
    with pytest.raises(InvalidArgumentError, match="flat_map: map_func must return an ek.data"):
        next(it)


def test_cache_reads_the_steps_before_it_once_and_only_a_whole_pass():
    calls = []
    ds = Dataset.range(4).map(lambda x: calls.append(int(x)) or x).cache()
    assert values(ds.take(2)) == [0, 1]  # a pass that stops early keeps nothing
    assert values(ds) == [0, 1, 2, 3] and values(ds) == [0, 1, 2, 3]
    assert calls == [0, 1, 0, 1, 2, 3]
    epochs = Dataset.range(5).shuffle(5, seed=3).cache().repeat(2)
    order = values(epochs)
    assert order[:5] == order[5:]  # the cached order of the first epoch
    with pytest.raises(TypeError, match="cache: filename must be a string"):
        Dataset.range(2).cache(filename=None)


def test_reduce_as_numpy_iterator_and_len():
    ds = Dataset.from_tensor_slices([8, 3, 0, 8, 2, 1])
    total = ds.reduce(0, lambda state, value: state + value)
    assert total.dtype == ek.int32 and int(total) == 22
    count, last = Dataset.range(4).reduce(
        (ek.constant(0, ek.int64), ek.constant(-1, ek.int64)), lambda s, x: (s[0] + 1, x)
    )
    assert (int(count), int(last)) == (4, 3)
    with pytest.raises(TypeError, match="reduce_func must return a state like the initial"):
        ds.reduce(0, lambda state, value: ek.cast(state, ek.float32))
    pairs = list(Dataset.from_tensor_slices((np.arange(2.0), ["a", "b"])).as_numpy_iterator())
    assert pairs == [(0.0, b"a"), (1.0, b"b")] and isinstance(pairs[0][0], np.float64)
    assert len(Dataset.range(10).batch(3)) == 4 and len(Dataset.range(0)) == 0
    with pytest.raises(TypeError, match="The dataset is infinite"):
        len(Dataset.range(2).repeat())
    with pytest.raises(TypeError, match="The dataset length is unknown"):
        len(Dataset.range(4).filter(lambda x: x > 1))
    assert bool(Dataset.range(0)) and bool(Dataset.range(3).filter(lambda x: x > 1))


def test_from_generator_args_and_output_signature():
    def count(stop):
        assert isinstance(stop, np.integer)  # args come as numpy values, as in TF
        yield from range(stop)

    ds = Dataset.from_generator(count, args=[25], output_types=ek.int32, output_shapes=())
    assert [b.numpy().tolist()[:3] for b in ds.repeat().batch(10).take(3)] == [
        [0, 1, 2],
        [10, 11, 12],
        [20, 21, 22],
    ]
    signature = (ek.TensorSpec(shape=(), dtype=ek.int32), ek.TensorSpec((None,), ek.float32))
    series = Dataset.from_generator(lambda: iter([(1, [1.0, 2.0])]), output_signature=signature)
    [(i, x)] = list(series)
    assert (i.dtype, x.dtype, x.shape) == (ek.int32, ek.float32, (2,))
    wrong = Dataset.from_generator(
        lambda: iter([[1.0]]), output_signature=ek.TensorSpec((2,), ek.float32)
    )
    with pytest.raises(InvalidArgumentError, match=r"output_shapes says \(2,\)"):
        list(wrong)
    with pytest.raises(TypeError, match="output_signature alone"):
        Dataset.from_generator(count, ek.int32, output_signature=signature)
    with pytest.raises(TypeError, match="output_signature must be an ek.TensorSpec"):
        Dataset.from_generator(count, output_signature=ek.int32)
    with pytest.raises(InvalidArgumentError, match="give the elements' types"):
        Dataset.from_generator(count)


def test_get_single_element_take_while_and_apply():
    assert Dataset.from_tensors([1, 2]).get_single_element().numpy().tolist() == [1, 2]
    for wrong in (Dataset.range(0), Dataset.range(2)):
        with pytest.raises(InvalidArgumentError, match="must have exactly one element"):
            wrong.get_single_element()
    assert values(Dataset.range(10).take_while(lambda x: x < 3)) == [0, 1, 2]
    assert values(Dataset.range(3).repeat().take_while(lambda x: x < 2)) == [0, 1]

    def evens(ds):
        return ds.filter(lambda x: x % 2 == 0)

    assert values(Dataset.range(7).apply(evens)) == [0, 2, 4, 6]
    with pytest.raises(InvalidArgumentError, match="transformation_func must return an ek.data"):
        Dataset.range(3).apply(lambda ds: 3)
