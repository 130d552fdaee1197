"""ek.numpy_function (TF's tf.numpy_function) and ek.gradients (TF 1's symbolic gradients,
which TF 2 refuses eagerly): what ported TF code meets."""

import numpy as np
import pytest

import eagerkit as ek


def test_func_gets_numpy_arrays_and_its_results_become_tensors_of_tout():
    seen = []

    def cumulative(values, scale):
        seen.append((type(values), type(scale)))
        return np.cumsum(values) * scale  # float64: Tout says float32

    result = ek.numpy_function(cumulative, [ek.constant([1.0, 2.0, 3.0]), 2.0], Tout=ek.float32)
    assert result.dtype == ek.float32 and result.numpy().tolist() == [2.0, 6.0, 12.0]
    assert seen == [(np.ndarray, np.float32)]  # what .numpy() gives: a 0-d value as a scalar
    pair = ek.numpy_function(np.divmod, [ek.constant([7, 9]), 4], Tout=[ek.int32, ek.int32])
    assert [t.numpy().tolist() for t in pair] == [[1, 2], [3, 1]]


def test_func_cannot_change_the_tensors_it_was_given():
    x = ek.constant([1.0, 2.0])

    def scribble(values):
        values[0] = 99.0  # a copy: the tensor keeps its values
        return values

    assert ek.numpy_function(scribble, [x], Tout=ek.float32).numpy().tolist() == [99.0, 2.0]
    assert x.numpy().tolist() == [1.0, 2.0]


def test_nothing_flows_back_through_numpy():
    x = ek.Variable([1.0, 4.0])
    with ek.GradientTape(persistent=True) as tape:
        root = ek.numpy_function(np.sqrt, [x], Tout=ek.float32)
        y = ek.reduce_sum(root * x)
    assert tape.gradient(root, x) is None
    assert tape.gradient(y, x).numpy().tolist() == [1.0, 2.0]  # only the product's path


def test_in_ek_function_and_dataset_map_it_runs_at_every_call():
    calls = []

    def noted(values):
        calls.append(values.tolist())
        return values + 1

    @ek.function
    def plus_one(x):
        return ek.numpy_function(noted, [x], Tout=ek.float32) * 2.0

    assert plus_one(ek.constant([1.0])).numpy().tolist() == [4.0]
    assert plus_one(ek.constant([5.0])).numpy().tolist() == [12.0]
    assert calls == [[1.0], [5.0]]  # once per call: the trace's run is the first call's
    data = ek.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0])
    mapped = data.map(lambda v: ek.numpy_function(np.square, [v], Tout=ek.float32))
    assert [float(v) for v in mapped] == [1.0, 4.0, 9.0]


def test_decorator_form():
    @ek.numpy_function(Tout=ek.int64)
    def count_positive(values):
        return np.int64((values > 0).sum())

    assert int(count_positive(ek.constant([-1.0, 2.0, 3.0]))) == 2


@pytest.mark.parametrize(
    ("arguments", "error", "words"),
    [
        ((lambda a, b: a, [1.0], ek.float32), TypeError, "cannot take the 1 values of inp"),
        ((np.sqrt, [1.0], [ek.float32, ek.float32]), ValueError, "give Tout one dtype per"),
        ((np.sqrt, 1.0, ek.float32), TypeError, "inp must be the list of func's arguments"),
        ((np.sqrt, [1.0], None), TypeError, "give Tout"),
        (("sqrt", [1.0], ek.float32), TypeError, "func must be callable"),
    ],
    ids=["arity", "Tout count", "inp not a list", "no Tout", "not callable"],
)
def test_bad_calls_name_numpy_function_and_the_fix(arguments, error, words):
    with pytest.raises(error, match=words) as caught:
        ek.numpy_function(*arguments)
    assert "numpy_function" in str(caught.value)


def test_gradients_is_refused_eagerly_and_in_ek_function_with_the_tape_named():
    x = ek.constant(3.0)
    with pytest.raises(RuntimeError, match="not supported when eager execution is enabled"):
        ek.gradients(x * x, x)
    traced = ek.function(lambda v: ek.gradients(v * v, v))
    with pytest.raises(RuntimeError, match="inside ek.function") as caught:
        traced(x)
    assert "tape.gradient(ys, xs)" in str(caught.value)
