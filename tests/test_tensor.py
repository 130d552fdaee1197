"""The Tensor object: printing, numpy interop, Python protocols, immutability (reference A3, A4)."""

import copy
import pickle

import numpy as np
import pytest

import eagerkit as ek

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"  # TF's full name


# --- printing ---------------------------------------------------------------------------------
def test_str_is_tf_form():
    assert str(ek.matmul([[2.0]], [[2.0]])) == "ek.Tensor([[4.]], shape=(1, 1), dtype=float32)"
    x = ek.constant(np.array(2.0, np.float32))
    assert str(x + ek.constant(3.0) + 1) == "ek.Tensor(6.0, shape=(), dtype=float32)"


def test_str_puts_a_multi_line_value_on_its_own_lines():
    assert str(ek.constant([[1, 2], [3, 4]])) == (
        "ek.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)"
    )


def test_repr_is_tf2_form_without_ids():
    assert repr(ek.constant(3.0) * 2) == "<ek.Tensor: shape=(), dtype=float32, numpy=6.0>"
    assert repr(ek.constant([1.0, 2.0])) == (
        "<ek.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>"
    )
    assert repr(ek.constant(7) // 2) == "<ek.Tensor: shape=(), dtype=int32, numpy=3>"
    assert repr(ek.constant(True)) == "<ek.Tensor: shape=(), dtype=bool, numpy=True>"
    # a list of gradients prints its elements' reprs
    assert str([ek.constant(6.0)]) == "[<ek.Tensor: shape=(), dtype=float32, numpy=6.0>]"


def test_repr_puts_a_multi_line_value_on_its_own_lines_too():
    assert repr(ek.constant([[1, 2], [3, 4]])) == (
        "<ek.Tensor: shape=(2, 2), dtype=int32, numpy=\n"
        "array([[1, 2],\n       [3, 4]], dtype=int32)>"
    )
    assert repr(ek.Variable([[1.0], [2.0]], name="w")) == (
        "<ek.Variable 'w:0' shape=(2, 1) dtype=float32, numpy=\n"
        "array([[1.],\n       [2.]], dtype=float32)>"
    )


def test_printing_is_deterministic():
    assert repr(ek.constant(1.5)) == repr(ek.constant(1.5))


def test_format_delegates_to_numpy():
    assert f"{ek.constant(3.14159):.3f}" == "3.142"
    assert "hello, {}".format(ek.matmul([[2.0]], [[2.0]])) == "hello, [[4.]]"  # noqa: UP032
    assert f"{ek.constant(5)}" == "5"
    assert "%f" % ek.constant(2.5) == "2.500000"  # noqa: UP031 - %-formatting a tensor


# --- properties and numpy interop ---------------------------------------------------------------
def test_properties():
    x = ek.constant([[1.0, 2.0, 3.0]])
    assert x.shape == (1, 3) and x.get_shape() == (1, 3)
    assert x.ndim == 2 and x.size == 3
    assert x.dtype == ek.float32 and x.dtype is ek.float32
    assert x.device == CPU


def test_numpy_returns_ndarray_and_numpy_scalar_for_0d():
    x = ek.constant([1.0, 2.0, 3.0])
    assert type(x.numpy()) is np.ndarray
    assert x.numpy().dtype == np.float32
    assert type(ek.constant(2.0).numpy()) is np.float32


def test_numpy_functions_accept_tensors_and_return_numpy():
    x = ek.constant([1.0, 2.0, 3.0])
    squared = np.square(x)
    assert type(squared) is np.ndarray
    np.testing.assert_array_equal(squared, [1.0, 4.0, 9.0])
    assert np.asarray(x, dtype=np.float64).dtype == np.float64
    product = np.multiply(ek.add(1, 1), ek.add(np.array(1), np.array(1)))
    assert product == 4 and isinstance(product, np.integer)


def test_numpy_array_on_the_left_defers_to_the_tensor():
    result = np.array([1.0, 2.0]) * ek.constant([3.0, 4.0])
    assert isinstance(result, ek.Tensor) and result.dtype == ek.float32
    np.testing.assert_array_equal(result.numpy(), [3.0, 8.0])


# --- Python protocols -------------------------------------------------------------------------
def test_iteration_yields_rows_as_tensors():
    rows = list(ek.constant([[1.0, 2.0], [3.0, 4.0]]))
    assert len(rows) == 2
    assert all(isinstance(r, ek.Tensor) for r in rows)
    assert str(rows[1]) == "ek.Tensor([3. 4.], shape=(2,), dtype=float32)"
    assert [str(v) for v in ek.constant([1.0, 2.0, 3.0])] == [
        "ek.Tensor(1.0, shape=(), dtype=float32)",
        "ek.Tensor(2.0, shape=(), dtype=float32)",
        "ek.Tensor(3.0, shape=(), dtype=float32)",
    ]


def test_len_is_the_first_dimension():
    assert len(ek.zeros([4, 2])) == 4


def test_scalar_conversions():
    assert int(ek.constant(3.7)) == 3
    assert float(ek.constant(2.5)) == 2.5
    assert float(ek.constant([[2.5]])) == 2.5  # one element, any rank
    assert [10, 20, 30][ek.constant(1)] == 20  # __index__
    assert list(range(ek.constant(3))) == [0, 1, 2]
    assert complex(ek.constant(1.0)) == 1 + 0j


def test_truthiness_is_numpy_like():
    assert bool(ek.constant(0.0)) is False
    assert bool(ek.constant([1.0])) is True
    assert bool(ek.constant(True)) is True


def test_equality_is_elementwise_and_tensors_are_unhashable():
    result = ek.constant([1, 2]) == 2
    assert str(result) == "ek.Tensor([False  True], shape=(2,), dtype=bool)"
    assert (ek.constant(1.0) == None) is False  # noqa: E711 - testing the operator itself
    assert (ek.constant(1.0) != None) is True  # noqa: E711
    with pytest.raises(TypeError):
        hash(ek.constant(1.0))
    x = ek.constant(1.0)
    assert {x.ref(): "x"}[x.ref()] == "x"
    assert x.ref().deref() is x


# --- indexing -----------------------------------------------------------------------------------
def test_basic_indexing_matches_numpy():
    values = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = ek.constant(values)
    for key in [
        0,
        -1,
        (1, 2),
        (slice(None), 1),
        (Ellipsis, 0),
        (slice(None, None, -1), slice(1, None, 2)),
        (None, 0, Ellipsis),
        (ek.constant(1), slice(0, 2)),
    ]:
        np_key = (
            tuple(int(k) if isinstance(k, ek.Tensor) else k for k in key)
            if isinstance(key, tuple)
            else key
        )
        np.testing.assert_array_equal(x[key].numpy(), values[np_key])


def test_indexing_is_recorded_on_the_tape():
    x = ek.constant([[1.0, 2.0], [3.0, 4.0]])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x[1, 0] * 5.0 + x[0][1]
    assert [r.op.name for r in tape.records] == ["getitem", "multiply", "getitem", "getitem", "add"]
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [[0.0, 1.0], [5.0, 0.0]])


def test_iteration_is_recorded_too():
    x = ek.constant([1.0, 2.0, 3.0])
    with ek.GradientTape() as tape:
        tape.watch(x)
        total = ek.constant(0.0)
        for i, element in enumerate(x):
            total = total + element * float(i)
    np.testing.assert_array_equal(tape.gradient(total, x).numpy(), [0.0, 1.0, 2.0])


# --- immutability, copying, pickling ------------------------------------------------------------
def test_tensors_are_immutable():
    x = ek.constant([1.0, 2.0])
    with pytest.raises(TypeError):
        x[0] = 5.0
    assert copy.copy(x) is x and copy.deepcopy(x) is x


@pytest.mark.parametrize("make", [ek.constant, ek.Variable], ids=["tensor", "variable"])
@pytest.mark.parametrize(
    "to_array", [lambda t: t.numpy(), np.array, lambda t: np.array(t, dtype=np.float64)]
)
def test_numpy_and_np_array_give_copies_so_the_value_stays(make, to_array):
    """TF's ``numpy()`` copies ("Tensors are immutable"), and ``np.array`` asks for a copy:
    writing into the array leaves the tensor, or the variable, as it was."""
    x = make([[1.0, 2.0], [3.0, 4.0]])
    array = to_array(x)
    array[0, 0] = 9.0
    np.testing.assert_array_equal(x.numpy(), [[1.0, 2.0], [3.0, 4.0]])
    assert array.flags.writeable


def test_np_asarray_shares_the_tensors_memory_as_tfs_array_protocol():
    x = ek.constant([1.0, 2.0])
    assert np.shares_memory(np.asarray(x), np.asarray(x))  # no copy each time
    assert not np.shares_memory(x.numpy(), np.asarray(x))


def test_pickle_round_trips_the_value():
    x = ek.constant([[1, 2]], dtype=ek.int64)
    y = pickle.loads(pickle.dumps(x))
    assert y.dtype == ek.int64 and y.shape == (1, 2)
    np.testing.assert_array_equal(y.numpy(), [[1, 2]])


def test_graph_only_attributes_explain_eager_mode():
    x = ek.constant(1.0)
    with pytest.raises(AttributeError, match="meaningless when eager execution is enabled"):
        _ = x.op
    with pytest.raises(AttributeError, match="meaningless when eager execution is enabled"):
        _ = x.name
    with pytest.raises(NotImplementedError, match=r"is \.numpy\(\) what you're looking for\?"):
        x.eval()


def test_executing_eagerly():
    assert ek.executing_eagerly() is True


def test_each_operator_is_the_public_op_operators_py_names():
    from eagerkit import operators
    from eagerkit.registry import REGISTRY

    for symbol, name in {**operators.BINARY_OPERATORS, **operators.COMPARISONS}.items():
        # (matmul's is its primitive, _matmul: ek.matmul is a wrapper for the flags)
        assert getattr(ek.Tensor, f"__{symbol}__").__name__ in (name, f"_{name}"), symbol
    assert ek.Tensor.__mul__ is REGISTRY["multiply"].call  # the op itself: no extra call
    assert ek.Tensor.__matmul__ is REGISTRY["matmul"].call
    assert ek.Tensor.__neg__ is REGISTRY["negative"].call
    assert ek.Tensor.__invert__ is REGISTRY["logical_not"].call
    x = ek.constant([1.0, 2.0])
    assert (x == None) is False and (x != "text") is True  # noqa: E711
