"""TF's types as TF prints and compares them: TensorShape, dtypes, device strings."""

import pickle

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"  # TF's full name


# --- TensorShape ---------------------------------------------------------------------------------
def test_tensor_shape_prints_as_tf():
    shape = ek.zeros([2, 3]).shape
    assert (str(shape), repr(shape)) == ("(2, 3)", "TensorShape([2, 3])")
    assert (str(ek.zeros([4]).shape), repr(ek.zeros([4]).shape)) == ("(4,)", "TensorShape([4])")
    assert (str(ek.constant(1.0).shape), repr(ek.constant(1.0).shape)) == ("()", "TensorShape([])")
    assert f"{shape}" == "(2, 3)" and "%s" % (shape,) == "(2, 3)"  # noqa: UP031 - seeds use %
    assert (
        str(ek.zeros([2, 3]))
        == "ek.Tensor(\n[[0. 0. 0.]\n [0. 0. 0.]], shape=(2, 3), dtype=float32)"
    )


def test_tensor_shape_compares_equal_to_tuples_and_lists():
    shape = ek.zeros([2, 3]).shape
    assert shape == (2, 3) and shape == [2, 3] and (2, 3) == shape and [2, 3] == shape
    assert shape != (3, 2) and shape != [2] and not (shape != [2, 3])
    assert shape != "(2, 3)" and shape != 6
    assert hash(shape) == hash((2, 3)) and {(2, 3): "found"}[shape] == "found"
    assert ek.Variable(ek.zeros([4, 1])).shape == [4, 1]


def test_tensor_shape_is_a_tuple_everywhere_a_shape_goes():
    shape = ek.zeros([2, 3]).shape
    rows, cols = shape
    assert (rows, cols) == (2, 3) and shape[-1] == 3 and len(shape) == 2
    assert np.zeros(shape).shape == (2, 3) and ek.reshape(ek.range(6), shape).shape == (2, 3)
    assert isinstance(shape[1:], ek.TensorShape) and shape[1:] == [3]
    assert shape + (4,) == [2, 3, 4] and isinstance(shape + [4], ek.TensorShape)
    assert (1,) + shape == (1, 2, 3) and isinstance((1,) + shape, ek.TensorShape)
    assert pickle.loads(pickle.dumps(shape)) == shape
    assert repr(pickle.loads(pickle.dumps(shape))) == "TensorShape([2, 3])"


def test_tensor_shape_speaks_tf():
    shape = ek.TensorShape([4, None, 3])
    assert repr(shape) == "TensorShape([4, None, 3])" and str(shape) == "(4, None, 3)"
    assert shape.as_list() == [4, None, 3] and shape.rank == shape.ndims == 3
    assert not shape.is_fully_defined() and shape.num_elements() is None
    assert ek.TensorShape([2, 3]).num_elements() == 6 and ek.TensorShape([]).num_elements() == 1
    assert shape.is_compatible_with([4, 7, 3]) and not shape.is_compatible_with([4, 7])
    assert ek.TensorShape([2]).concatenate([3]) == [2, 3]
    assert ek.TensorShape(3) == [3] and ek.TensorShape(ek.TensorShape([1])) == [1]
    assert ek.TensorShape([np.int64(2), 3.0]) == [2, 3]


@pytest.mark.parametrize("bad", [[2.5], [-1], [True], ["2"]])
def test_tensor_shape_refuses_what_is_not_a_size(bad):
    with pytest.raises(InvalidArgumentError, match="a dimension must be a whole number >= 0"):
        ek.TensorShape(bad)


# --- dtypes -------------------------------------------------------------------------------------
def test_dtypes_repr_like_tf():
    assert [repr(d) for d in (ek.int32, ek.float32, ek.bool)] == [
        "ek.int32",
        "ek.float32",
        "ek.bool",
    ]
    assert ek.constant([1, 2]).dtype == ek.int32 and str(ek.float64) == "<dtype: 'float64'>"
    assert repr(ek.constant([1.0]).dtype) == "ek.float32"


# --- device strings -----------------------------------------------------------------------------
def test_tensor_device_is_tfs_full_name():
    assert ek.constant(1.0).device == CPU and ek.Variable(1.0).device == CPU
    assert ek.devices.get_device("/cpu:0").full_name == CPU


@pytest.mark.parametrize(
    "spec",
    [
        "/cpu:0",
        "cpu:0",
        "CPU:0",
        "/CPU:0",
        "cpu",
        "/device:CPU:0",
        CPU,
        "/job:localhost/replica:0/task:0/cpu:0",
    ],
)
def test_every_spelling_names_the_cpu(spec):
    with ek.device(spec):
        assert ek.ones([1]).device == CPU
    assert ek.copy_to_device([1.0], spec).device == CPU


def test_the_simulated_device_has_a_full_name_and_answers_to_every_spelling():
    sim = "/job:localhost/replica:0/task:0/device:SIM:0"
    try:
        ek.devices.enable_simulated_gpu(as_gpu=True)
        for spec in [
            "/sim:0",
            "SIM:0",
            sim,
            "/gpu:0",
            "GPU:0",
            "/job:localhost/replica:0/task:0/device:GPU:0",
        ]:
            with ek.device(spec):
                assert ek.ones([1]).device == sim
        on_sim = ek.constant([1.0]).gpu()
        assert on_sim.device == sim and on_sim.cpu().device == CPU
        assert str(on_sim) == "ek.Tensor([1.], shape=(1,), dtype=float32, device=/sim:0)"
    finally:
        ek.devices.disable_simulated_gpu()


def test_a_device_name_that_is_not_one_is_refused():
    with pytest.raises(InvalidArgumentError, match="device name 'cpu:x' is not understood"):
        with ek.device("cpu:x"):
            pass
