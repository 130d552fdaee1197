"""Tracing as TF2 does it: results are tensors, leaked tensors are symbolic, specs with
unknown sizes, concrete functions called without their Python arguments, TF's signature
listings, reduce_retracing, TF's retracing warning, and bounded trace caches."""

import gc
import tracemalloc
import warnings

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.cache import MAX_TRACES, RetracingWarning


def test_results_are_tensors():
    two = ek.function(lambda: 1 + 1)()
    assert repr(two) == "<ek.Tensor: shape=(), dtype=int32, numpy=2>"
    result = ek.function(lambda x: {"sum": x + 1.0, "count": 3, "nothing": None})(ek.zeros([2]))
    assert repr(result["count"]) == "<ek.Tensor: shape=(), dtype=int32, numpy=3>"
    assert result["nothing"] is None
    with pytest.raises(TypeError, match="found return value of type <class 'object'>"):
        ek.function(lambda: object())()


def test_tensors_print_as_graph_nodes_while_tracing(capsys):
    @ek.function
    def double(a):
        print("Tracing with", a)
        b = a + a
        print(b)
        return b

    assert int(double(ek.constant(1))) == 2
    double(ek.constant(2))
    assert capsys.readouterr().out == (
        'Tracing with Tensor("a:0", shape=(), dtype=int32)\n'
        'Tensor("add:0", shape=(), dtype=int32)\n'
    )


def test_a_leaked_tensor_is_symbolic():
    leaked = []

    @ek.function
    def leaky(a):
        x = a + 1
        leaked.append(x)
        return x

    assert int(leaky(ek.constant(1))) == 2  # the result is a real tensor
    (x,) = leaked
    with pytest.raises(AttributeError, match="'SymbolicTensor' object has no attribute 'numpy'"):
        x.numpy()
    assert not hasattr(x, "numpy")
    assert str(x) == 'Tensor("add:0", shape=(), dtype=int32)'
    with pytest.raises(TypeError, match="is out of scope and cannot be used here"):
        ek.function(lambda b: b + x)(ek.constant(2))


def test_get_concrete_function_for_an_unknown_shape():
    def power(a, b):
        return a**b

    square = ek.function(power).get_concrete_function(a=ek.TensorSpec(None, ek.float32), b=2)
    assert float(square(ek.constant(10.0))) == 100.0
    np.testing.assert_allclose(square(ek.constant([[1.0, 2.0]])), [[1.0, 4.0]])
    assert float(square(ek.constant(3.0), b=2)) == 9.0  # the traced value again: fine
    with pytest.raises(TypeError, match="traced with the Python argument value 2 but got 3"):
        square(ek.constant(10.0), b=3)
    with pytest.raises(InvalidArgumentError, match="traced for tensors"):
        square(ek.constant(10))  # an int32 tensor: the spec is float32
    assert str(square) == (
        "ConcreteFunction Input Parameters:\n"
        "  a (POSITIONAL_OR_KEYWORD): TensorSpec(shape=<unknown>, dtype=ek.float32, name=None)\n"
        "  b (POSITIONAL_OR_KEYWORD): Literal[2]\n"
        "Output Type:\n"
        "  TensorSpec(shape=(), dtype=ek.float32, name=None)\n"
        "Captures:\n"
        "  None"
    )
    assert str(square.function_type) == (
        "(a: TensorSpec(shape=<unknown>, dtype=ek.float32, name=None), b: Literal[2]) -> "
        "TensorSpec(shape=(), dtype=ek.float32, name=None)"
    )


def test_pretty_printed_concrete_signatures_lists_every_trace():
    @ek.function
    def relu(x):
        return ek.maximum(0.0, x)

    relu(ek.constant(5.5))
    relu(ek.constant([3.0, -3.0]))
    assert relu.pretty_printed_concrete_signatures() == (
        "Input Parameters:\n"
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=ek.float32, name=None)\n"
        "Output Type:\n"
        "  TensorSpec(shape=(), dtype=ek.float32, name=None)\n"
        "Captures:\n"
        "  None\n\n"
        "Input Parameters:\n"
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2,), dtype=ek.float32, name=None)\n"
        "Output Type:\n"
        "  TensorSpec(shape=(2,), dtype=ek.float32, name=None)\n"
        "Captures:\n"
        "  None"
    )


def test_input_signature_mismatch_is_a_type_error_as_in_tf():
    @ek.function(input_signature=(ek.TensorSpec(shape=[None], dtype=ek.int32),))
    def next_collatz(x):
        return ek.where(x % 2 == 0, x // 2, 3 * x + 1)

    np.testing.assert_array_equal(next_collatz(ek.constant([1, 2])), [4, 1])
    with pytest.raises(TypeError, match="does not match its input_signature"):
        next_collatz(ek.constant([[1, 2], [3, 4]]))
    with pytest.raises(TypeError, match="dtype float32, which does not match"):
        next_collatz(ek.constant([1.0, 2.0]))


def test_reduce_retracing_generalizes_shapes(capsys):
    @ek.function(reduce_retracing=True)
    def g(x):
        print("Tracing with", x)
        return x

    for n in (3, 5, 7, 9):
        np.testing.assert_array_equal(g(ek.range(n)), np.arange(n))
    assert capsys.readouterr().out == (
        'Tracing with Tensor("x:0", shape=(3,), dtype=int32)\n'
        'Tracing with Tensor("x:0", shape=(None,), dtype=int32)\n'
    )
    assert g.trace_count == 2


def test_the_retracing_warning_after_five_traces():
    f = ek.function(lambda x: x + 1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(1, 5):
            f(ek.zeros([n]))
        assert not caught
        f(ek.zeros([5]))
    (warning,) = caught
    assert warning.category is RetracingWarning
    assert str(warning.message).startswith(
        "5 out of the last 5 calls to <function <lambda>> triggered tf.function retracing. "
        "Tracing is expensive and the excessive number of tracings could be due to (1) "
        "creating @tf.function repeatedly in a loop, (2) passing tensors with different shapes"
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(6, 12):
            f(ek.zeros([n]))
    assert not caught  # once per function


def test_traces_spread_over_many_calls_do_not_warn():
    f = ek.function(lambda x: x * 2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(1, 7):
            for _ in range(3):  # each shape used again: 1 trace in every 3 calls
                f(ek.zeros([n]))
    assert not caught


def test_the_trace_cache_keeps_the_most_recently_used():
    f = ek.function(lambda x: x * 2)
    hot = ek.zeros([1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RetracingWarning)
        for n in range(2, 2 + 3 * MAX_TRACES):
            f(hot)  # used at every step: never the least recently used
            f(ek.zeros([n]))
    traces = f.trace_count
    assert len(f._traces) == MAX_TRACES and len(f._by_tensor_shapes) == MAX_TRACES
    f(hot)
    assert f.trace_count == traces  # still cached
    f(ek.zeros([2]))
    assert f.trace_count == traces + 1  # long evicted: traced again


def test_a_soak_of_new_shapes_stays_flat_in_memory():
    """20,000 calls, each with a new shape: the traces kept stay at the bound, and the
    memory the function holds stops growing once the caches are full."""
    f = ek.function(lambda x: x + 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RetracingWarning)

        def calls(start, stop):
            for n in range(start, stop):
                f(ek.zeros([n % 97 + 1, n // 97 + 1]))  # every call a new shape

        calls(0, 2_000)
        gc.collect()
        tracemalloc.start()
        after_warmup = tracemalloc.get_traced_memory()[0]
        calls(2_000, 20_000)
        gc.collect()
        after_soak = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
    assert f.trace_count == 20_000
    assert len(f._traces) <= MAX_TRACES and len(f._by_tensor_shapes) <= MAX_TRACES
    assert after_soak - after_warmup < 1_000_000  # was +6.8 MB per 1,000 calls


def test_the_shape_key_cache_is_bounded_with_an_input_signature():
    f = ek.function(lambda x: x + 1.0, input_signature=[ek.TensorSpec([None])])
    for n in range(1, 3 * MAX_TRACES):
        f(ek.zeros([n]))
    assert f.trace_count == 1
    assert len(f._by_tensor_shapes) == MAX_TRACES


def test_run_functions_eagerly_runs_the_python_function(capsys):
    @ek.function
    def get_mse(y_true, y_pred):
        print("Calculating MSE!")
        return ek.reduce_mean(ek.pow(y_true - y_pred, 2))

    y_true, y_pred = ek.constant([1, 2, 3]), ek.constant([1, 1, 1])
    for _ in range(3):
        get_mse(y_true, y_pred)
    assert capsys.readouterr().out == "Calculating MSE!\n"
    ek.config.run_functions_eagerly(True)
    try:
        for _ in range(3):
            assert int(get_mse(y_true, y_pred)) == 1
        assert capsys.readouterr().out == "Calculating MSE!\n" * 3
        assert ek.config.functions_run_eagerly()
    finally:
        ek.config.run_functions_eagerly(False)
    get_mse(y_true, y_pred)
    assert capsys.readouterr().out == ""  # graphs again: no trace needed
    with pytest.raises(InvalidArgumentError, match="expected True or False"):
        ek.config.run_functions_eagerly("yes")
