"""TF2's namespaces: ek.math / linalg / nn / config / keras, laid out (and behaving) as TF's."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

SIM = "/job:localhost/replica:0/task:0/device:SIM:0"  # TF's full name


# --- the namespaces hold the flat functions under TF's names ---------------------------------
@pytest.mark.parametrize("namespace", [ek.math, ek.linalg, ek.nn])
def test_every_listed_name_exists_and_is_the_flat_one_when_there_is_one(namespace):
    assert namespace.__all__
    for name in namespace.__all__:
        function = getattr(namespace, name)
        assert callable(function), name
        if hasattr(ek, name) and name not in ("math", "nn", "linalg"):
            assert getattr(ek, name) is function, name


def test_tf2_spellings_compute_what_tf_computes():
    x = ek.constant([[1.0, 2.0], [3.0, 4.0]])
    assert ek.math.reduce_sum(x, axis=1).numpy().tolist() == [3.0, 7.0]
    assert ek.math.mod(-7, 2).numpy() == 1  # floormod, as tf.math.mod
    assert ek.linalg.matmul(x, x).numpy().tolist() == [[7.0, 10.0], [15.0, 22.0]]
    assert ek.linalg.matrix_transpose(ek.zeros([5, 2, 3])).shape == (5, 3, 2)
    assert ek.nn.embedding_lookup(x, [1]).numpy().tolist() == [[3.0, 4.0]]
    assert ek.nn.max_pool2d(ek.ones([1, 4, 4, 1]), 2, 2, "VALID").shape == (1, 2, 2, 1)
    with pytest.raises(InvalidArgumentError, match="matrix_transpose: needs a matrix"):
        ek.linalg.matrix_transpose([1.0, 2.0])


# --- the Keras-style pieces live together under eagerkit/keras ---------------------------------
def test_tf1_names_are_the_keras_folder_pieces():
    # (their own module objects, so a missing name is reported as ek.layers.X: the same members)
    assert ek.layers.Dense is ek.keras.layers.Dense and ek.layers.__all__ == ek.keras.layers.__all__
    assert ek.initializers.Zeros is ek.keras.initializers.Zeros
    assert ek.Model is ek.keras.Model and ek.Sequential is ek.keras.Sequential
    assert ek.losses is ek.keras.tf1_losses and ek.metrics is ek.keras.tf1_metrics
    assert ek.losses.Reduction is ek.keras.tf1_losses.Reduction
    assert ek.layers.Dense.__module__ == "eagerkit.keras.layers.core"
    # TF1's tf.losses gives one scalar; Keras' function gives one loss per example.
    assert ek.losses.mean_squared_error([[0.0, 1.0]], [[1.0, 1.0]]).shape == ()
    assert ek.keras.losses.mean_squared_error([[0.0, 1.0]], [[1.0, 1.0]]).shape == (1,)


# --- ek.keras.losses: the values in tf.keras.losses' documentation ----------------------------
Y_TRUE = [[0.0, 1.0], [0.0, 0.0]]
Y_PRED = [[0.6, 0.4], [0.4, 0.6]]


@pytest.mark.parametrize(
    ("loss", "y_true", "y_pred", "expected"),
    [
        (ek.keras.losses.MeanSquaredError(), Y_TRUE, [[1.0, 1.0], [1.0, 0.0]], 0.5),
        (ek.keras.losses.MeanAbsoluteError(), Y_TRUE, [[1.0, 1.0], [1.0, 0.0]], 0.5),
        (ek.keras.losses.BinaryCrossentropy(), Y_TRUE, Y_PRED, 0.815),
        (ek.keras.losses.Huber(), Y_TRUE, Y_PRED, 0.155),
        (
            ek.keras.losses.CategoricalCrossentropy(),
            [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]],
            1.177,
        ),
        (
            ek.keras.losses.SparseCategoricalCrossentropy(),
            [1, 2],
            [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]],
            1.177,
        ),
    ],
)
def test_keras_losses_give_the_documented_values(loss, y_true, y_pred, expected):
    value = loss(y_true, y_pred)
    assert value.dtype == ek.float32 and value.shape == ()
    assert round(float(value), 3) == expected


def test_keras_loss_reductions_and_sample_weights():
    y_pred = [[1.0, 1.0], [1.0, 0.0]]
    mse = ek.keras.losses.MeanSquaredError
    assert float(mse()(Y_TRUE, y_pred, sample_weight=[0.7, 0.3])) == pytest.approx(0.25)
    assert float(mse(reduction="sum")(Y_TRUE, y_pred)) == 1.0
    assert mse(reduction="none")(Y_TRUE, y_pred).numpy().tolist() == [0.5, 0.5]
    with pytest.raises(InvalidArgumentError, match="unknown reduction 'mean'"):
        mse(reduction="mean")
    with pytest.raises(InvalidArgumentError, match=r"y_true has shape \(2,\) but y_pred"):
        mse()([1.0, 2.0], [[1.0, 2.0]])


def test_keras_losses_from_logits_agree_with_probabilities():
    logits = ek.constant([[2.0, -1.0, 0.5]])
    probs = ek.nn.softmax(logits)
    by_logits = ek.keras.losses.SparseCategoricalCrossentropy(from_logits=True)([0], logits)
    by_probs = ek.keras.losses.SparseCategoricalCrossentropy()([[0]], probs)
    assert float(by_logits) == pytest.approx(float(by_probs), rel=1e-5)
    bce_logits = ek.keras.losses.BinaryCrossentropy(from_logits=True)([[1.0]], [[0.3]])
    bce_probs = ek.keras.losses.BinaryCrossentropy()([[1.0]], ek.sigmoid([[0.3]]))
    assert float(bce_logits) == pytest.approx(float(bce_probs), rel=1e-5)


def test_keras_losses_have_gradients():
    w = ek.Variable([[0.5], [-0.5]])
    with ek.GradientTape() as tape:
        loss = ek.keras.losses.MeanSquaredError()([[1.0]], ek.matmul([[1.0, 2.0]], w))
    (grad,) = tape.gradient(loss, [w])
    # d/dw (x.w - 1)^2 = 2 (x.w - 1) x, with x.w = -0.5
    assert grad.numpy().ravel().tolist() == [-3.0, -6.0]


# --- ek.keras.metrics: float32 results ---------------------------------------------------------
def test_keras_metrics_are_float32_and_match_the_documented_values():
    mean = ek.keras.metrics.Mean()
    mean.update_state([1.0, 3.0, 5.0, 7.0])
    assert mean.result().dtype == ek.float32 and float(mean.result()) == 4.0
    mean.reset_state()
    assert float(mean.result()) == 0.0
    accuracy = ek.keras.metrics.Accuracy()
    assert float(accuracy([[1], [2], [3], [4]], [[0], [2], [3], [4]])) == 0.75
    sparse = ek.keras.metrics.SparseCategoricalAccuracy()
    sparse.update_state([[2], [1]], [[0.1, 0.6, 0.3], [0.05, 0.95, 0]])
    assert float(sparse.result()) == 0.5
    categorical = ek.keras.metrics.CategoricalAccuracy()
    categorical.update_state([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    assert float(categorical.result()) == 0.5
    binary = ek.keras.metrics.BinaryAccuracy()
    assert float(binary([[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]])) == 0.75
    mse = ek.keras.metrics.MeanSquaredError()
    assert float(mse([[0, 1], [0, 0]], [[1, 1], [0, 0]])) == 0.25
    total = ek.keras.metrics.Sum()
    assert float(total([1.0, 3.0, 5.0, 7.0])) == 16.0
    assert ek.metrics.Mean()([1.0]).dtype == ek.float64  # TF1's tfe.metrics stay float64


@pytest.mark.parametrize("make", [ek.metrics.Mean, ek.keras.metrics.Mean, ek.keras.metrics.Sum])
@pytest.mark.parametrize("bad", [None, "abc", [[1.0], [2.0, 3.0]], [None, 1.0]])
def test_metrics_refuse_none_strings_and_ragged_values_and_keep_their_state(make, bad):
    metric = make()
    metric.update_state([2.0])
    before = [v.numpy() for v in metric.variables]
    with pytest.raises(InvalidArgumentError, match="cannot use .* as metric values"):
        metric.update_state(bad)
    assert [v.numpy() for v in metric.variables] == before


def test_metric_weights_that_do_not_broadcast_are_refused():
    metric = ek.keras.metrics.Mean()
    with pytest.raises(InvalidArgumentError, match=r"weights of shape \(2,\) do not broadcast"):
        metric.update_state([1.0, 2.0, 3.0], sample_weight=[1.0, 2.0])
    assert float(metric.count) == 0.0


# --- ek.keras.optimizers: Keras' names, defaults and rules --------------------------------------
def _run(optimizer, grads):
    w = ek.Variable(1.0)
    for g in grads:
        optimizer.apply_gradients([(ek.constant(g), w)])
    return float(w)


def test_sgd_plain_momentum_and_nesterov_follow_keras_rules():
    assert ek.keras.optimizers.SGD().learning_rate == 0.01
    assert _run(ek.keras.optimizers.SGD(learning_rate=0.1), [1.0, 1.0]) == pytest.approx(0.8)
    assert ek.keras.optimizers.SGD(0.1).get_slot_names() == []
    # velocity: -0.1, then 0.9 * -0.1 - 0.1 = -0.19
    momentum = ek.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
    assert _run(momentum, [1.0, 1.0]) == pytest.approx(1 - 0.1 - 0.19)
    # nesterov: w += 0.9 * v - 0.1 g: steps -0.19, then 0.9 * -0.19 - 0.1 = -0.271
    nesterov = ek.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9, nesterov=True)
    assert _run(nesterov, [1.0, 1.0]) == pytest.approx(1 - 0.19 - 0.271)


def test_adam_uses_keras_names_and_defaults():
    adam = ek.keras.optimizers.Adam()
    assert repr(adam) == "<ek.keras.optimizers.Adam learning_rate=0.001>"
    assert (adam.learning_rate, adam.beta_1, adam.beta_2, adam.epsilon) == (0.001, 0.9, 0.999, 1e-7)
    w, m, v = 1.0, 0.0, 0.0
    for t, g in enumerate([0.5, -0.2, 0.1], start=1):  # Keras' Adam, by hand
        m, v = 0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g
        w -= 0.01 * np.sqrt(1 - 0.999**t) / (1 - 0.9**t) * m / (np.sqrt(v) + 1e-7)
    assert _run(ek.keras.optimizers.Adam(learning_rate=0.01), [0.5, -0.2, 0.1]) == pytest.approx(w)


def test_rmsprop_and_adagrad_follow_keras_rules():
    rms = ek.keras.optimizers.RMSprop(learning_rate=0.01)
    assert rms.rho == 0.9 and rms.epsilon == 1e-7
    # Keras starts the mean of g^2 at 0: ms = 0.1 * 4, step = 0.01 * 2 / sqrt(0.4 + 1e-7)
    assert _run(rms, [2.0]) == pytest.approx(1 - 0.02 / np.sqrt(0.4 + 1e-7))
    ada = ek.keras.optimizers.Adagrad(learning_rate=0.5)
    assert _run(ada, [0.3]) == pytest.approx(1 - 0.15 / (np.sqrt(0.19) + 1e-7))


def test_keras_optimizer_minimizes_a_keras_model():
    ek.set_random_seed(0)
    model = ek.keras.Sequential([ek.keras.layers.Dense(1)])
    x = ek.constant([[1.0], [2.0], [3.0]])
    y = ek.constant([[2.0], [4.0], [6.0]])
    loss_fn = ek.keras.losses.MeanSquaredError()
    optimizer = ek.keras.optimizers.Adam(learning_rate=0.1)
    first = float(loss_fn(y, model(x)))
    for _ in range(100):
        with ek.GradientTape() as tape:
            loss = loss_fn(y, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
    assert float(loss) < first / 100
    assert int(optimizer.iterations) == 100


# --- ek.config ----------------------------------------------------------------------------------
def test_config_lists_devices_in_tf_form(no_gpu):
    assert ek.config.list_physical_devices("CPU") == [
        ek.config.PhysicalDevice("/physical_device:CPU:0", "CPU")
    ]
    assert ek.config.list_logical_devices("cpu")[0].name == "/device:CPU:0"
    assert ek.config.list_physical_devices("GPU") == []  # the no_gpu fixture's machine


def test_set_visible_devices_hides_the_simulated_gpu_and_shows_it_again():
    try:
        ek.devices.enable_simulated_gpu(as_gpu=True)
        gpus = ek.config.list_physical_devices("GPU")
        assert gpus == [ek.config.PhysicalDevice("/physical_device:GPU:0", "GPU")]
        assert ek.num_gpus() == 1
        ek.config.set_visible_devices([], "GPU")
        assert ek.num_gpus() == 0 and ek.config.list_logical_devices("GPU") == []
        assert ek.config.list_physical_devices("GPU") == gpus  # hidden, still there
        with ek.device("/gpu:0"):  # soft placement (TF2's default): the block runs on the CPU
            assert ek.ones([1]).device.endswith("CPU:0")
        ek.config.set_soft_device_placement(False)
        with pytest.raises(InvalidArgumentError, match="hidden with ek.config.set_visible"):
            with ek.device("/gpu:0"):
                pass
        ek.config.set_soft_device_placement(True)
        ek.config.set_visible_devices([])  # the CPU always stays visible
        assert ek.list_devices() == ["/cpu:0"]
        ek.config.set_visible_devices(ek.config.list_physical_devices())
        assert ek.num_gpus() == 1
        with ek.device("GPU:0"):
            assert ek.ones([1]).device == SIM
    finally:
        ek.config.set_soft_device_placement(True)
        ek.config.set_visible_devices(ek.config.list_physical_devices())
        ek.devices.disable_simulated_gpu()


def test_set_visible_devices_refuses_what_is_not_a_device():
    before = ek.list_devices()
    with pytest.raises(InvalidArgumentError, match="expected PhysicalDevice objects"):
        ek.config.set_visible_devices(["/gpu:0"])
    with pytest.raises(InvalidArgumentError, match="expected a list of PhysicalDevice objects"):
        ek.config.set_visible_devices("GPU")
    ghost = ek.config.PhysicalDevice("/physical_device:GPU:7", "GPU")
    with pytest.raises(InvalidArgumentError, match=r"no such device\(s\) \['/gpu:7'\]"):
        ek.config.set_visible_devices([ghost])
    assert ek.list_devices() == before  # the failed calls hid nothing
