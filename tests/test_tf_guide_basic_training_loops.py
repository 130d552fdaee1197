"""TF's guide "Basic training loops" (tensorflow.org/guide/basic_training_loops), ported with
``import eagerkit as tf`` and ``from eagerkit import keras``: the synthetic line, a
``tf.Module`` model, the hand-written loop with ``GradientTape`` and ``assign_sub``, the same
loop on a ``keras.Model`` subclass, and ``compile``/``fit``, each printing or giving what the
guide shows.

The guide's numbers come from TF's random noise, which eagerkit does not draw bit for bit;
the tests check each printed W, b and loss against the same gradient descent done in numpy on
eagerkit's data, and the answers against the line the data was drawn from.

Where eagerkit differs (on purpose or not yet):

- ``tf.linspace(-2, 2, 201)`` of two Python ints: TF gives float64 (its step is an int32
  division), eagerkit float32; the guide casts to float32 next, so both go on the same.
- ``report``: the guide's formats the global ``current_loss`` (its argument goes unused);
  the port formats the argument it is given, as the guide means to.

Examples skipped, with why: the matplotlib plots (a test has no screen to show them; the
values they would plot are checked instead).
"""

import re

import numpy as np
import pytest

import eagerkit as tf
from eagerkit import keras

# The actual line
TRUE_W = 3.0
TRUE_B = 2.0

NUM_EXAMPLES = 201


def f(x):
    return x * TRUE_W + TRUE_B


def make_data():
    """The guide's data: points along the line, with Gaussian noise (seeded by conftest)."""
    # A vector of random x values
    x = tf.linspace(-2, 2, NUM_EXAMPLES)
    x = tf.cast(x, tf.float32)
    # Generate some noise
    noise = tf.random.normal(shape=[NUM_EXAMPLES])
    # Calculate y
    y = f(x) + noise
    return x, y


class MyModel(tf.Module):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        # Initialize the weights to `5.0` and the bias to `0.0`
        # In practice, these should be randomly initialized
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def __call__(self, x):
        return self.w * x + self.b


class MyModelKeras(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        # Initialize the weights to `5.0` and the bias to `0.0`
        # In practice, these should be randomly initialized
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def call(self, x):
        return self.w * x + self.b


# This computes a single loss value for an entire batch
def loss(target_y, predicted_y):
    return tf.reduce_mean(tf.square(target_y - predicted_y))


# Given a callable model, inputs, outputs, and a learning rate...
def train(model, x, y, learning_rate):
    with tf.GradientTape() as t:
        # Trainable variables are automatically tracked by GradientTape
        current_loss = loss(y, model(x))

    # Use GradientTape to calculate the gradients with respect to W and b
    dw, db = t.gradient(current_loss, [model.w, model.b])

    # Subtract the gradient scaled by the learning rate
    model.w.assign_sub(learning_rate * dw)
    model.b.assign_sub(learning_rate * db)


def report(model, loss):
    return f"W = {model.w.numpy():1.2f}, b = {model.b.numpy():1.2f}, loss={loss:2.5f}"


def training_loop(model, x, y, epochs=range(10)):
    """The guide's loop; returns the W and b it printed after each epoch."""
    weights, biases = [], []
    for epoch in epochs:
        # Update the model with the single giant batch
        train(model, x, y, learning_rate=0.1)

        # Track this before I update
        weights.append(model.w.numpy())
        biases.append(model.b.numpy())
        current_loss = loss(y, model(x))

        print(f"Epoch {epoch:2d}:")
        print("    ", report(model, current_loss))
    return weights, biases


def descent_in_numpy(x, y, epochs=10, learning_rate=0.1):
    """The same gradient descent in float64 numpy: [(w, b, loss after the step)]."""
    x, y = x.numpy().astype(np.float64), y.numpy().astype(np.float64)
    w, b, steps = 5.0, 0.0, []
    for _ in range(epochs):
        error = w * x + b - y
        w, b = w - learning_rate * np.mean(2 * error * x), b - learning_rate * np.mean(2 * error)
        steps.append((w, b, np.mean((w * x + b - y) ** 2)))
    return steps


def test_the_data_lies_along_the_line_with_unit_noise():
    x, y = make_data()
    assert x.shape == (201,) and x.dtype == tf.float32 and y.dtype == tf.float32
    assert (float(x[0]), float(x[-1]), float(x[100])) == (-2.0, 2.0, 0.0)
    np.testing.assert_allclose(np.diff(x.numpy()), 0.02, rtol=1e-4)  # evenly spaced
    noise = y.numpy() - (3.0 * x.numpy() + 2.0)
    assert abs(noise.mean()) < 0.2 and 0.8 < noise.std() < 1.2


def test_a_module_model_lists_its_variables_and_computes_the_line():
    model = MyModel()
    # List the variables tf.modules's built-in variable aggregation: sorted by attribute
    # name, so b comes before w, as the guide prints them.
    assert "Variables: " + str(model.variables) == (
        "Variables: (<ek.Variable 'Variable:0' shape=() dtype=float32, numpy=0.0>, "
        "<ek.Variable 'Variable:0' shape=() dtype=float32, numpy=5.0>)"
    )
    # Verify the model works
    assert model(3.0).numpy() == 15.0
    x, y = make_data()
    printed = "Current loss: %1.6f" % loss(y, model(x)).numpy()
    expected = np.mean((y.numpy() - 5.0 * x.numpy()) ** 2)
    assert printed == "Current loss: %1.6f" % expected


def test_the_hand_written_loop_prints_w_and_b_walking_to_the_line(capsys):
    x, y = make_data()
    model = MyModel()
    current_loss = loss(y, model(x))
    print("Starting:")
    print("    ", report(model, current_loss))
    weights, biases = training_loop(model, x, y)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Starting:" and lines[1].startswith("     W = 5.00, b = 0.00, loss=")
    assert lines[2::2] == [f"Epoch {epoch:2d}:" for epoch in range(10)]
    shown = [re.fullmatch(r" {5}W = (.*), b = (.*), loss=(.*)", line) for line in lines[3::2]]
    numpy_steps = descent_in_numpy(x, y)
    for match, (w, b, step_loss) in zip(shown, numpy_steps):
        printed_w, printed_b, printed_loss = (float(group) for group in match.groups())
        # As printed (rounded to 2 and 5 places), give or take float32's last digit.
        assert abs(printed_w - w) <= 0.005 + 1e-5 and abs(printed_b - b) <= 0.005 + 1e-5
        assert abs(printed_loss - step_loss) <= 5e-6 + 1e-5 * step_loss
    np.testing.assert_allclose(weights, [w for w, _, _ in numpy_steps], rtol=1e-5)
    np.testing.assert_allclose(biases, [b for _, b, _ in numpy_steps], rtol=1e-5)
    # W falls from 5 towards 3 and b climbs from 0 towards 2, every epoch
    assert all(3.0 < later < earlier for earlier, later in zip([5.0, *weights], weights))
    assert all(earlier < later < 2.2 for earlier, later in zip([0.0, *biases], biases))
    final_loss = float(loss(model(x), y))
    assert final_loss < float(current_loss) / 10


def test_a_keras_model_runs_the_same_loop_and_saves_a_checkpoint(tmp_path, capsys):
    x, y = make_data()
    module_weights = training_loop(MyModel(), x, y)
    keras_model = MyModelKeras()
    # Reuse the training loop with a Keras model
    keras_weights = training_loop(keras_model, x, y)
    assert keras_weights == module_weights  # the same numbers, step by step
    assert keras_model.variables == [keras_model.w, keras_model.b]  # in assignment order
    assert keras_model.trainable_variables == [keras_model.w, keras_model.b]
    outputs = capsys.readouterr().out.splitlines()
    assert outputs[:20] == outputs[20:]  # and the same prints
    # You can also save a checkpoint using Keras's built-in support
    keras_model.save_weights(str(tmp_path / "my_checkpoint"))
    restored = MyModelKeras()
    restored.load_weights(str(tmp_path / "my_checkpoint"))
    assert restored.w.numpy() == keras_model.w.numpy()
    assert restored.b.numpy() == keras_model.b.numpy()


def test_compile_and_fit_train_the_keras_model_as_the_hand_written_loop(capsys):
    x, y = make_data()
    keras_model = MyModelKeras()
    # compile sets the training parameters
    keras_model.compile(
        # By default, fit() uses tf.function().  You can
        # turn that off for debugging, but it is on now.
        run_eagerly=False,
        # Using a built-in optimizer, configuring as an object
        optimizer=keras.optimizers.SGD(learning_rate=0.1),
        # Keras comes with built-in MSE error
        # However, you could use the loss function
        # defined above
        loss=keras.losses.mean_squared_error,
    )
    print(x.shape[0])
    history = keras_model.fit(x, y, epochs=10, batch_size=1000)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "201"
    assert [line for line in printed if line.startswith("Epoch")] == [
        f"Epoch {epoch}/10" for epoch in range(1, 11)
    ]
    assert sum("1/1 [" in line for line in printed) == 10  # one batch of all 201 per epoch
    # fit reports each epoch's loss from before that epoch's update (so its first loss is the
    # starting one): the hand-written loop's losses, one epoch behind.
    numpy_steps = descent_in_numpy(x, y)
    start = np.mean((5.0 * x.numpy() - y.numpy()) ** 2)
    before = [start] + [step_loss for _, _, step_loss in numpy_steps[:-1]]
    np.testing.assert_allclose(history.history["loss"], before, rtol=1e-5)
    w, b, _ = numpy_steps[-1]
    assert keras_model.w.numpy() == pytest.approx(w, rel=1e-5)
    assert keras_model.b.numpy() == pytest.approx(b, rel=1e-5)


def test_fit_with_sgd_and_mse_reaches_the_true_line():
    x, y = make_data()
    keras_model = MyModelKeras()
    keras_model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.1), loss="mse")
    keras_model.fit(x, y, epochs=100, batch_size=1000, verbose=0)
    # The best line through the noisy points (least squares), and the true one near it.
    slope, intercept = np.polyfit(x.numpy(), y.numpy(), 1)
    assert keras_model.w.numpy() == pytest.approx(slope, abs=1e-3)
    assert keras_model.b.numpy() == pytest.approx(intercept, abs=1e-3)
    assert abs(float(keras_model.w.numpy()) - TRUE_W) < 0.25
    assert abs(float(keras_model.b.numpy()) - TRUE_B) < 0.25
