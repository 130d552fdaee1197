"""Bidirectional over SimpleRNN, LSTM and GRU: values against two plain numpy loops
(recurrent_references.py), one forwards and one backwards, merged by hand; gradients
against finite differences; the refusals; and the layer everywhere a layer goes
(Sequential, the functional API, summary, configs, saving, fit, ek.function, TapeView)."""

import numpy as np
import pytest
from drawing_checks import drawing_problems, every_state
from hypothesis import given, settings
from hypothesis import strategies as st
from recurrent_references import run, weights_of

import eagerkit as ek
from eagerkit.testing import check_grads

layers = ek.keras.layers
KINDS = ["SimpleRNN", "LSTM", "GRU"]
MODES = ["concat", "sum", "mul", "ave", None]
RANDOM_BIAS = ek.keras.initializers.RandomNormal(stddev=0.5, seed=3)
MERGED_BY_HAND = {
    "concat": lambda a, b: np.concatenate([a, b], axis=-1),
    "sum": lambda a, b: a + b,
    "mul": lambda a, b: a * b,
    "ave": lambda a, b: (a + b) / 2,
}


def wrapped(kind, units, merge_mode="concat", **flags):
    inner = getattr(layers, kind)(units, dtype="float64", bias_initializer=RANDOM_BIAS, **flags)
    return layers.Bidirectional(inner, merge_mode=merge_mode, dtype="float64")


def expected_outputs(layer, kind, x, states=None):
    """(forward outputs, backward outputs put back in time order, forward and backward
    final states), from the two loops."""
    ahead_start = back_start = None
    if states is not None:  # the first half is the forward layer's
        ahead_start, back_start = states[: len(states) // 2], states[len(states) // 2 :]
    forward, backward = weights_of(layer.forward_layer), weights_of(layer.backward_layer)
    ahead, ahead_states = run(kind, x, *forward, states=ahead_start)
    back, back_states = run(kind, x, *backward, states=back_start, backwards=True)
    return ahead, back[:, ::-1], ahead_states + back_states


@settings(max_examples=50, deadline=None)
@given(
    kind=st.sampled_from(KINDS),
    mode=st.sampled_from(MODES),
    batch=st.integers(1, 3),
    steps=st.integers(1, 5),
    features=st.integers(1, 4),
    units=st.integers(1, 4),
    return_sequences=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_outputs_match_a_forward_and_a_backward_loop_merged(
    kind, mode, batch, steps, features, units, return_sequences, seed
):
    x = np.random.default_rng(seed).standard_normal((batch, steps, features))
    layer = wrapped(kind, units, mode, return_sequences=return_sequences)
    output = layer(x)
    ahead, back, _ = expected_outputs(layer, kind, x)
    if not return_sequences:  # each direction's last output: the backward one's is at t = 0
        ahead, back = ahead[:, -1], back[:, 0]
    if mode is None:
        assert isinstance(output, list) and len(output) == 2
        got = [t.numpy() for t in output]
        np.testing.assert_allclose(got[0], ahead, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(got[1], back, rtol=1e-10, atol=1e-12)
    else:
        merged = MERGED_BY_HAND[mode](ahead, back)
        np.testing.assert_allclose(output.numpy(), merged, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("mode", ["concat", None])
@pytest.mark.parametrize("kind", KINDS)
def test_return_state_gives_the_forward_states_then_the_backward_ones(kind, mode):
    rng = np.random.default_rng(11)
    x = rng.standard_normal((2, 4, 3))
    layer = wrapped(kind, 3, mode, return_sequences=True, return_state=True)
    count = 2 if kind == "LSTM" else 1
    start = [rng.standard_normal((2, 3)) for _ in range(2 * count)]
    result = layer(x, initial_state=start)
    ahead, back, states = expected_outputs(layer, kind, x, states=start)
    outputs = [ahead, back] if mode is None else [np.concatenate([ahead, back], -1)]
    assert len(result) == len(outputs) + 2 * count
    for got, want in zip(result, outputs + states, strict=True):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-12)


def test_the_copies_are_fresh_and_the_weights_are_forwards_then_backwards():
    lstm = layers.LSTM(4, name="words")
    lstm(ek.ones([1, 2, 3]))  # built: its weights are not the copies'
    both = layers.Bidirectional(lstm)
    assert (both.forward_layer.name, both.backward_layer.name) == (
        "forward_words",
        "backward_words",
    )
    assert (both.forward_layer.go_backwards, both.backward_layer.go_backwards) == (False, True)
    assert both.variables == [] and not both.forward_layer.built
    both(ek.ones([2, 5, 3]))
    assert [v.name for v in both.variables] == [
        f"{prefix}_words/{name}:0"
        for prefix in ("forward", "backward")
        for name in ("kernel", "recurrent_kernel", "bias")
    ]
    assert not any(v is w for v in both.variables for w in lstm.variables)
    assert both.count_params() == 2 * 4 * 4 * (3 + 4 + 1)
    # A layer named forward_... already keeps its name (Keras strips the prefix first).
    again = layers.Bidirectional(both.forward_layer)
    assert again.forward_layer.name == "forward_words"


def test_a_given_backward_layer_is_used_as_it_is():
    ahead = layers.SimpleRNN(2, return_sequences=True, name="ahead", dtype="float64")
    back = layers.SimpleRNN(
        3, activation="relu", return_sequences=True, go_backwards=True, dtype="float64"
    )
    both = layers.Bidirectional(ahead, backward_layer=back, dtype="float64")
    assert both.backward_layer is back and both.forward_layer.name == "forward_ahead"
    x = np.random.default_rng(1).standard_normal((2, 4, 3))
    output = both(x).numpy()
    assert output.shape == (2, 4, 5)  # 2 forward units beside 3 backward ones
    relu = lambda z: np.maximum(z, 0)  # noqa: E731 - the given layer's, not the default tanh
    kernel, recurrent, bias = weights_of(back)
    h, expected = np.zeros((2, 3)), []
    for t in (3, 2, 1, 0):
        h = relu(x[:, t] @ kernel + h @ recurrent + bias)
        expected.insert(0, h)  # put back in time order
    np.testing.assert_allclose(output[..., 2:], np.stack(expected, axis=1), rtol=1e-10)


@pytest.mark.parametrize("kind", KINDS)
def test_gradients_match_finite_differences(kind):
    layer = wrapped(kind, 2, "concat", return_sequences=True)
    x = np.random.default_rng(5).standard_normal((2, 3, 2))
    layer(x)  # build
    places = [
        (inner, name)
        for inner in (layer.forward_layer, layer.backward_layer)
        for name in ("kernel", "recurrent_kernel", "bias")
    ]
    originals = [getattr(inner, name) for inner, name in places]

    def f(x, *weights):  # the weights as plain tensors, so finite differences can move them
        for (inner, name), value in zip(places, weights, strict=True):
            setattr(inner, name, value)
        return layer(x)

    try:
        check_grads(f, x, *[w.numpy() for w in originals], order=1)
    finally:
        for (inner, name), value in zip(places, originals, strict=True):
            setattr(inner, name, value)


# --- refusals -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "make, message",
    [
        (
            lambda: layers.Bidirectional(layers.Dense(3, name="d")),
            r"^Bidirectional: layer must be a recurrent layer \(ek\.keras\.layers\.SimpleRNN, LSTM "
            r"or GRU\), got Dense layer 'd'; wrap the recurrent layer itself, e\.g\. "
            r"Bidirectional\(LSTM\(units\)\)",
        ),
        (
            lambda: layers.Bidirectional("lstm"),
            r"^Bidirectional: layer must be a recurrent layer .*, got 'lstm'; wrap",
        ),
        (
            lambda: layers.Bidirectional(layers.LSTM(2), backward_layer=layers.Flatten(name="f")),
            r"^Bidirectional: backward_layer must be a recurrent layer .*got Flatten layer 'f'",
        ),
        (
            lambda: layers.Bidirectional(layers.LSTM(2), merge_mode="avg"),
            r"^Bidirectional: merge_mode must be one of 'concat', 'sum', 'mul', 'ave' or None "
            r"\(the two outputs as a list\), got 'avg'; pass one of them",
        ),
        (
            lambda: layers.Bidirectional(layers.LSTM(2), merge_mode=["sum"]),
            r"merge_mode must be one of .*, got \['sum'\]",
        ),
        (
            lambda: layers.Bidirectional(layers.LSTM(2), backward_layer=layers.LSTM(2, name="b")),
            r"^Bidirectional: the forward and backward layers must read in opposite directions, "
            r"got go_backwards=False for both; make the backward layer with go_backwards=True",
        ),
        (
            lambda: layers.Bidirectional(
                layers.GRU(2, return_sequences=True),
                backward_layer=layers.GRU(2, go_backwards=True),
            ),
            r"^Bidirectional: the forward and backward layers must have the same "
            r"return_sequences, got True for the forward layer and False for the backward one; "
            r"make both with return_sequences=True",
        ),
    ],
    ids=[
        "Dense",
        "a string",
        "Flatten backwards",
        "merge_mode 'avg'",
        "merge_mode list",
        "same direction",
        "return_sequences differ",
    ],
)
def test_bad_construction_is_refused_naming_the_call_and_the_fix(make, message):
    with pytest.raises(ValueError, match=message) as caught:  # Keras raises ValueError
        make()
    assert isinstance(caught.value, ek.errors.InvalidArgumentError)


def test_a_rank_2_input_is_refused_and_builds_nothing():
    both = layers.Bidirectional(layers.LSTM(3), name="both")
    with pytest.raises(
        ek.errors.InvalidArgumentError,
        match=r"Bidirectional layer 'both' expects input of rank 3 \[batch, time, features\], "
        r"but got shape \(4, 5\) \(rank 2\)\. Add the missing axes",
    ):
        both(ek.zeros([4, 5]))
    assert not both.built and not both.forward_layer.built and not both.backward_layer.built
    assert both.variables == []


def test_a_failed_call_leaves_the_weights_as_they_were():
    both = layers.Bidirectional(layers.LSTM(3, return_state=True), name="both")
    x = ek.ones([2, 4, 2])
    both(x)
    before = [(v, v.numpy().copy()) for v in both.variables]
    with pytest.raises(
        ek.errors.InvalidArgumentError,
        match=r"Bidirectional layer 'both': initial_state must be a list of 4 tensors, the "
        r"forward layer's \(h, c\) of shape \[2, 3\], then the backward layer's \(h, c\) of "
        r"shape \[2, 3\]; got list of 2",
    ):
        both(x, initial_state=[ek.zeros([2, 3]), ek.zeros([2, 3])])
    with pytest.raises(ek.errors.InvalidArgumentError, match=r"^Bidirectional\(float32\[2, 4, 7\]"):
        both(ek.ones([2, 4, 7]))  # built for 2 features
    assert [v for v, _ in before] == both.variables
    for variable, value in before:
        np.testing.assert_array_equal(variable.numpy(), value)
    # An unbuilt one whose backward call fails is unbuilt afterwards, the forward layer too.
    fresh = layers.Bidirectional(layers.GRU(3), name="fresh")
    with pytest.raises(ek.errors.InvalidArgumentError, match="initial_state must be a list of 2"):
        fresh(x, initial_state=[ek.zeros([2, 3])])
    assert fresh.variables == [] and not fresh.forward_layer.built


# --- everywhere a layer goes ----------------------------------------------------------------
SEQUENCES = np.random.default_rng(0).standard_normal((8, 5, 3)).astype(np.float32)
TARGETS = SEQUENCES.sum(axis=(1, 2))[:, None] / 5


def stacked():
    return ek.keras.Sequential(
        [
            layers.Bidirectional(layers.LSTM(4, return_sequences=True), input_shape=(5, 3)),
            layers.Bidirectional(layers.SimpleRNN(3), merge_mode="sum"),
            layers.Dense(1),
        ]
    )


def test_summary_prints_one_row_each_with_keras_counts():
    model = stacked()
    printed = []
    model.summary(print_fn=printed.append)
    rows = [line.split() for line in "\n".join(printed).splitlines() if "(Bidirectional)" in line]
    assert [(" ".join(row[2:-1]), row[-1]) for row in rows] == [
        ("(None, 5, 8)", "256"),  # 2 * 4 * 4 * (3 + 4 + 1)
        ("(None, 3)", "72"),  # 2 * 3 * (8 + 3 + 1)
    ]
    # Keras 2's spelling, the input shape on the wrapped layer, builds the summary too.
    inner = layers.LSTM(4, input_shape=(5, 3))
    model = ek.keras.Sequential([layers.Bidirectional(inner), layers.Dense(1)])
    printed.clear()
    model.summary(print_fn=printed.append)
    assert "Total params: 265" in "\n".join(printed).splitlines()  # 256 + 8 + 1


def test_fit_lowers_the_loss_and_a_saved_model_predicts_the_same(tmp_path):
    ek.random.set_seed(0)
    model = stacked()
    model.compile(optimizer=ek.keras.optimizers.Adam(0.05), loss="mse")
    history = model.fit(SEQUENCES, TARGETS, epochs=15, batch_size=4, verbose=0).history["loss"]
    assert history[-1] < 0.5 * history[0]
    model.save(tmp_path / "model.keras")
    loaded = ek.keras.models.load_model(tmp_path / "model.keras")
    np.testing.assert_allclose(
        loaded.predict(SEQUENCES, verbose=0), model.predict(SEQUENCES, verbose=0), rtol=1e-6
    )
    names = [v.name for v in loaded.variables]
    assert names == [v.name for v in model.variables]
    fresh = stacked()
    fresh(SEQUENCES)
    model.save_weights(tmp_path / "weights")
    fresh.load_weights(tmp_path / "weights")
    for a, b in zip(fresh.variables, model.variables, strict=True):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_config_round_trip_keeps_both_layers():
    back = layers.GRU(2, go_backwards=True, return_sequences=True, name="back")
    both = layers.Bidirectional(
        layers.SimpleRNN(3, return_sequences=True), merge_mode=None, backward_layer=back
    )
    config = both.get_config()
    assert config["merge_mode"] is None
    assert config["layer"]["class_name"] == "SimpleRNN"
    assert config["backward_layer"]["class_name"] == "GRU"
    assert config["backward_layer"]["config"]["name"] == "back"
    clone = layers.Bidirectional.from_config(config)
    assert clone.get_config() == config
    assert type(clone.backward_layer) is layers.GRU and clone.backward_layer is not back
    again = layers.deserialize(layers.serialize(both))
    assert [o.shape for o in again(ek.ones([2, 4, 3]))] == [(2, 4, 3), (2, 4, 2)]
    with pytest.raises(ek.errors.InvalidArgumentError, match="config must be the dict"):
        layers.Bidirectional.from_config("layer")


def test_the_functional_api_takes_its_outputs_and_states():
    inputs = ek.keras.Input(shape=(None, 3))
    sequence, h_ahead, h_back = layers.Bidirectional(
        layers.GRU(4, return_sequences=True, return_state=True)
    )(inputs)
    assert sequence.shape.as_list() == [None, None, 8] and h_back.shape.as_list() == [None, 4]
    outputs = layers.Dense(1)(layers.Concatenate()([h_ahead, h_back]))
    model = ek.keras.Model(inputs, outputs)
    assert model.count_params() == 2 * 3 * 4 * (3 + 4 + 1) + 9
    assert model(SEQUENCES).shape == (8, 1)
    clone = ek.keras.Model.from_config(model.get_config())
    assert clone(SEQUENCES).shape == (8, 1)


def test_ek_function_gives_the_same_values_and_gradients():
    model = stacked()
    model(SEQUENCES)

    def loss(x):
        return ek.reduce_mean(ek.square(model(x) - TARGETS))

    traced = ek.function(loss)
    eager_grads, traced_grads, values = [], [], []
    for f, grads in ((loss, eager_grads), (traced, traced_grads)):
        with ek.GradientTape() as tape:
            value = f(ek.constant(SEQUENCES))
        values.append(float(value))
        grads.extend(g.numpy() for g in tape.gradient(value, model.trainable_variables))
    np.testing.assert_allclose(values[1], values[0], rtol=1e-6)
    assert len(eager_grads) == 14
    for a, b in zip(eager_grads, traced_grads, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)


def test_a_tape_view_folds_both_directions_and_steps_every_record():
    from eagerkit.widgets import TapeView

    inner = layers.SimpleRNN(2, name="rnn")
    model = ek.keras.Sequential([layers.Bidirectional(inner), layers.Dense(1)])
    x = ek.constant(SEQUENCES[:1, :3])
    model(x)
    with ek.GradientTape() as tape:
        view = TapeView(tape, names={"model": model, "x": x})
        loss = ek.reduce_sum(model(x))
        count = len(tape.records)
    grads = tape.gradient(loss, model.trainable_variables)
    groups = [(g["label"], g["kind"]) for g in view.graph["groups"] if g["kind"] == "layer"]
    assert [label.split(" ", 1)[1] for label, _ in groups] == [
        "(Sequential)",
        "(Bidirectional)",
        "(SimpleRNN)",
        "(SimpleRNN)",
        "(Dense)",
    ]
    assert [label.split(" ")[0] for label, _ in groups[2:4]] == ["forward_layer", "backward_layer"]
    assert [s["record"] for s in view.graph["forward"]] == list(range(count))
    assert len(view.graph["backward"]) == count
    for key, state in every_state(view):
        assert drawing_problems(state) == [], key
    variables = [n for n in view.graph["nodes"] if n.get("kind") == "variable"]
    assert sorted(n["label"] for n in variables) == sorted(
        [
            f"layers[0]/{direction}_rnn/{name}"
            for direction in ("forward", "backward")
            for name in ("kernel", "recurrent_kernel", "bias")
        ]
        + ["layers[1]/kernel", "layers[1]/bias"]
    )
    assert all(n["grad"] for n in variables) and len(grads) == len(variables)


def test_each_copy_keeps_the_regularizers_of_the_layer_it_copies():
    both = layers.Bidirectional(
        layers.SimpleRNN(2, kernel_regularizer=ek.keras.regularizers.L2(0.5))
    )
    both(SEQUENCES)
    expected = [
        0.5 * np.sum(inner.kernel.numpy() ** 2)
        for inner in (both.forward_layer, both.backward_layer)
    ]
    # (in the order eagerkit walks the layers for their losses: compared sorted)
    np.testing.assert_allclose(sorted(float(v) for v in both.losses), sorted(expected), rtol=1e-6)
