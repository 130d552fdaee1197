"""ek.random: TF2's seed rules, Generators, stateless ops, dtypes and devices."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.backends.simulated import SimArray
from eagerkit.errors import InvalidArgumentError

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"  # TF's full device names
SIM = "/job:localhost/replica:0/task:0/device:SIM:0"


def _values(tensor):
    return tensor.numpy().tolist()


def test_tf1_names_are_the_tf2_functions():
    assert ek.random_normal is ek.random.normal
    assert ek.random_uniform is ek.random.uniform
    assert ek.truncated_normal is ek.random.truncated_normal
    assert ek.set_random_seed is ek.random.set_seed


def test_global_seed_makes_every_stream_repeatable():
    ek.random.set_seed(7)
    first = [_values(ek.random.normal([3])), _values(ek.random.uniform([3]))]
    ek.random.set_seed(7)
    second = [_values(ek.random.normal([3])), _values(ek.random.uniform([3]))]
    assert first == second
    assert first[0] != _values(ek.random.normal([3]))  # the stream moves on


def test_an_op_seed_is_its_own_stream_restarted_by_set_seed():
    # TF2's documented behaviour: with seed=1, two calls give A1 then A2; set_seed restarts.
    ek.random.set_seed(1234)
    a1, a2 = _values(ek.random.uniform([2], seed=1)), _values(ek.random.uniform([2], seed=1))
    other = _values(ek.random.uniform([2], seed=2))
    ek.random.set_seed(1234)
    assert _values(ek.random.uniform([2], seed=1)) == a1
    assert a1 != a2 and other not in (a1, a2)
    # The global stream is untouched by op-seeded draws.
    ek.random.set_seed(1234)
    plain = _values(ek.random.uniform([2]))
    ek.random.set_seed(1234)
    ek.random.uniform([2], seed=1)
    assert _values(ek.random.uniform([2])) == plain


def test_without_any_seed_the_numbers_differ():
    ek.random.set_seed(None)
    assert _values(ek.random.normal([4])) != _values(ek.random.normal([4]))


def test_distributions_have_the_right_shape_dtype_and_moments():
    ek.random.set_seed(0)
    normal = ek.random.normal([20000], mean=5.0, stddev=0.5).numpy()
    assert normal.dtype == np.float32
    assert abs(normal.mean() - 5.0) < 0.02 and abs(normal.std() - 0.5) < 0.02
    uniform = ek.random.uniform([20000], -2.0, 3.0, dtype=ek.float64).numpy()
    assert uniform.dtype == np.float64 and -2.0 <= uniform.min() and uniform.max() < 3.0
    assert abs(uniform.mean() - 0.5) < 0.05
    truncated = ek.random.truncated_normal([20000], stddev=2.0).numpy()
    assert np.abs(truncated).max() <= 4.0 and truncated.std() > 1.5
    integers = ek.random.uniform([1000], 3, 7, dtype=ek.int64).numpy()
    assert integers.dtype == np.int64 and set(integers.tolist()) == {3, 4, 5, 6}
    assert ek.random.normal(ek.constant([2, 3])).shape == (2, 3)  # a shape tensor
    assert ek.random.uniform(4).shape == (4,)


def test_bad_arguments_are_refused_with_the_op_named():
    with pytest.raises(InvalidArgumentError, match="random.normal: dtype must be a float type"):
        ek.random.normal([2], dtype=ek.int32)
    with pytest.raises(InvalidArgumentError, match="truncated_normal: dtype must be a float"):
        ek.truncated_normal([2], dtype="int64")
    with pytest.raises(InvalidArgumentError, match="integer dtype int32 needs maxval"):
        ek.random.uniform([2], dtype=ek.int32)
    with pytest.raises(InvalidArgumentError, match="minval and maxval must be an integer"):
        ek.random.uniform([2], 0, 2.5, dtype=ek.int32)
    with pytest.raises(InvalidArgumentError, match="need minval < maxval"):
        ek.random.uniform([2], 5, 5, dtype=ek.int32)
    with pytest.raises(InvalidArgumentError, match="each dimension of shape must be an integer"):
        ek.random.normal([2.5])
    with pytest.raises(InvalidArgumentError, match="each dimension of shape must be >= 0"):
        ek.random.uniform([-1])
    with pytest.raises(InvalidArgumentError, match="seed must be an integer, got float"):
        ek.random.normal([2], seed=1.5)
    with pytest.raises(InvalidArgumentError, match="mean, stddev, minval and maxval must be"):
        ek.random.normal([2], stddev="wide")
    with pytest.raises(InvalidArgumentError, match="shuffle: value must have rank >= 1"):
        ek.random.shuffle(3.0)


def test_drawing_inside_a_graph_draws_at_every_call():
    @ek.function
    def noisy(x):
        return x + ek.random.normal([2])

    first, second = noisy(ek.zeros([2])), noisy(ek.zeros([2]))
    assert noisy.trace_count == 1
    assert not np.array_equal(first.numpy(), second.numpy())  # TF: a new draw per call


def test_the_same_numbers_on_every_device():
    ek.devices.enable_simulated_gpu()
    try:
        ek.random.set_seed(3)
        on_cpu = [ek.random.normal([4]), ek.random.uniform([4], seed=9)]
        ek.random.set_seed(3)
        with ek.device("/sim:0"):
            on_sim = [ek.random.normal([4]), ek.random.uniform([4], seed=9)]
            shuffled = ek.random.shuffle(ek.range(5), seed=1)
            drawn = ek.random.Generator.from_seed(2).normal([3])
    finally:
        ek.devices.disable_simulated_gpu()
    for cpu, sim in zip(on_cpu, on_sim, strict=True):
        assert sim.device == SIM and isinstance(sim._data, SimArray)
        np.testing.assert_array_equal(sim.numpy(), cpu.numpy())
    assert shuffled.device == drawn.device == SIM
    np.testing.assert_array_equal(drawn.numpy(), ek.random.Generator.from_seed(2).normal([3]))


def test_generators_hold_their_own_state():
    g = ek.random.Generator.from_seed(42)
    first = _values(g.uniform([3]))
    ek.random.set_seed(0)  # the global seed does not touch a Generator
    second = _values(g.uniform([3]))
    g.reset_from_seed(42)
    assert _values(g.uniform([3])) == first != second
    left, right = ek.random.Generator.from_seed(42).split(2)
    assert _values(left.normal([3])) != _values(right.normal([3]))
    assert ek.random.Generator.from_seed([1, 2]).truncated_normal([5]).shape == (5,)
    ek.random.set_global_generator(ek.random.Generator.from_seed(5))
    assert _values(ek.random.get_global_generator().normal([2])) == _values(
        ek.random.Generator.from_seed(5).normal([2])
    )
    with pytest.raises(InvalidArgumentError, match="expected an ek.random.Generator"):
        ek.random.set_global_generator(5)
    with pytest.raises(InvalidArgumentError, match="Generator.normal: dtype must be a float"):
        g.normal([2], dtype=ek.int32)


def test_stateless_ops_depend_only_on_the_seed():
    a = ek.random.stateless_normal([3], seed=[1, 2])
    ek.random.normal([5])  # nothing else moves them
    assert _values(ek.random.stateless_normal([3], seed=[1, 2])) == _values(a)
    assert _values(ek.random.stateless_normal([3], seed=[2, 1])) != _values(a)
    values = ek.random.stateless_uniform([100], seed=[0, 0], minval=1, maxval=4, dtype=ek.int32)
    assert set(values.numpy().tolist()) == {1, 2, 3}
    assert ek.random.stateless_truncated_normal([3], seed=[3, 4]).dtype == ek.float32
    with pytest.raises(InvalidArgumentError, match="seed must be a pair of integers"):
        ek.random.stateless_normal([3], seed=1)


def test_shuffle_permutes_the_first_axis():
    x = ek.reshape(ek.range(12), [6, 2])
    ek.random.set_seed(1)
    shuffled = ek.random.shuffle(x)
    assert sorted(map(tuple, shuffled.numpy().tolist())) == sorted(map(tuple, x.numpy().tolist()))
    ek.random.set_seed(1)
    np.testing.assert_array_equal(ek.random.shuffle(x).numpy(), shuffled.numpy())


def test_categorical_draws_classes_by_softmax_probabilities():
    ek.random.set_seed(0)
    draws = ek.random.categorical(np.log([[0.2, 0.5, 0.3], [1.0, 1e-9, 1e-9]]), 20000)
    assert draws.dtype == ek.int64 and draws.shape == (2, 20000)
    shares = np.bincount(draws.numpy()[0], minlength=3) / 20000
    np.testing.assert_allclose(shares, [0.2, 0.5, 0.3], atol=0.015)
    assert set(draws.numpy()[1].tolist()) == {0}
    assert ek.multinomial([[0.0, 0.0]], 2, ek.int32).dtype == ek.int32  # TF1's name
    assert ek.random.categorical(np.zeros((0, 3)), 2).shape == (0, 2)
    with pytest.raises(InvalidArgumentError, match="logits must be a float matrix"):
        ek.random.categorical([1.0, 2.0], 1)
    with pytest.raises(InvalidArgumentError, match="num_samples must be an integer"):
        ek.random.categorical([[1.0, 2.0]], 1.5)


def test_a_generator_in_a_graph_draws_and_resets_at_every_call():
    g = ek.random.Generator.from_seed(1)

    @ek.function
    def restarted():
        g.reset_from_seed(1)  # an assign in the graph: it runs at each call, before the draws
        return ek.stack([g.normal([]), g.normal([])])

    @ek.function
    def moving_on():
        return g.uniform([2])

    eager = ek.random.Generator.from_seed(1)
    expected = [eager.normal([]).numpy(), eager.normal([]).numpy()]
    assert restarted().numpy().tolist() == restarted().numpy().tolist() == expected
    assert g.state.numpy().tolist() == eager.state.numpy().tolist()
    first, second = moving_on(), moving_on()  # the trace drew nothing: two draws in all
    assert first.numpy().tolist() == eager.uniform([2]).numpy().tolist()
    assert second.numpy().tolist() == eager.uniform([2]).numpy().tolist()
    assert restarted.trace_count == moving_on.trace_count == 1
