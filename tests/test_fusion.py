"""Fused elementwise kernels (backends/fusion.py) give what their plain steps give, everywhere.

Every registered kernel is checked on generated inputs: on the CPU (numpy, or the faster
host version), on ``/sim:0`` (the fused path, one launch) and on Tensors (the steps as
recorded ops) it returns the very bits of its plain steps, in its first argument's dtype;
and on ``/sim:0`` it launches one kernel where its steps launch two or more.
tests/test_gpu.py runs the same kernels through ``cupy.fuse`` on a real GPU.
"""

import warnings

import numpy as np
import pytest
from device_suite import kernel_arguments, kernel_arity, outputs
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.backends import fusion
from eagerkit.backends.cupy_backend import FusedKernel
from eagerkit.backends.simulated import SimulatedBackend, counting
from eagerkit.devices import CPU

# A gather reads elements other than its own (a row's logit at its label): not elementwise
# over inputs of one shape, so it has a test of its own, against loops.
GATHERS = {"label_logit"}
KERNEL_NAMES = sorted(set(fusion.KERNELS) - GATHERS)
SIM = SimulatedBackend()


@st.composite
def kernel_inputs(draw, kernel):
    """Arrays of one random shape and dtype, and numbers in (0, 1) for an optimizer's rates.

    A VJP's later inputs may broadcast along the rows, as x and y of maximum(x, y) do; an
    optimizer's arrays (value, gradient, slots) all have the variable's shape, and are kept
    positive (Adam's v is a mean of squares). No input is near 0: several kernels divide.
    """
    arrays, numbers = kernel_arity(kernel)
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    shape = draw(st.lists(st.integers(1, 4), min_size=0, max_size=3).map(tuple))
    magnitudes = st.floats(0.25, 3, width=32)
    made = []
    for i in range(arrays):
        rows = i and shape and not numbers and draw(st.booleans())
        own = shape[1:] if rows else shape
        size = int(np.prod(own))
        values = np.array(draw(st.lists(magnitudes, min_size=size, max_size=size)), dtype)
        signs = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=size, max_size=size)))
        made.append((values * (1 if numbers else signs)).astype(dtype).reshape(own))
    scalars = [dtype(draw(st.floats(0.01, 0.99))) for _ in range(numbers)]
    return made, scalars


@pytest.mark.parametrize("name", KERNEL_NAMES)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_kernel_gives_its_plain_steps_bits_on_every_device(name, data):
    kernel = fusion.KERNELS[name]
    arrays, scalars = data.draw(kernel_inputs(kernel))
    expected = outputs(kernel.function(np, *arrays, *scalars))  # the plain steps, numpy
    on_cpu = outputs(getattr(CPU.xp.kernels, name)(*arrays, *scalars))
    on_sim = outputs(getattr(SIM.xp.kernels, name)(*[SIM.asarray(a) for a in arrays], *scalars))
    if kernel.recordable:  # a VJP's kernel: its steps as recorded ops give the same bits
        on_tensors = outputs(kernel.on_tensors(*[ek.constant(a) for a in arrays], *scalars))
    else:
        with pytest.raises(TypeError, match=f"the fused kernel '{name}' runs on arrays only"):
            kernel.on_tensors(*[ek.constant(a) for a in arrays], *scalars)
        on_tensors = [ek.constant(array) for array in expected]
    assert len(on_cpu) == len(on_sim) == len(on_tensors) == len(expected)
    for want, cpu, sim, tensor in zip(expected, on_cpu, on_sim, on_tensors, strict=True):
        assert want.dtype == arrays[0].dtype  # the contract: the first argument's dtype
        np.testing.assert_array_equal(cpu, want)
        np.testing.assert_array_equal(SIM.to_host(sim), want)
        np.testing.assert_array_equal(tensor.numpy(), want)
        assert cpu.dtype == SIM.to_host(sim).dtype == tensor.numpy().dtype == want.dtype


@pytest.mark.parametrize("name", KERNEL_NAMES)
def test_every_kernel_is_one_launch_where_its_steps_are_several(name):
    kernel = fusion.KERNELS[name]
    arrays, scalars = kernel_arguments(name, (3,), np.float32)
    inputs = [SIM.asarray(a) for a in arrays]
    with counting() as fused:
        getattr(SIM.xp.kernels, name)(*inputs, *scalars)
    with counting() as steps:
        kernel.function(SIM.xp, *inputs, *scalars)
    assert fused.kernels == 1
    assert steps.kernels >= 2, f"{name} is a single step: fusing it saves nothing"
    assert fused.host_reads == steps.host_reads == 0


@st.composite
def rows_and_labels(draw):
    """Logits (n, classes), C-ordered or a transposed view, in float32 or float64, and
    labels (n, k) of an int dtype, some out of range (negative, or classes and above)."""
    n, classes, k = draw(st.integers(0, 4)), draw(st.integers(0, 5)), draw(st.integers(1, 3))
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    values = draw(
        st.lists(st.floats(-10, 10, width=32), min_size=n * classes, max_size=n * classes)
    )
    rows = np.array(values, dtype).reshape(n, classes)
    if draw(st.booleans()):
        rows = rows.T.copy().T  # the same values, column-major: the strides differ
    label_dtype = draw(st.sampled_from([np.int32, np.int64, np.uint8]))
    low = 0 if label_dtype == np.uint8 else -2
    labels = draw(st.lists(st.integers(low, classes + 1), min_size=n * k, max_size=n * k))
    return rows, np.array(labels, label_dtype).reshape(n, k)


@settings(max_examples=80, deadline=None)
@given(rows_and_labels())
def test_label_logit_picks_each_rows_logit_at_its_label_in_one_launch(rows_labels):
    rows, labels = rows_labels
    n, classes = rows.shape
    expected = np.zeros(labels.shape, rows.dtype)
    for r, k in np.ndindex(labels.shape):
        if 0 <= labels[r, k] < classes:
            expected[r, k] = rows[r, labels[r, k]]
    on_cpu = CPU.xp.kernels.label_logit(rows, labels)
    with counting() as launched:
        on_sim = SIM.xp.kernels.label_logit(SIM.asarray(rows), SIM.asarray(labels))
    for got in (on_cpu, SIM.to_host(on_sim)):
        assert got.dtype == rows.dtype and got.shape == labels.shape
        np.testing.assert_array_equal(got, expected)
    assert launched.kernels == 1 and launched.host_reads == 0


def test_vjps_ask_for_kernels_by_name_and_record_their_steps_on_tensors():
    x = ek.constant([-1.0, 0.5, 2.0])
    with ek.GradientTape() as outer:
        outer.watch(x)
        with ek.GradientTape() as inner:
            inner.watch(x)
            y = ek.reduce_sum(ek.tanh(x) * ek.sigmoid(x))
        dy = inner.gradient(y, x)  # under an outer tape: the kernels' steps, recorded
    d2y = outer.gradient(dy, x)
    t, s = np.tanh(x.numpy()), 1 / (1 + np.exp(-x.numpy()))
    np.testing.assert_allclose(dy.numpy(), (1 - t * t) * s + t * s * (1 - s), rtol=1e-5)
    second = (
        -2 * t * (1 - t * t) * s + 2 * (1 - t * t) * s * (1 - s) + t * s * (1 - s) * (1 - 2 * s)
    )
    np.testing.assert_allclose(d2y.numpy(), second, rtol=1e-4)


def test_kernel_names_are_unique_and_unknown_names_say_so():
    with pytest.raises(ValueError, match="a fused kernel named 'tanh_grad' exists already"):
        fusion.elementwise("tanh_grad")(lambda xp, g: g)
    with pytest.raises(AttributeError, match="no fused kernel named 'no_such'"):
        CPU.xp.kernels.no_such  # noqa: B018 - the lookup is the test
    with pytest.raises(AttributeError, match="no primitive op or fused kernel named 'no_such'"):
        ek.registry.ArrayOps(CPU).no_such  # noqa: B018


# --- cupy.fuse's failure path, with a stand-in for cupy --------------------------------------
def _refuses(*arrays):
    raise NotImplementedError("this operation is not supported in fusion")


class _CupyThatCannotFuse:
    made = []  # the ElementwiseKernels asked for: (arguments, keywords)

    @staticmethod
    def fuse(function):
        return _refuses

    @classmethod
    def ElementwiseKernel(cls, *arguments, **keywords):  # noqa: N802 - cupy's name
        cls.made.append((arguments, keywords))
        return _refuses


def test_a_kernel_with_a_cuda_body_is_an_elementwise_kernel_and_falls_back_to_its_steps():
    gather = fusion.KERNELS["label_logit"]
    kernel = FusedKernel(_CupyThatCannotFuse, CPU.xp, gather.function, "label_logit", gather.cuda)
    arguments, keywords = _CupyThatCannotFuse.made[-1]
    assert arguments == gather.cuda
    assert keywords == {"name": "label_logit", "reduce_dims": False}  # _ind.get() needs it
    rows, labels = np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[1], [5]])
    with pytest.warns(RuntimeWarning, match="cupy could not fuse the kernel 'label_logit'"):
        np.testing.assert_array_equal(kernel(rows, labels), [[2.0], [0.0]])


def test_a_kernel_cupy_cannot_fuse_runs_as_steps_with_one_warning():
    kernel = FusedKernel(_CupyThatCannotFuse, CPU.xp, fusion.KERNELS["tanh_grad"].function, "k")
    g, ans = np.ones(3), np.array([0.0, 0.5, 1.0])
    with pytest.warns(RuntimeWarning, match="cupy could not fuse the kernel 'k'.*not supported"):
        first = kernel(g, ans)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no second warning: the steps run from now on
        second = kernel(g, ans)
    np.testing.assert_array_equal(first, [1.0, 0.75, 0.0])
    np.testing.assert_array_equal(second, first)


def test_an_error_the_steps_raise_too_is_the_users_and_no_warning():
    kernel = FusedKernel(_CupyThatCannotFuse, CPU.xp, fusion.KERNELS["tanh_grad"].function, "k")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="could not be broadcast"):
            kernel(np.ones(3), np.ones(2))
