"""SimpleRNN, and what it now shares with LSTM and GRU: ``go_backwards``, and an
``activation`` of None. Values against the plain numpy loops of recurrent_references.py,
gradients against finite differences, Keras' arguments, config and errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from recurrent_references import run, weights_of

import eagerkit as ek
from eagerkit.testing import check_grads

layers = ek.keras.layers
KINDS = ["SimpleRNN", "LSTM", "GRU"]
RANDOM_BIAS = ek.keras.initializers.RandomNormal(stddev=0.5, seed=3)  # (zeros test nothing)


def make(kind, units, **kwargs):
    return getattr(layers, kind)(units, dtype="float64", bias_initializer=RANDOM_BIAS, **kwargs)


@settings(max_examples=40, deadline=None)
@given(
    kind=st.sampled_from(KINDS),
    batch=st.integers(1, 3),
    steps=st.integers(1, 5),
    features=st.integers(1, 4),
    units=st.integers(1, 5),
    go_backwards=st.booleans(),
    return_sequences=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_outputs_and_states_match_the_textbook_loop(
    kind, batch, steps, features, units, go_backwards, return_sequences, seed
):
    x = np.random.default_rng(seed).standard_normal((batch, steps, features))
    flags = dict(go_backwards=go_backwards, return_sequences=return_sequences, return_state=True)
    layer = make(kind, units, **flags)
    output, *states = layer(x)
    sequence, expected_states = run(kind, x, *weights_of(layer), backwards=go_backwards)
    # go_backwards: the outputs come in the order they were made, last time step first.
    expected = sequence if return_sequences else sequence[:, -1]
    np.testing.assert_allclose(output.numpy(), expected, rtol=1e-10, atol=1e-12)
    assert len(states) == len(expected_states)
    for state, want in zip(states, expected_states, strict=True):
        np.testing.assert_allclose(state.numpy(), want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kind", KINDS)
def test_an_initial_state_is_where_the_loop_starts(kind):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 4, 3))
    layer = make(kind, 3, go_backwards=True)
    count = 2 if kind == "LSTM" else 1
    start = [rng.standard_normal((2, 3)) for _ in range(count)]
    output = layer(x, initial_state=start)
    sequence, _ = run(kind, x, *weights_of(layer), states=start, backwards=True)
    np.testing.assert_allclose(output.numpy(), sequence[:, -1], rtol=1e-10)


def test_simple_rnn_is_activation_of_the_input_part_plus_the_recurrent_part():
    x = np.arange(12, dtype=np.float64).reshape(1, 4, 3) / 10
    rnn = layers.SimpleRNN(
        2,
        activation="relu",
        kernel_initializer="ones",
        recurrent_initializer=ek.keras.initializers.Identity(),
        bias_initializer=ek.keras.initializers.Constant(-1.0),
        return_sequences=True,
        dtype="float64",
    )
    # With W of ones, U = I and b = -1: h_t = relu(sum(x_t) - 1 + h_{t-1}), by hand.
    h, expected = 0.0, []
    for t in range(4):
        h = max(0.0, x[0, t].sum() - 1 + h)
        expected.append([h, h])
    np.testing.assert_allclose(rnn(x).numpy()[0], expected, rtol=1e-12)


@pytest.mark.parametrize("activation", [None, "linear"])
@pytest.mark.parametrize("kind", KINDS)
def test_no_activation_leaves_the_sum_as_it_is(kind, activation):
    # Keras' activation=None is the identity; LSTM and GRU called None before.
    layer = getattr(layers, kind)(3, activation=activation, dtype="float64")
    x = np.random.default_rng(2).standard_normal((2, 3, 2))
    output = layer(x)
    assert output.shape == (2, 3) and np.all(np.isfinite(output.numpy()))
    if kind == "SimpleRNN":  # a linear cell, by hand
        kernel, recurrent, bias = weights_of(layer)
        h = np.zeros((2, 3))
        for t in range(3):
            h = x[:, t] @ kernel + h @ recurrent + bias
        np.testing.assert_allclose(output.numpy(), h, rtol=1e-10)


def test_keras_argument_order_and_weights():
    rnn = layers.SimpleRNN(4, "relu", False)  # units, activation, use_bias, as in Keras
    assert rnn.activation is ek.nn.relu and rnn.use_bias is False
    rnn(ek.ones([2, 5, 3]))
    assert [v.name for v in rnn.variables] == [
        f"{rnn.name}/kernel:0",
        f"{rnn.name}/recurrent_kernel:0",
    ]
    assert [tuple(v.shape) for v in rnn.variables] == [(3, 4), (4, 4)]


@settings(max_examples=25, deadline=None)
@given(features=st.integers(1, 8), units=st.integers(1, 8))
def test_parameter_count_is_keras(features, units):
    rnn = layers.SimpleRNN(units)
    rnn(ek.ones([1, 2, features]))
    assert rnn.count_params() == units * (features + units + 1)


def test_summary_counts_as_keras_prints():
    model = ek.keras.Sequential(
        [layers.SimpleRNN(8, return_sequences=True, input_shape=(5, 3)), layers.SimpleRNN(4)]
    )
    printed = []
    model.summary(print_fn=printed.append)
    lines = "\n".join(printed).splitlines()
    rows = [line.split() for line in lines if "(SimpleRNN)" in line]
    assert [row[-1] for row in rows] == ["96", "52"]  # 8*(3+8+1), 4*(8+4+1)
    assert [" ".join(row[2:-1]) for row in rows] == ["(None, 5, 8)", "(None, 4)"]
    assert "Total params: 148" in lines


@pytest.mark.parametrize("go_backwards", [False, True])
@pytest.mark.parametrize("kind", KINDS)
def test_gradients_match_finite_differences(kind, go_backwards):
    layer = make(kind, 2, go_backwards=go_backwards, return_sequences=True)
    x = np.random.default_rng(5).standard_normal((2, 3, 2))
    layer(x)  # build
    names = ["kernel", "recurrent_kernel", "bias"]
    originals = [getattr(layer, name) for name in names]

    def f(x, *weights):  # the weights as plain tensors, so finite differences can move them
        for name, value in zip(names, weights, strict=True):
            setattr(layer, name, value)
        return layer(x)

    try:
        check_grads(f, x, *[w.numpy() for w in originals], order=1)
    finally:
        for name, value in zip(names, originals, strict=True):
            setattr(layer, name, value)


def test_step_by_hand_is_one_step_of_the_loop():
    rnn = make("SimpleRNN", 3)
    x = np.random.default_rng(4).standard_normal((2, 1, 2))
    rnn.build(x.shape)
    kernel, _, bias = weights_of(rnn)
    h0 = np.random.default_rng(6).standard_normal((2, 3))
    (h1,) = rnn.step(x[:, 0] @ kernel + bias, [h0])
    np.testing.assert_allclose(h1.numpy(), rnn(x, initial_state=[h0]).numpy(), rtol=1e-12)


def test_config_round_trip_keeps_every_argument():
    rnn = layers.SimpleRNN(
        5,
        activation="relu",
        use_bias=False,
        return_sequences=True,
        return_state=True,
        go_backwards=True,
        recurrent_initializer="orthogonal",
        kernel_regularizer="l2",
        name="rnn_a",
    )
    config = rnn.get_config()
    assert {k: config[k] for k in ("units", "activation", "use_bias", "go_backwards")} == {
        "units": 5,
        "activation": "relu",
        "use_bias": False,
        "go_backwards": True,
    }
    clone = layers.SimpleRNN.from_config(config)
    assert clone.get_config() == config
    assert (clone.go_backwards, clone.return_sequences, clone.return_state) == (True, True, True)
    again = layers.deserialize(layers.serialize(rnn))
    assert type(again) is layers.SimpleRNN and again.name == "rnn_a"


def test_a_rank_2_input_is_refused_naming_the_layer_and_the_fix():
    rnn = layers.SimpleRNN(3, name="rnn_x")
    with pytest.raises(
        ek.errors.InvalidArgumentError,
        match=r"SimpleRNN layer 'rnn_x' expects input of rank 3 \[batch, time, features\], "
        r"but got shape \(4, 5\) \(rank 2\)\. Add the missing axes, e\.g\. a batch axis with "
        r"ek\.expand_dims",
    ):
        rnn(ek.zeros([4, 5]))
    assert not rnn.built and rnn.variables == []  # the failed first call built nothing


def test_a_wrong_initial_state_is_refused_and_changes_nothing():
    rnn = layers.SimpleRNN(3)
    rnn(ek.ones([2, 4, 2]))
    before = [v.numpy().copy() for v in rnn.variables]
    with pytest.raises(
        ek.errors.InvalidArgumentError,
        match=r"SimpleRNN: initial_state must be a list of 1 tensors of shape \[batch, units\] "
        r"= \[2, 3\] \(SimpleRNN's \(h,\)\), got list of 2",
    ):
        rnn(ek.ones([2, 4, 2]), initial_state=[ek.zeros([2, 3]), ek.zeros([2, 3])])
    with pytest.raises(ek.errors.InvalidArgumentError, match=r"SimpleRNN\(float32\[2, 4, 5\]\)"):
        rnn(ek.ones([2, 4, 5]))  # 5 features, built for 2: the call is named
    assert len(rnn.variables) == 3
    for variable, value in zip(rnn.variables, before, strict=True):
        np.testing.assert_array_equal(variable.numpy(), value)


def test_gated_arguments_are_not_simple_rnns():
    with pytest.raises(
        TypeError, match=r"SimpleRNN: unexpected keyword argument\(s\) recurrent_activation"
    ):
        layers.SimpleRNN(3, recurrent_activation="sigmoid")
    with pytest.raises(ek.errors.InvalidArgumentError, match=r"units must be a whole number"):
        layers.SimpleRNN(0)
