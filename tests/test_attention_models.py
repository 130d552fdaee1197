"""Attention and MultiHeadAttention wherever a layer works: a functional model (summary,
fit, save/load_model), a subclassed model (save_weights/load_weights, a checkpoint),
ek.function, get_config/from_config and a TapeView of a training step."""

import numpy as np
import pytest
from eagerkit.widgets import TapeView

import eagerkit as ek
from eagerkit import keras

layers = keras.layers
rng = np.random.default_rng(41)


def transformer_block():
    """A small functional model: self-attention with a residual, cross-attention to a
    memory, a Luong attention over the same memory, a Dense head."""
    keras.backend.clear_session()
    tokens, memory = keras.Input(shape=[6, 8]), keras.Input(shape=[4, 8])
    attended = layers.MultiHeadAttention(2, 4, name="self_attention")(
        tokens, tokens, use_causal_mask=True
    )
    mixed = layers.LayerNormalization()(layers.Add()([tokens, attended]))
    crossed = layers.MultiHeadAttention(2, 3, value_dim=5, name="cross")(mixed, memory)
    luong = layers.Attention(use_scale=True, name="luong")([mixed, memory])
    joined = layers.Concatenate()([crossed, luong])
    return keras.Model([tokens, memory], layers.Dense(1)(joined))


def data():
    x = [rng.standard_normal((16, 6, 8)).astype(np.float32) for _ in range(1)]
    x.append(rng.standard_normal((16, 4, 8)).astype(np.float32))
    return x, rng.standard_normal((16, 6, 1)).astype(np.float32)


def test_summary_counts_the_parameters_keras_counts():
    model = transformer_block()
    lines = []
    model.summary(print_fn=lines.append)
    text = "\n".join(lines)
    # Keras: self 3*(8*2*4 + 2*4) + (2*4*8 + 8) = 288; cross 2*(8*2*3 + 6) + (8*2*5 + 10)
    # + (2*5*8 + 8) = 286; luong's scale 1; the normalization 16; the Dense head 16 + 1.
    assert "self_attention (MultiHeadAttention)" in text and "luong (Attention)" in text
    counts = {layer.name: layer.count_params() for layer in model.layers}
    assert (counts["self_attention"], counts["cross"], counts["luong"]) == (288, 286, 1)
    assert f"Total params: {288 + 286 + 1 + 16 + 17:,}" in text


def test_fit_lowers_the_loss_and_save_then_load_model_gives_the_same_predictions(tmp_path):
    model = transformer_block()
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    x, y = data()
    history = model.fit(x, y, epochs=8, batch_size=8, verbose=0)
    assert history.history["loss"][-1] < 0.8 * history.history["loss"][0]
    path = str(tmp_path / "block.keras")
    model.save(path)
    again = keras.models.load_model(path)
    np.testing.assert_array_equal(again.predict(x, verbose=0), model.predict(x, verbose=0))
    assert [w.shape for w in again.weights] == [w.shape for w in model.weights]


class Translator(keras.Model):
    """A subclassed model that keeps both layers in attributes."""

    def __init__(self):
        super().__init__()
        self.attend = layers.MultiHeadAttention(2, 3, dropout=0.1)
        self.luong = layers.Attention(score_mode="concat")
        self.head = layers.Dense(2)

    def call(self, inputs, training=None):
        tokens, memory = inputs
        x = self.attend(tokens, memory, training=training)
        return self.head(self.luong([x, memory], training=training))


def test_a_subclassed_model_saves_and_loads_its_weights(tmp_path):
    tokens, memory = ek.ones([2, 5, 4]), ek.constant(rng.standard_normal((2, 3, 4)), ek.float32)
    model = Translator()
    expected = model([tokens, memory])
    assert len(model.trainable_variables) == 8 + 1 + 2
    model.save_weights(str(tmp_path / "w"))
    fresh = Translator()
    fresh([tokens, memory])
    fresh.load_weights(str(tmp_path / "w"))
    np.testing.assert_array_equal(fresh([tokens, memory]).numpy(), expected.numpy())
    trained = model([tokens, memory], training=True)  # dropout on: other numbers
    assert not np.allclose(trained.numpy(), expected.numpy())


@pytest.mark.parametrize(
    "make",
    [
        lambda: layers.MultiHeadAttention(
            3, 2, value_dim=4, output_shape=(2, 5), use_bias=False, kernel_regularizer="l2"
        ),
        lambda: layers.MultiHeadAttention(2, 2, attention_axes=[1], dropout=0.2, seed=4),
        lambda: layers.Attention(use_scale=True, score_mode="concat", dropout=0.1, seed=2),
    ],
)
def test_from_config_makes_a_layer_that_computes_the_same(make):
    layer = make()
    query, value = ek.ones([2, 3, 4]), ek.constant(rng.standard_normal((2, 5, 4)), ek.float32)

    def run(layer):
        if isinstance(layer, layers.Attention):
            return layer([query, value])
        return layer(query, value)

    expected = run(layer)
    clone = type(layer).from_config(layer.get_config())
    run(clone)
    clone.set_weights(layer.get_weights())
    np.testing.assert_array_equal(run(clone).numpy(), expected.numpy())
    assert clone.get_config() == layer.get_config()
    assert len(clone.losses) == len(layer.losses)  # the kernel regularizer's terms too


def test_inside_ek_function_the_values_and_gradients_are_the_eager_ones():
    mha = layers.MultiHeadAttention(2, 3)
    luong = layers.Attention(use_scale=True)
    x = ek.constant(rng.standard_normal((2, 4, 5)), ek.float32)

    def step(x):
        with ek.GradientTape() as tape:
            y = luong([mha(x, x, use_causal_mask=True), x], use_causal_mask=True)
            loss = ek.reduce_sum(y * y)
        return loss, tape.gradient(loss, mha.trainable_variables + luong.trainable_variables)

    eager_loss, eager_grads = step(x)
    traced_loss, traced_grads = ek.function(step)(x)
    np.testing.assert_allclose(traced_loss.numpy(), eager_loss.numpy(), rtol=1e-6)
    for traced, eager in zip(traced_grads, eager_grads, strict=True):
        np.testing.assert_allclose(traced.numpy(), eager.numpy(), rtol=1e-5, atol=1e-6)


def test_a_tape_view_shows_the_attention_step_by_step():
    model = Translator()
    inputs = [ek.ones([1, 2, 3]), ek.ones([1, 2, 3])]
    model(inputs)
    with ek.GradientTape() as tape:
        view = TapeView(tape, names={"model": model})
        loss = ek.reduce_sum(model(inputs))
    grads = tape.gradient(loss, model.trainable_variables)
    assert all(g is not None for g in grads)
    ops = [node["label"] for node in view.graph["nodes"] if node["type"] != "tensor"]
    assert ops.count("einsum") == 6  # 4 projections, the scores, the heads' outputs
    variables = [n["label"] for n in view.graph["nodes"] if n.get("kind") == "variable"]
    assert variables[:2] == ["attend/query/kernel", "attend/query/bias"]
    assert "luong/concat_score_weight" in variables
    groups = [g["label"] for g in view.graph["groups"] if g["kind"] == "layer"]
    assert "attend (MultiHeadAttention)" in groups
    assert sum(label.endswith("(EinsumDense)") for label in groups) == 4


def test_on_the_simulated_gpu_the_values_and_gradients_are_the_cpus():
    """The simulated GPU refuses host arrays and implicit copies, as cupy does: the masks
    (numpy arrays here) and the causal mask must be made on the layer's device."""
    x = rng.standard_normal((2, 4, 5)).astype(np.float32)
    mask = rng.random((2, 4, 4)) > 0.2

    def run():
        ek.set_random_seed(5)  # the same initial weights on both devices
        mha, luong = layers.MultiHeadAttention(2, 3), layers.Attention(use_scale=True)
        with ek.GradientTape() as tape:
            y = mha(ek.constant(x), x, attention_mask=mask, use_causal_mask=True)
            z = luong([y, x], mask=[mask[:, 0], None], use_causal_mask=True)
            loss = ek.reduce_sum(z * z)
        return z, tape.gradient(loss, mha.trainable_variables + luong.trainable_variables)

    on_cpu, cpu_grads = run()
    ek.devices.enable_simulated_gpu()
    with ek.device("/sim:0"):
        on_sim, sim_grads = run()
    assert on_sim.device.endswith("SIM:0") and all(g.device.endswith("SIM:0") for g in sim_grads)
    np.testing.assert_allclose(on_sim.numpy(), on_cpu.numpy(), rtol=1e-5, atol=1e-6)
    for sim, cpu in zip(sim_grads, cpu_grads, strict=True):
        np.testing.assert_allclose(sim.numpy(), cpu.numpy(), rtol=1e-4, atol=1e-5)
