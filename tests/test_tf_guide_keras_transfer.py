"""The Keras guide "Transfer learning & fine-tuning" (keras.io/guides/transfer_learning,
also tensorflow.org/guide/keras/transfer_learning), ported with ``import eagerkit as tf``
and ``from eagerkit import keras``: the ``trainable`` API with the guide's counts, frozen
weights through ``fit``, recursive freezing, BatchNormalization in inference mode while
frozen, and the freeze / train the top / unfreeze / recompile / fine-tune workflow.

No downloads: where the guide loads Xception with ImageNet weights, a small convolutional
base with BatchNormalization is built here and first trained on one synthetic task (its
"pretrained" weights), then transferred to another; the cats-vs-dogs images are seeded
arrays of the same layout (pixels 0-255), a fraction of the guide's size.

Examples skipped, with why:

- ``keras.applications.Xception(weights="imagenet")`` and ``tfds.load("cats_vs_dogs")``:
  downloads (replaced as said above).
- ``layers.RandomFlip("horizontal")`` and ``layers.RandomRotation(0.1)`` (the data
  augmentation model): eagerkit has no random image layers; the workflow flips images in
  the input pipeline instead (``tf.image.random_flip_left_right`` in ``Dataset.map``, what
  ``missing_names`` suggests), and the matplotlib cells that show the augmented images are
  left out.
- ``tf.image.resize`` of images of different sizes: the synthetic images have one size.

Where eagerkit differs: its ``fit`` runs eagerly and reads ``trainable_weights`` at every
step, so a change of ``trainable`` applies from the next step, recompiled or not. The
guide's rule (recompile after changing ``trainable``: Keras 2 keeps the set of weights
compiled, and Keras 3's optimizer refuses weights it was not built with) is followed here,
and gives the same results.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as tf
from eagerkit import keras


def counts(layer):
    return len(layer.weights), len(layer.trainable_weights), len(layer.non_trainable_weights)


@pytest.mark.parametrize(
    ("make", "built", "frozen"),
    [  # (weights, trainable_weights, non_trainable_weights) before and after freezing
        (lambda: keras.layers.Dense(3), (2, 2, 0), (2, 0, 2)),
        (lambda: keras.layers.BatchNormalization(), (4, 2, 2), (4, 0, 4)),
        (lambda: keras.layers.LayerNormalization(), (2, 2, 0), (2, 0, 2)),
        (lambda: keras.layers.Dense(3, use_bias=False), (1, 1, 0), (1, 0, 1)),
    ],
    ids=["Dense", "BatchNormalization", "LayerNormalization", "Dense-no-bias"],
)
def test_freezing_a_layer_moves_its_weights_to_non_trainable(make, built, frozen):
    layer = make()
    layer.build((None, 4))  # Create the weights
    assert counts(layer) == built
    layer.trainable = False  # Freeze the layer
    assert counts(layer) == frozen
    layer.trainable = True
    assert counts(layer) == built


def test_a_frozen_layers_weights_do_not_change_in_fit():
    # Make a model with 2 layers
    layer1 = keras.layers.Dense(3, activation="relu")
    layer2 = keras.layers.Dense(3, activation="sigmoid")
    model = keras.Sequential([keras.Input(shape=(3,)), layer1, layer2])
    layer1.trainable = False  # Freeze the first layer
    initial_layer1_weights_values = layer1.get_weights()  # a copy, for later reference
    initial_layer2_weights_values = layer2.get_weights()
    assert len(initial_layer1_weights_values) == 2  # the Input built the model

    model.compile(optimizer="adam", loss="mse")
    rng = np.random.default_rng(0)
    history = model.fit(rng.random((2, 3)), rng.random((2, 3)), verbose=0)
    assert list(history.history) == ["loss"] and len(history.history["loss"]) == 1

    final_layer1_weights_values = layer1.get_weights()
    np.testing.assert_allclose(initial_layer1_weights_values[0], final_layer1_weights_values[0])
    np.testing.assert_allclose(initial_layer1_weights_values[1], final_layer1_weights_values[1])
    assert not np.array_equal(initial_layer2_weights_values[0], layer2.get_weights()[0])


def test_trainable_is_set_recursively():
    inner_model = keras.Sequential(
        [
            keras.Input(shape=(3,)),
            keras.layers.Dense(3, activation="relu"),
            keras.layers.Dense(3, activation="relu"),
        ]
    )
    model = keras.Sequential(
        [keras.Input(shape=(3,)), inner_model, keras.layers.Dense(3, activation="sigmoid")]
    )
    model.trainable = False  # Freeze the outer model
    assert inner_model.trainable == False  # noqa: E712 (the guide's own check)
    assert inner_model.layers[0].trainable == False  # noqa: E712 (propagated recursively)
    assert [layer.trainable for layer in model.layers] == [False, False]
    assert model.trainable_weights == [] and len(model.non_trainable_weights) == 6

    inner_model.layers[1].trainable = False
    model.trainable = True  # unfreezing the outer model unfreezes every layer inside
    assert [layer.trainable for layer in inner_model.layers] == [True, True]
    assert len(model.trainable_weights) == 6

    model.trainable = 0  # any truth value, kept as a bool (Keras does the same)
    assert model.trainable is False and inner_model.layers[1].trainable is False


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 4), st.lists(st.tuples(st.integers(0, 3), st.booleans()), max_size=6))
def test_setting_trainable_at_any_depth_sets_it_below_and_counts_follow(depth, settings_made):
    models = []  # models[0] outermost; each holds a Dense and the next model
    inner = None
    for level in reversed(range(depth)):
        parts = [keras.layers.Dense(2, name=f"dense_at_{level}")]
        model = keras.Sequential(parts + ([inner] if inner is not None else []), name=f"m{level}")
        model(np.ones((1, 2), "float32"))
        models.insert(0, model)
        inner = model
    flags = [True] * depth  # each Dense's flag, as the rule says it must be
    for level, value in settings_made:
        level = min(level, depth - 1)
        models[level].trainable = value
        flags[level:] = [value] * (depth - level)  # that model and everything inside it
        assert [m.trainable for m in models] == flags
        assert [m.layers[0].trainable for m in models] == flags
    trainable_dense = 0  # a Dense trains only where it and every model above it are trainable
    for level in range(depth):
        if all(flags[: level + 1]):
            trainable_dense += 1
    assert len(models[0].trainable_weights) == 2 * trainable_dense
    assert len(models[0].weights) == 2 * depth


def test_a_frozen_batch_normalization_layer_runs_in_inference_mode():
    rng = np.random.default_rng(2)
    x = tf.constant(rng.normal(3.0, 2.0, (16, 4)).astype("float32"))
    bn = keras.layers.BatchNormalization()
    bn(x, training=True)  # trainable: the batch's statistics, and the moving ones move
    moving = [w.copy() for w in bn.get_weights()[2:]]
    assert not np.allclose(moving[0], 0.0)

    bn.trainable = False
    frozen = bn(x, training=True).numpy()
    np.testing.assert_array_equal(frozen, bn(x, training=False).numpy())  # inference mode
    for now, then in zip(bn.get_weights()[2:], moving, strict=True):
        np.testing.assert_array_equal(now, then)  # its mean and variance stayed
    expected = (x.numpy() - moving[0]) / np.sqrt(moving[1] + 1e-3)  # gamma 1, beta 0
    np.testing.assert_allclose(frozen, expected, rtol=1e-5, atol=1e-6)

    bn.trainable = True  # unfrozen, training=True normalizes by the batch again
    batch = bn(x, training=True).numpy()
    np.testing.assert_allclose(batch.mean(axis=0), np.zeros(4), atol=1e-5)


def test_a_frozen_batch_normalization_layer_keeps_its_statistics_through_fit():
    bn = keras.layers.BatchNormalization(name="bn")
    model = keras.Sequential([keras.Input(shape=(4,)), bn, keras.layers.Dense(1, name="out")])
    bn.trainable = False
    before = bn.get_weights()
    model.compile(optimizer="adam", loss="mse")
    rng = np.random.default_rng(3)
    model.fit(rng.random((16, 4)) * 5, rng.random((16, 1)), epochs=2, batch_size=4, verbose=0)
    for now, then in zip(bn.get_weights(), before, strict=True):
        np.testing.assert_array_equal(now, then)  # gamma, beta and the statistics


def make_base_model(name="base"):
    """A small image model with BatchNormalization: it stands in for Xception (which the
    guide loads with ImageNet weights) as the base to transfer from."""
    return keras.Sequential(
        [
            keras.Input(shape=(12, 12, 3)),
            keras.layers.Conv2D(8, 3, activation="relu", name=f"{name}_conv1"),
            keras.layers.BatchNormalization(name=f"{name}_bn"),
            keras.layers.Conv2D(8, 3, activation="relu", name=f"{name}_conv2"),
        ],
        name=name,
    )


def images(seed, count):
    """Seeded 12x12 RGB images in 0-255; label 1 where the left half is brighter."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 255, (count, 12, 12, 3)).astype("float32")
    x[: count // 2, :, :6] *= 0.6  # half of them: a darker left half
    y = (x[:, :, :6].mean(axis=(1, 2, 3)) > x[:, :, 6:].mean(axis=(1, 2, 3))).astype("float32")
    return x, y


def pretrained_base():
    """The base trained on another task (a regression on its pooled features), so its
    weights and BatchNormalization statistics are no longer their initial values."""
    tf.random.set_seed(0)
    base_model = make_base_model()
    pretraining = keras.Sequential(
        [base_model, keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(1)]
    )
    x, _ = images(10, 32)
    pretraining.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
    pretraining.fit(x / 255.0, x.std(axis=(1, 2, 3)) / 255.0, epochs=2, batch_size=8, verbose=0)
    return base_model


def test_the_transfer_learning_workflow_freeze_train_the_top_then_fine_tune():
    base_model = pretrained_base()
    pretrained = base_model.get_weights()
    base_model.trainable = False  # Freeze the base_model

    # Create new model on top
    inputs = keras.Input(shape=(12, 12, 3))
    scale_layer = keras.layers.Rescaling(scale=1 / 127.5, offset=-1)  # to [-1, 1]
    x = scale_layer(inputs)
    x = base_model(x, training=False)  # the base's BatchNormalization stays in inference mode
    x = keras.layers.GlobalAveragePooling2D()(x)
    x = keras.layers.Dropout(0.2)(x)  # Regularize with dropout
    outputs = keras.layers.Dense(1)(x)
    model = keras.Model(inputs, outputs)
    printed = []
    model.summary(print_fn=printed.append)
    assert printed[0].splitlines()[-3:] == [
        "Total params: 849",  # base: 224 + 32 + 584; top: 9
        "Trainable params: 9",
        "Non-trainable params: 840",
    ]

    x_train, y_train = images(20, 48)
    x_val, y_val = images(21, 16)

    def flip(image, label):  # the augmentation, in the pipeline (see the docstring)
        return tf.image.random_flip_left_right(image, seed=1), label

    train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train))
    validation_ds = tf.data.Dataset.from_tensor_slices((x_val, y_val))
    assert int(tf.data.experimental.cardinality(train_ds)) == 48  # "Number of training samples"
    assert int(tf.data.experimental.cardinality(validation_ds)) == 16
    batch_size = 16  # batch, with caching and prefetching, as the guide does
    train_ds = train_ds.cache().map(flip).batch(batch_size).prefetch(buffer_size=10)
    validation_ds = validation_ds.cache().batch(batch_size).prefetch(buffer_size=10)

    # Train the top layer
    model.compile(
        optimizer=keras.optimizers.Adam(),
        loss=keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=[keras.metrics.BinaryAccuracy()],
    )
    history = model.fit(train_ds, epochs=3, validation_data=validation_ds, verbose=0)
    assert sorted(history.history) == [
        "binary_accuracy",
        "loss",
        "val_binary_accuracy",
        "val_loss",
    ]
    for now, then in zip(base_model.get_weights(), pretrained, strict=True):
        np.testing.assert_array_equal(now, then)  # the frozen base did not move

    # Do a round of fine-tuning of the entire model
    base_model.trainable = True
    printed = []
    model.summary(print_fn=printed.append)
    assert printed[0].splitlines()[-2:] == [
        "Trainable params: 833",
        "Non-trainable params: 16",  # only BatchNormalization's moving mean and variance
    ]
    model.compile(
        optimizer=keras.optimizers.Adam(1e-5),  # Low learning rate
        loss=keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=[keras.metrics.BinaryAccuracy()],
    )
    before = base_model.get_weights()
    history = model.fit(train_ds, epochs=2, validation_data=validation_ds, verbose=0)
    assert len(history.history["val_loss"]) == 2
    after = dict(zip([w.name for w in base_model.weights], base_model.get_weights(), strict=True))
    before = dict(zip([w.name for w in base_model.weights], before, strict=True))
    # An Adam step moves a weight by at most about rate * (1 - beta_1) / sqrt(1 - beta_2),
    # 3.2 times the rate; 2 epochs of 3 batches each.
    most = 2 * 3 * 1e-5 * 0.1 / np.sqrt(0.001)
    for name in ("base_conv1/kernel:0", "base_bn/gamma:0", "base_conv2/bias:0"):
        change = np.abs(after[name] - before[name]).max()
        assert 0 < change <= most, name  # fine-tuned, a little
    for name in ("base_bn/moving_mean:0", "base_bn/moving_variance:0"):
        np.testing.assert_array_equal(after[name], before[name])  # training=False kept them


def test_a_custom_training_loop_updates_only_the_trainable_weights():
    base_model = pretrained_base()
    base_model.trainable = False  # Freeze base model
    inputs = keras.Input(shape=(12, 12, 3))
    x = base_model(inputs, training=False)
    x = keras.layers.GlobalAveragePooling2D()(x)
    outputs = keras.layers.Dense(1)(x)
    model = keras.Model(inputs, outputs)

    loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
    optimizer = keras.optimizers.Adam()
    frozen = base_model.get_weights()
    top = [w.numpy().copy() for w in model.trainable_weights]
    assert len(top) == 2  # the Dense kernel and bias

    x_train, y_train = images(30, 16)
    new_dataset = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train[:, None]))
    for inputs, targets in new_dataset.batch(8):  # Iterate over the batches of a dataset
        with tf.GradientTape() as tape:
            predictions = model(inputs)  # Forward pass
            loss_value = loss_fn(targets, predictions)
        # Get gradients of loss wrt the *trainable* weights, then update them.
        gradients = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply_gradients(zip(gradients, model.trainable_weights))
    for now, then in zip(base_model.get_weights(), frozen, strict=True):
        np.testing.assert_array_equal(now, then)
    for variable, then in zip(model.trainable_weights, top, strict=True):
        assert not np.array_equal(variable.numpy(), then)


def test_freezing_a_layer_inside_a_functional_model_then_recompiling():
    inputs = keras.Input(shape=(4,))
    hidden = keras.layers.Dense(3, activation="relu", name="hidden")(inputs)
    outputs = keras.layers.Dense(1, name="out")(hidden)
    model = keras.Model(inputs, outputs)
    model.get_layer("hidden").trainable = False
    assert [w.name for w in model.trainable_weights] == ["out/kernel:0", "out/bias:0"]
    assert len(model.non_trainable_weights) == 2

    model.compile(optimizer="sgd", loss="mse")  # compile after changing trainable
    rng = np.random.default_rng(4)
    x, y = rng.random((8, 4)), rng.random((8, 1))
    hidden_weights = model.get_layer("hidden").get_weights()
    model.fit(x, y, epochs=2, verbose=0)
    for now, then in zip(model.get_layer("hidden").get_weights(), hidden_weights, strict=True):
        np.testing.assert_array_equal(now, then)

    model.get_layer("hidden").trainable = True  # unfreeze, recompile: it trains again
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, y, epochs=2, verbose=0)
    changed = model.get_layer("hidden").get_weights()
    assert not np.array_equal(changed[0], hidden_weights[0])
