"""Network / Model / Sequential: tracking, variable order, nesting, training flag, summary."""

import numpy as np
import pytest

import eagerkit as ek


class TwoLayerNet(ek.Network):
    def __init__(self):
        super().__init__()
        self.layer1 = self.track_layer(ek.layers.Dense(2, activation=ek.nn.relu, use_bias=False))
        self.layer2 = self.track_layer(ek.layers.Dense(3, use_bias=False))

    def call(self, x):
        return self.layer2(self.layer1(x))


class ThreeLayerNet(ek.Network):
    def __init__(self):
        super().__init__()
        self.a = self.track_layer(TwoLayerNet())
        self.b = self.track_layer(ek.layers.Dense(4, use_bias=False))

    def call(self, x):
        return self.b(self.a(x))


def test_tf15_guide_two_and_three_layer_nets():
    net = TwoLayerNet()
    assert len(net.variables) == 0
    assert net(ek.constant([[1.0]])).shape == (1, 3)
    assert [v.shape for v in net.variables] == [(1, 2), (2, 3)]
    bigger = ThreeLayerNet()
    bigger(ek.constant([[1.0]]))
    assert [v.shape for v in bigger.variables] == [(1, 2), (2, 3), (3, 4)]


def test_model_tracks_attributes_lists_dicts_and_variables_in_creation_order():
    class Mixed(ek.Model):
        def __init__(self):
            super().__init__()
            self.late = ek.layers.Dense(1)  # assigned first, but built last
            self.blocks = [ek.layers.Dense(2), {"inner": ek.layers.Dense(2)}]
            self.scale = ek.Variable(2.0, name="scale")

        def call(self, x):
            x = self.blocks[1]["inner"](self.blocks[0](x))
            return self.late(x) * self.scale

    model = Mixed()
    assert [v.name for v in model.variables] == ["scale:0"]
    model(ek.ones([1, 3]))
    names = [v.name.split("/")[-1] for v in model.variables]
    assert names == ["scale:0", "kernel:0", "bias:0", "kernel:0", "bias:0", "kernel:0", "bias:0"]
    assert [v.shape for v in model.variables][1:] == [(3, 2), (2,), (2, 2), (2,), (2, 1), (1,)]
    assert model.layers == [model.late, model.blocks[0], model.blocks[1]["inner"]]


def test_a_layer_used_twice_shares_its_variables():
    class Twice(ek.Model):
        def __init__(self):
            super().__init__()
            self.dense = ek.layers.Dense(3)

        def call(self, x):
            return self.dense(self.dense(x))

    model = Twice()
    model(ek.ones([1, 3]))
    assert len(model.variables) == 2


def test_frozen_layers_drop_out_of_trainable_variables():
    model = ek.Sequential([ek.layers.Dense(2), ek.layers.Dense(1)])
    model(ek.ones([1, 2]))
    model.layers[0].trainable = False
    assert model.trainable_variables == model.layers[1].variables
    assert len(model.non_trainable_variables) == 2


def test_gradients_and_a_training_step_through_a_model():
    model = ek.Sequential([ek.layers.Dense(8, activation="tanh"), ek.layers.Dense(3)])
    x, y = ek.constant([[1.0], [2.0]]), ek.constant([[1.0, 0.0, 1.0], [2.0, 0.0, 2.0]])
    optimizer = ek.train.GradientDescentOptimizer(0.05)
    losses = []
    for _ in range(20):
        with ek.GradientTape() as tape:
            loss = ek.losses.mean_squared_error(y, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        assert all(g is not None for g in grads)
        optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
        losses.append(float(loss))
    assert losses[-1] < 0.5 * losses[0]


def test_sequential_passes_training_to_layers_that_take_it():
    model = ek.Sequential([ek.layers.Dense(50, kernel_initializer="ones"), ek.layers.Dropout(0.5)])
    x = ek.ones([1, 1])
    assert np.all(model(x).numpy() == 1.0)
    dropped = model(x, training=True).numpy()
    assert set(np.unique(dropped)) == {0.0, 2.0}


def test_sequential_add_and_nesting():
    inner = ek.Sequential([ek.layers.Dense(4, activation="relu")])
    model = ek.Sequential()
    model.add(inner)
    model.add(ek.layers.Dense(2))
    assert model(ek.ones([3, 5])).shape == (3, 2)
    assert [v.shape for v in model.variables] == [(5, 4), (4,), (4, 2), (2,)]


def test_summary_is_a_fixed_table():
    model = ek.Sequential(
        [
            ek.layers.Conv2D(4, 3, padding="same", name="conv"),
            ek.layers.MaxPool2D(name="pool"),
            ek.layers.Flatten(name="flat"),
            ek.layers.BatchNormalization(name="bn"),
            ek.layers.Dense(10, name="logits"),
        ],
        name="cnn",
    )
    model(ek.zeros([2, 8, 8, 1]))
    lines = []
    model.summary(print_fn=lines.append)
    assert lines[0].splitlines() == [
        'Model: "cnn"',
        "=" * 51,
        "Layer (type)              Output Shape      Param #",
        "=" * 51,
        "conv (Conv2D)             (None, 8, 8, 4)   40",
        "pool (MaxPooling2D)       (None, 4, 4, 4)   0",
        "flat (Flatten)            (None, 64)        0",
        "bn (BatchNormalization)   (None, 64)        256",
        "logits (Dense)            (None, 10)        650",
        "=" * 51,
        "Total params: 946",
        "Trainable params: 818",
        "Non-trainable params: 128",
    ]


def test_sequential_with_a_declared_input_shape_summarizes_before_any_call():
    model = ek.Sequential([ek.layers.Dense(4, input_shape=(3,), name="a")], name="declared")
    lines = []
    model.summary(print_fn=lines.append)
    assert "a (Dense)      (None, 4)      16" in lines[0].splitlines()
    assert model.built


UNBUILT_LAYERS = [  # (a layer, what it shows once a batch of shape [2, 4, 4, 1] built it)
    (lambda: ek.layers.Conv2D(2, 3, name="conv"), "conv (Conv2D)", "(None, 2, 2, 2)", "20"),
    (lambda: ek.layers.Flatten(name="flat"), "flat (Flatten)", "(None, 8)", "0"),
    (lambda: ek.layers.Dropout(0.5, name="drop"), "drop (Dropout)", "(None, 8)", "0"),
    (
        lambda: ek.layers.BatchNormalization(name="bn"),
        "bn (BatchNormalization)",
        "(None, 8)",
        "32",
    ),
    (
        lambda: ek.Sequential([ek.layers.Dense(3)], name="inner"),
        "inner (Sequential)",
        "(None, 3)",
        "27",
    ),
]


def _table(model):
    lines = []
    model.summary(print_fn=lines.append)
    return lines[0].splitlines()


def test_summary_before_the_first_call_is_keras_3s_unbuilt_table():
    # Keras 3: each layer "?" and "0 (unbuilt)" (Keras 2 raised); nothing gets built
    model = ek.Sequential([make() for make, *_ in UNBUILT_LAYERS], name="later")
    lines = _table(model)
    rows = [line.split("   ") for line in lines[4:-4]]
    assert [[cell.strip() for cell in row if cell.strip()] for row in rows] == [
        [name, "?", "0 (unbuilt)"] for _, name, _, _ in UNBUILT_LAYERS
    ]
    assert lines[0] == 'Model: "later"' and lines[-3:] == [
        "Total params: 0",
        "Trainable params: 0",
        "Non-trainable params: 0",
    ]
    assert not model.built and model.weights == []
    model(ek.zeros([2, 4, 4, 1]))  # then the same layers show their shapes and counts
    rows = [line.split("   ") for line in _table(model)[4:-4]]
    assert [[cell.strip() for cell in row if cell.strip()] for row in rows] == [
        [name, shape, params] for _, name, shape, params in UNBUILT_LAYERS
    ]


def test_summary_of_a_subclassed_model_before_its_first_call():
    class Net(ek.Model):
        def __init__(self):
            super().__init__(name="net")
            self.hidden = ek.layers.Dense(4, name="hidden")
            self.out = ek.layers.Dense(1, name="out")

        def call(self, x):
            return self.out(self.hidden(x))

    net = Net()
    assert _table(net) == [
        'Model: "net"',
        "=" * 43,
        "Layer (type)     Output Shape   Param #",
        "=" * 43,
        "hidden (Dense)   ?              0 (unbuilt)",
        "out (Dense)      ?              0 (unbuilt)",
        "=" * 43,
        "Total params: 0",
        "Trainable params: 0",
        "Non-trainable params: 0",
    ]
    net.hidden(ek.ones([1, 2]))  # one layer built on its own: its count, the other unbuilt
    assert _table(net)[4:6] == [
        "hidden (Dense)   (None, 4)      12",
        "out (Dense)      ?              0 (unbuilt)",
    ]
    assert _table(net)[-3:] == [
        "Total params: 12",
        "Trainable params: 12",
        "Non-trainable params: 0",
    ]


def test_track_layer_and_init_mistakes_are_explained():
    with pytest.raises(TypeError, match="track_layer expects a layer"):
        TwoLayerNet().track_layer(ek.Variable(1.0))

    class Forgot(ek.Model):
        def __init__(self):
            self.dense = ek.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    with pytest.raises(RuntimeError, match=r"Forgot.__init__ must call super\(\).__init__\(\)"):
        Forgot()(ek.ones([1, 1]))


def test_call_must_be_defined():
    class Empty(ek.Model):
        pass

    with pytest.raises(NotImplementedError, match="Empty must define call"):
        Empty()(ek.ones([1, 1]))


def test_unknown_constructor_arguments_are_rejected():
    with pytest.raises(TypeError, match="Dense: unexpected keyword argument"):
        ek.layers.Dense(2, unit=3)


def test_keras_namespace_names_the_same_classes():
    assert ek.keras.layers.Dense is ek.layers.Dense
    assert ek.keras.Model is ek.Model and ek.keras.Sequential is ek.Sequential
    assert issubclass(ek.Model, ek.Network) and issubclass(ek.Network, ek.layers.Layer)


def test_a_checkpoint_restored_before_the_first_call_fills_the_layers_when_built(tmp_path):
    trained = ek.Sequential([ek.layers.Dense(3), ek.layers.Dense(1)])
    trained(ek.ones([1, 2]))
    path = ek.train.Checkpoint(model=trained).save(str(tmp_path / "ckpt"))
    fresh = ek.Sequential([ek.layers.Dense(3), ek.layers.Dense(1)])
    status = ek.train.Checkpoint(model=fresh).restore(path)  # no variables exist yet
    x = ek.constant([[0.5, -1.0]])
    np.testing.assert_array_equal(fresh(x).numpy(), trained(x).numpy())
    status.assert_consumed()


NUMBER_DTYPES = [ek.uint8, ek.int32, ek.int64, ek.bool, ek.float16, ek.float64]
SEQUENTIAL_INPUTS = {
    "input_shape=": lambda: [ek.keras.layers.Flatten(input_shape=(2, 2))],
    "keras.Input": lambda: [ek.keras.Input(shape=(2, 2)), ek.keras.layers.Flatten()],
}


@pytest.mark.parametrize("dtype", NUMBER_DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("start", SEQUENTIAL_INPUTS)
def test_a_sequential_model_with_an_input_casts_numbers_to_its_dtype_as_keras(start, dtype):
    # TF's numpy-data tutorial fits MNIST's uint8 pixels, unscaled, into
    # Sequential([Flatten(input_shape=(28, 28)), Dense(128), ...]): Keras 3 conforms a model's
    # inputs to its Input's dtype (float32), as eagerkit's functional models do.
    ek.keras.utils.set_random_seed(0)
    model = ek.keras.Sequential([*SEQUENTIAL_INPUTS[start](), ek.keras.layers.Dense(3)])
    values = np.arange(8).reshape(2, 2, 2) % 2  # 0/1 fit every dtype, bool too
    given = model(ek.constant(values.astype(dtype.as_numpy_dtype)))
    assert given.dtype == ek.float32
    np.testing.assert_array_equal(given, model(values.astype(np.float32)))
    assert model.predict(values.astype(dtype.as_numpy_dtype), verbose=0).dtype == np.float32
    with pytest.raises(ValueError, match="string"):  # text is not a number: no cast
        model(ek.constant([[["a", "b"], ["c", "d"]]]))


def test_a_sequential_model_keeps_an_integer_inputs_dtype():
    model = ek.keras.Sequential(
        [ek.keras.Input(shape=(3,), dtype="int32"), ek.keras.layers.Embedding(5, 2)]
    )
    ids = np.array([[0, 4, 2]], dtype=np.int64)
    looked_up = model(ek.constant(ids))  # int64 ids become the Input's int32, as in Keras
    np.testing.assert_array_equal(looked_up, model(ek.constant(ids.astype(np.int32))))
    np.testing.assert_array_equal(looked_up[0, 1], model.layers[0].embeddings[4])
