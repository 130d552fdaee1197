"""A list holding tensors, given where a tensor belongs, is packed with ek.stack (TF's
auto-packing): recorded, so every element gets its gradient, on the elements' device; a list
of plain numbers takes numpy's fast path, proven equal to packing it element by element."""

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

FINITE = st.floats(-100, 100, width=32)


@st.composite
def same_shape_arrays(draw, min_count=1):
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=2, max_side=3))
    count = draw(st.integers(min_count, 4))
    return [draw(hnp.arrays(np.float32, shape, elements=FINITE)) for _ in range(count)]


@settings(max_examples=40, deadline=None)
@given(arrays=same_shape_arrays(), seed=st.integers(0, 2**16))
def test_a_list_of_tensors_given_to_an_op_is_ek_stack_in_values_and_gradients(arrays, seed):
    rng = np.random.default_rng(seed)
    upstream = ek.constant(rng.uniform(0.5, 2.0, (len(arrays), *arrays[0].shape)), ek.float32)

    def gradients(pack):
        xs = [ek.Variable(a) for a in arrays]
        with ek.GradientTape() as tape:
            y = ek.multiply(pack([x * x for x in xs]), upstream)  # the list goes to an op
        return y.numpy(), [g.numpy() for g in tape.gradient(y, xs)]

    got, got_grads = gradients(lambda values: values)
    want, want_grads = gradients(ek.stack)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    for mine, theirs in zip(got_grads, want_grads, strict=True):
        np.testing.assert_allclose(mine, theirs, rtol=1e-6)


def test_tf_documented_pack_example_through_convert_to_tensor_and_an_op():
    # TF's Pack: x = [1, 4], y = [2, 5], z = [3, 6]; pack([x, y, z]) => [[1, 4], [2, 5], [3, 6]]
    x, y, z = ek.constant([1, 4]), ek.constant([2, 5]), ek.constant([3, 6])
    want = [[1, 4], [2, 5], [3, 6]]
    assert ek.convert_to_tensor([x, y, z]).numpy().tolist() == want
    assert ek.add([x, y, z], 0).numpy().tolist() == want
    assert ek.convert_to_tensor([x, y, z]).dtype == ek.int32


def test_the_loss_that_lost_its_gradient_now_has_it():
    a, b = ek.Variable(1.0), ek.Variable(5.0)
    with ek.GradientTape() as tape:
        loss = ek.reduce_sum([(a - 3.0) ** 2, (b - 3.0) ** 2])
    assert [float(g) for g in tape.gradient(loss, [a, b])] == [-4.0, 4.0]


def test_nested_lists_and_plain_numbers_take_the_tensors_dtype_and_pass_gradients():
    x = ek.Variable(2.0, dtype=ek.float64)
    with ek.GradientTape() as tape:
        packed = ek.convert_to_tensor([[x, 1], [2.5, x * 3.0]])
        total = ek.reduce_sum(packed)
    assert packed.dtype == ek.float64
    assert packed.numpy().tolist() == [[2.0, 1.0], [2.5, 6.0]]
    assert float(tape.gradient(total, x)) == 4.0


def test_packing_happens_on_the_elements_device_and_gradients_come_back():
    ek.devices.enable_simulated_gpu()
    x = ek.copy_to_device(ek.constant([1.0, 2.0]), "/sim:0")
    with ek.GradientTape() as tape:
        tape.watch(x)
        packed = ek.convert_to_tensor([x, [3.0, 4.0]])
        total = ek.reduce_sum(packed * packed)
    assert packed.device.endswith("SIM:0")
    grad = tape.gradient(total, x)
    assert grad.device.endswith("SIM:0") and grad.numpy().tolist() == [2.0, 4.0]


@pytest.mark.parametrize(
    ("values", "words"),
    [
        (lambda: [ek.ones([2]), ek.ones([3])], ["reduce_sum", "shapes [2]", "[3]", "element 1"]),
        (lambda: [[ek.ones([2])], [ek.ones([2]), ek.ones([2])]], ["reduce_sum", "shapes"]),
        (
            lambda: [ek.ones([2]), ek.ones([2], dtype=ek.float64)],
            ["reduce_sum", "float32", "float64", "ek.cast"],
        ),
    ],
)
def test_ragged_or_mixed_lists_are_refused_naming_the_call(values, words):
    with ek.GradientTape() as tape:
        with pytest.raises(InvalidArgumentError) as raised:
            ek.reduce_sum(values())
    assert all(word in str(raised.value) for word in words), str(raised.value)
    assert "ek.stack" in str(raised.value)
    del tape


@settings(max_examples=40, deadline=None)
@given(
    widths=st.lists(st.integers(2, 3), min_size=1, max_size=3),
    odd=st.sampled_from(["shape", "dtype"]),
    data=st.data(),
)
def test_a_list_that_cannot_be_packed_records_nothing(widths, odd, data):
    """Its inner lists are checked before any is stacked: the tape keeps only what the user
    recorded, and the gradient through it is untouched."""
    x = ek.Variable(2.0)
    with ek.GradientTape(persistent=True) as tape:
        y = x * 3.0
        misfit = ek.reshape(y, [1]) if odd == "shape" else ek.cast(y, ek.float64)
        recorded = len(tape.records)

        def nested(level, path):
            if level == len(widths):
                return misfit if path == where else y
            return [nested(level + 1, [*path, i]) for i in range(widths[level])]

        where = [data.draw(st.integers(0, width - 1)) for width in widths]
        with pytest.raises(InvalidArgumentError, match=f"{odd}s .*element"):
            ek.reduce_sum(nested(0, []))
        assert len(tape.records) == recorded
    assert float(tape.gradient(y, x)) == 3.0


def test_a_dtype_asked_for_is_not_ignored():
    with pytest.raises(InvalidArgumentError, match="float32.*float64|float64.*float32"):
        ek.convert_to_tensor([ek.ones([2]), ek.ones([2])], dtype=ek.float64)
    packed = ek.convert_to_tensor([ek.ones([2], dtype=ek.float64), [1, 2]], dtype=ek.float64)
    assert packed.dtype == ek.float64 and packed.numpy().tolist() == [[1, 1], [1, 2]]


def test_constant_reads_a_list_of_tensors_without_recording_as_tf_constant_does():
    x = ek.Variable(2.0)
    with ek.GradientTape() as tape:
        y = ek.reduce_sum(ek.constant([x, 1.0]))
    assert float(y) == 3.0 and tape.gradient(y, x) is None


def _packed_one_by_one(value):
    """The plain reference: each element converted, then stacked (what packing does)."""
    if isinstance(value, list):
        return ek.stack([_packed_one_by_one(v) for v in value])
    return ek.convert_to_tensor(value)


def _nested(leaves):
    shape = hnp.array_shapes(min_dims=1, max_dims=3, max_side=3)
    return shape.flatmap(lambda s: hnp.arrays(object, s, elements=leaves)).map(lambda a: a.tolist())


@settings(max_examples=60, deadline=None)
@given(value=_nested(FINITE) | _nested(st.integers(-(2**20), 2**20)))
def test_plain_number_lists_take_the_fast_path_equal_to_packing_one_by_one(value):
    fast, reference = ek.convert_to_tensor(value), _packed_one_by_one(value)
    assert fast.dtype == reference.dtype and fast.shape == reference.shape
    np.testing.assert_array_equal(fast.numpy(), reference.numpy())
