"""Random numbers inside ``ek.function`` follow TF's ``tf.random.set_seed`` documentation.

In a TF graph each random op keeps its own state, seeded at trace time (graph/draw_sites.py):

- global seed, no op seed: "tf.function acts like a re-run of a program": two functions
  ``f`` and ``g`` that draw alike both print ``(A1, A2)``; a second call gives new numbers;
- an op seed: two draws with ``seed=1`` in one function print ``(A1, A1)``, then ``(A2, A2)``
  (the eager ``A1, A2`` of ``seed=1``), as the ops no longer share a counter;
- the trace's draw is not wasted: the first call gives A1 (the trace sees the same numbers);
- the function's draws do not move the eager stream, and ``set_seed`` restarts them all.

``Generator.split()`` in a trace moves the parent past the keys it gave away, and
``shuffle`` draws a new order at every call.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek

DRAWS = {  # each random op, drawing 3 numbers (categorical: 3 samples of 4 classes)
    "uniform": lambda seed: ek.random.uniform([3], seed=seed),
    "normal": lambda seed: ek.random.normal([3], seed=seed),
    "truncated_normal": lambda seed: ek.random.truncated_normal([3], seed=seed),
    "categorical": lambda seed: ek.random.categorical([[0.0, 1.0, 2.0, 3.0]], 3, seed=seed),
    "shuffle": lambda seed: ek.random.shuffle(ek.range(12), seed=seed),
}


def _pair(draw):
    """Two functions that draw alike: TF's f and g."""

    def body():
        return draw(None), draw(None)

    return ek.function(body), ek.function(lambda: body())


def _values(tensors):
    return [t.numpy().tolist() for t in tensors]


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_each_function_restarts_the_sequence_of_the_global_seed(name):
    f, g = _pair(DRAWS[name])
    ek.random.set_seed(1234)
    first = _values(f())
    assert _values(g()) == first  # "print(g())  # prints '(A1, A2)'"
    second = _values(f())
    assert second != first  # the next call goes on: (A3, A4)
    ek.random.set_seed(1234)
    assert _values(f()) == first and _values(f()) == second  # set_seed restarts f's draws


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_two_draws_with_one_op_seed_keep_a_counter_each(name):
    draw = DRAWS[name]
    ek.random.set_seed(1234)
    eager = [_values([draw(1)]) for _ in range(2)]  # eagerly: A1, A2 of one counter
    foo = ek.function(lambda: (draw(1), draw(1)))
    ek.random.set_seed(1234)
    assert _values(foo()) == eager[0] * 2  # "prints '(A1, A1)'"
    assert _values(foo()) == eager[1] * 2  # "prints '(A2, A2)'"


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(1, 4), st.sampled_from(sorted(DRAWS)))
def test_the_first_call_gives_the_numbers_the_trace_saw(seed, count, name):
    seen = []

    @ek.function
    def draws():
        values = [DRAWS[name](None) for _ in range(count)]
        seen.append(_values(values))  # Python runs while tracing only
        return values

    ek.random.set_seed(seed)
    assert _values(draws()) == seen[0]  # A1: the trace's draw was not wasted
    second = _values(draws())
    assert len(seen) == 1
    if name != "categorical":  # 3 samples of 4 classes repeat by chance (p ~ 0.1 a seed)
        assert second != seen[0]  # the next call goes on


@pytest.mark.parametrize("op_seed", [None, 3])
def test_a_function_leaves_the_eager_stream_where_it_was(op_seed):
    ek.random.set_seed(7)
    eager = [ek.random.normal([2], seed=op_seed).numpy().tolist() for _ in range(3)]
    noisy = ek.function(lambda: ek.random.normal([2], seed=op_seed))
    ek.random.set_seed(7)
    got = [ek.random.normal([2], seed=op_seed).numpy().tolist()]
    noisy(), noisy()
    got += [ek.random.normal([2], seed=op_seed).numpy().tolist() for _ in range(2)]
    assert got == eager


def test_draws_in_a_loop_body_go_on_at_every_step_and_every_call():
    @ek.function
    def steps(n):
        drawn = ek.TensorArray(ek.float32, size=n)
        for i in ek.range(n):  # a while_loop: its body's draw runs at each step
            drawn = drawn.write(i, ek.random.uniform([]))
        return drawn.stack()

    ek.random.set_seed(11)
    first = steps(ek.constant(4)).numpy()
    assert len(set(first.tolist())) == 4
    second = steps(ek.constant(4)).numpy()
    assert not set(first.tolist()) & set(second.tolist())
    ek.random.set_seed(11)
    np.testing.assert_array_equal(steps(ek.constant(4)).numpy(), first)


def test_dropout_in_a_function_gives_a_new_mask_at_every_call():
    layer = ek.keras.layers.Dropout(0.5)
    drop = ek.function(lambda x: layer(x, training=True))
    ek.random.set_seed(3)
    masks = [drop(ek.ones([64])).numpy() != 0 for _ in range(2)]
    assert not np.array_equal(masks[0], masks[1])
    ek.random.set_seed(3)
    np.testing.assert_array_equal(drop(ek.ones([64])).numpy() != 0, masks[0])


def test_shuffle_in_a_function_draws_a_new_order_at_every_call():
    shuffled = ek.function(lambda x: ek.random.shuffle(x))
    ek.random.set_seed(2)
    orders = [shuffled(ek.range(20)).numpy().tolist() for _ in range(3)]
    assert all(sorted(order) == list(range(20)) for order in orders)
    assert orders[0] != orders[1] != orders[2]


def test_split_in_a_function_moves_the_parent_past_the_keys_it_gave_away():
    parent, twin = ek.random.Generator.from_seed(3), ek.random.Generator.from_seed(3)
    children = []

    @ek.function
    def draw():
        if not children:  # generators are made on the first trace only (TF's rule)
            children.extend(parent.split(2))
        return children[0].normal([2]), parent.normal([2])

    child, after = draw()
    twin_children = twin.split(2)  # eagerly: the same keys, and the parent moved past them
    assert child.numpy().tolist() == twin_children[0].normal([2]).numpy().tolist()
    assert after.numpy().tolist() == twin.normal([2]).numpy().tolist()
    assert parent.state.numpy().tolist() == twin.state.numpy().tolist()
    draw()
    twin.normal([2])
    assert parent.state.numpy().tolist() == twin.state.numpy().tolist()


GENERATOR_DRAWS = {  # each Generator method that moves its state
    "normal": lambda g: g.normal([2]),
    "truncated_normal": lambda g: g.truncated_normal([2]),
    "uniform": lambda g: g.uniform([2]),
    "uniform_full_int": lambda g: g.uniform_full_int([2]),
    "make_seeds": lambda g: g.make_seeds(2),
}


@pytest.mark.parametrize("name", sorted(GENERATOR_DRAWS))
def test_an_unused_generator_draw_still_moves_its_state(name):
    """TF runs a stateful op whatever reads its result: a draw nothing uses moves the
    generator's state at every call, as the same draw does eagerly."""
    draw = GENERATOR_DRAWS[name]
    eager = ek.random.Generator.from_seed(5)
    states = []
    for _ in range(2):
        draw(eager)
        states.append(eager.state.numpy().tolist())
    traced = ek.random.Generator.from_seed(5)

    @ek.function
    def unused():
        draw(traced)  # its result is dropped
        return ek.constant(0.0)

    got = []
    for _ in range(2):
        unused()
        got.append(traced.state.numpy().tolist())
    assert got == states
