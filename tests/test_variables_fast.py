"""A Variable's fast value check equals its step-by-step one, on the CPU and on /sim:0.

``Variable._checked`` takes a Tensor of the variable's dtype, shape and device (what an
update computed from a gradient is) as its array at once, and hands everything else to
``Variable._checked_in_full``, the reference. Hypothesis draws the values users assign (Tensors
of other dtypes, shapes and devices, Variables, numpy arrays, lists, Python numbers) and
both must give the same array or the same error.
"""

import contextlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError


@contextlib.contextmanager
def simulated_gpu():
    """``/sim:0`` for the block (a GPU's manners: no implicit copy to the host)."""
    try:
        yield ek.devices.enable_simulated_gpu()
    finally:
        ek.devices.disable_simulated_gpu()


def _made(kind, shape, dtype, sim):
    """A value of ``kind``: a Tensor, Variable, numpy array, list or Python float."""
    values = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) - 1
    if kind == "numpy":
        return values.astype(dtype)
    if kind == "list":
        return values.tolist()
    if kind == "float":
        return 0.5
    if sim is not None:
        with ek.device(sim):
            value = ek.constant(values, dtype=dtype)
    else:
        value = ek.constant(values, dtype=dtype)
    return ek.Variable(value) if kind == "variable" else value


def _outcome(check, value):
    """The array ``check`` gives (on the host, with its dtype), or its error."""
    try:
        array = check(value, "assign_sub")
    except InvalidArgumentError as error:
        return type(error), str(error)
    on_host = isinstance(array, np.ndarray | np.generic)
    host = ek.Tensor(array) if on_host else ek.Tensor(array, ek.devices.get_device("/sim:0"))
    return host.numpy().tolist(), str(host.dtype), on_host


@settings(max_examples=150, deadline=None)
@given(
    kind=st.sampled_from(["tensor", "variable", "numpy", "list", "float"]),
    shape=st.sampled_from([(3,), (2, 3), (3, 1), ()]),
    dtype=st.sampled_from(["float32", "float64", "int32"]),
    variable_on_sim=st.booleans(),
    value_on_sim=st.booleans(),
)
def test_the_fast_check_gives_what_the_reference_gives(
    kind, shape, dtype, variable_on_sim, value_on_sim
):
    initial = np.ones((2, 3), np.float32)
    with simulated_gpu() as sim:
        with ek.device(sim if variable_on_sim else "/cpu:0"):
            variable = ek.Variable(initial)
        value = _made(kind, shape, dtype, sim if value_on_sim else None)
        fast, reference = variable._checked, variable._checked_in_full
        assert _outcome(fast, value) == _outcome(reference, value)
        np.testing.assert_array_equal(variable.numpy(), initial)  # a check never writes


def test_an_update_of_our_kind_is_taken_as_it_is_on_every_device():
    with simulated_gpu() as sim:
        for device in ("/cpu:0", sim):
            with ek.device(device):
                w = ek.Variable([1.0, 2.0, 3.0])
                update = ek.constant([0.5, 0.5, 0.5])
            assert w._checked(update, "assign_sub") is update._data  # no copy, no host trip
            for check in (w._checked, w._checked_in_full):  # GPU arrays: no numpy conversion
                assert check(update, "assign") is update._data
            w.assign_sub(0.1 * update)  # the idiomatic step works on a GPU-like device too
            np.testing.assert_allclose(w.numpy(), [0.95, 1.95, 2.95])
