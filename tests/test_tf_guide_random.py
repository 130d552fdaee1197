"""TF2's guide "Random number generation", ported with ``import eagerkit as tf``.

The numbers are numpy's Philox, not TF's bits, so each test checks what the guide promises
(the same state, the same numbers; a state that moves on; independent streams; what a
checkpoint brings back) rather than the values it prints. Left out:

- the setup's virtual CPUs (``tf.config.experimental.set_virtual_device_configuration``) and
  every ``tf.distribute.MirroredStrategy`` example (generators made outside, inside, saved
  and restored within strategies): eagerkit has no distribution strategies;
- the SavedModel example (``tf.saved_model.save``/``load`` of a module holding a generator):
  eagerkit has no ``tf.saved_model``; its state is checkpointed here instead;
- ``alg='threefry'``, which TF runs on XLA devices only: eagerkit refuses it (tested below).
"""

import numpy as np
import pytest

import eagerkit as tf
from eagerkit.errors import InvalidArgumentError


def _numbers(tensors):
    return [t.numpy().tolist() for t in tensors]


def test_generator_from_seed_and_the_global_generator():
    g1 = tf.random.Generator.from_seed(1)
    first = g1.normal(shape=[2, 3])
    g2 = tf.random.get_global_generator()
    assert g2 is tf.random.get_global_generator()  # made once
    assert first.shape == g2.normal(shape=[2, 3]).shape == (2, 3)
    assert first.dtype == tf.float32
    g1 = tf.random.Generator.from_seed(1, alg="philox")
    assert g1.normal(shape=[2, 3]).numpy().tolist() == first.numpy().tolist()
    g = tf.random.Generator.from_non_deterministic_state()
    assert g.normal(shape=[2, 3]).shape == (2, 3)
    assert tf.random.Generator.from_seed(1, alg=tf.random.Algorithm.PHILOX).algorithm == 1
    with pytest.raises(InvalidArgumentError, match="ThreeFry runs on XLA devices"):
        tf.random.Generator.from_seed(1, alg="threefry")
    with pytest.raises(InvalidArgumentError, match="unknown algorithm alg='mersenne'"):
        tf.random.Generator.from_seed(1, alg="mersenne")
    assert tf.random.Algorithm(3) is tf.random.Algorithm.AUTO_SELECT
    with pytest.raises(ValueError, match="no algorithm numbered int 7; use 1 .PHILOX."):
        tf.random.Algorithm(7)  # a ValueError, as a Python Enum's in TF


def test_reset_from_seed_starts_the_stream_again():
    g = tf.random.Generator.from_seed(1)
    a, b = g.normal([]), g.normal([])
    g.reset_from_seed(1)
    c = g.normal([])
    assert a.shape == () and a.numpy() != b.numpy() and c.numpy() == a.numpy()


def test_the_state_is_a_variable_that_moves_on_with_each_draw():
    g = tf.random.Generator.from_seed(1234)
    assert isinstance(g.state, tf.Variable) and g.state.dtype == tf.int64
    before = g.state.numpy().copy()
    drawn = g.normal(shape=(2, 3))
    assert g.state.numpy()[2] == before[2] and g.state.numpy()[0] > before[0]  # counter moves
    g.reset(before)
    assert g.normal(shape=(2, 3)).numpy().tolist() == drawn.numpy().tolist()
    same = tf.random.Generator.from_state(before, alg="philox")
    assert same.normal(shape=(2, 3)).numpy().tolist() == drawn.numpy().tolist()
    keyed = tf.random.Generator.from_key_counter(before[2], before[:2], alg="philox")
    assert keyed.normal(shape=(2, 3)).numpy().tolist() == drawn.numpy().tolist()
    copy = tf.random.Generator(copy_from=g)
    assert copy.uniform([4]).numpy().tolist() == g.uniform([4]).numpy().tolist()
    full = g.uniform_full_int([1000], dtype=tf.int32).numpy()
    assert full.dtype == np.int32 and full.min() < -(2**30) and full.max() > 2**30
    with pytest.raises(InvalidArgumentError, match=r"3 integers .* got list \[1, 2\]; pass e\.g\."):
        g.reset([1, 2])
    with pytest.raises(InvalidArgumentError, match="counter is two integers"):
        tf.random.Generator.from_key_counter(7, [], alg="philox")


def test_split_makes_independent_streams():
    g = tf.random.Generator.from_seed(1)
    first = g.normal([])
    new_gs = g.split(3)
    drawn = [new_g.normal([]).numpy() for new_g in new_gs]
    after = g.normal([])
    assert len(set(drawn)) == 3 and first.numpy() not in drawn and after.numpy() not in drawn
    twin = tf.random.Generator.from_seed(1)
    twin.normal([])
    twin.split(3)
    assert twin.normal([]).numpy() == after.numpy()  # split moved g's state, repeatably
    with tf.device("cpu"):  # change "cpu" to the device you want
        g = tf.random.get_global_generator().split(1)[0]
        assert g.normal([]).device.endswith("CPU:0")


def test_a_generator_made_outside_tf_function_moves_on_at_each_call():
    g = tf.random.Generator.from_seed(1)

    @tf.function
    def foo():
        return g.normal([])

    eager = tf.random.Generator.from_seed(1)
    assert _numbers([foo(), foo()]) == _numbers([eager.normal([]), eager.normal([])])
    assert g.state.numpy().tolist() == eager.state.numpy().tolist()  # the trace drew nothing


def test_a_generator_made_inside_tf_function_on_its_first_call():
    made = []

    @tf.function
    def foo():
        if not made:
            made.append(tf.random.Generator.from_seed(1))
        return made[0].normal([])

    eager = tf.random.Generator.from_seed(1)
    assert _numbers([foo(), foo()]) == _numbers([eager.normal([]), eager.normal([])])


def test_generator_and_variable_arguments_retrace():
    traces = []

    @tf.function
    def foo(g):
        traces.append(1)
        return g.normal([])

    foo(tf.random.Generator.from_seed(1))
    foo(tf.random.Generator.from_seed(2))
    assert len(traces) == 2
    reads = []

    @tf.function
    def bar(v):
        reads.append(1)
        return v.read_value()

    bar(tf.Variable(1))
    bar(tf.Variable(2))
    assert len(reads) == 2


def test_a_checkpoint_restores_the_stream(tmp_path):
    filename = str(tmp_path / "checkpoint")
    g = tf.random.Generator.from_seed(1)
    cp = tf.train.Checkpoint(generator=g)
    g.normal([])
    cp.write(filename)
    from_saving = _numbers([g.normal([]), g.normal([])])
    cp.restore(filename)
    assert _numbers([g.normal([]), g.normal([])]) == from_saving
    other = tf.random.Generator.from_seed(99)
    tf.train.Checkpoint(generator=other).restore(filename).assert_consumed()
    assert _numbers([other.normal([]), other.normal([])]) == from_saving


def test_a_generator_in_a_module_and_its_state_in_tf_function():
    class MyModule(tf.Module):
        def __init__(self):
            super().__init__()
            self.g = tf.random.Generator.from_seed(0)

        @tf.function
        def __call__(self):
            return self.g.normal([])

        @tf.function
        def state(self):
            return self.g.state

    m = MyModule()
    twin = tf.random.Generator.from_seed(0)
    assert m().numpy() == twin.normal([]).numpy()
    assert m.state().numpy().tolist() == twin.state.numpy().tolist()
    assert m().numpy() == twin.normal([]).numpy()
    assert m.state().numpy().tolist() == twin.state.numpy().tolist()


def test_stateless_ops_depend_on_the_seed_alone():
    a = tf.random.stateless_normal(shape=[2, 3], seed=[1, 2])
    b = tf.random.stateless_normal(shape=[2, 3], seed=[1, 2])
    assert a.numpy().tolist() == b.numpy().tolist() and a.shape == (2, 3)
    assert a.numpy().tolist() != tf.random.stateless_normal([2, 3], seed=[2, 1]).numpy().tolist()
    u = tf.random.stateless_uniform([2, 3], seed=tf.constant([1, 2], tf.int64))
    assert u.numpy().tolist() == tf.random.stateless_uniform([2, 3], seed=[1, 2]).numpy().tolist()
    with pytest.raises(InvalidArgumentError, match="seed must be a pair of integers"):
        tf.random.stateless_normal([2], seed=[1, 2, 3])
    seeds = tf.random.Generator.from_seed(5).make_seeds(2)
    assert seeds.shape == (2, 2) and seeds.dtype == tf.int64
    first = tf.random.stateless_uniform([3], seed=seeds[:, 0])
    second = tf.random.stateless_uniform([3], seed=seeds[:, 1])
    assert first.numpy().tolist() != second.numpy().tolist()
    again = tf.random.Generator.from_seed(5).make_seeds(2)
    assert again.numpy().tolist() == seeds.numpy().tolist()


def test_global_and_op_seeds_as_set_seed_describes():
    tf.random.set_seed(1234)
    a1, a2 = tf.random.uniform([1]), tf.random.uniform([1])
    tf.random.set_seed(1234)
    assert _numbers([tf.random.uniform([1]), tf.random.uniform([1])]) == _numbers([a1, a2])
    tf.random.set_seed(1234)
    s1, s2 = tf.random.uniform([1], seed=1), tf.random.uniform([1], seed=1)
    assert s1.numpy() != s2.numpy()
    tf.random.set_seed(1234)
    assert _numbers([tf.random.uniform([1], seed=1)]) == _numbers([s1])
