"""TF2's "Customization basics: tensors and operations" and "Eager execution" guides, ported
with ``import eagerkit as tf``. eagerkit prints ``ek.Tensor(...)`` where TF prints
``tf.Tensor(...)`` and ``str(dtype)`` is ``int32`` (TF: ``<dtype: 'int32'>``); the values
are TF's. The MNIST download is out of scope (scikit-learn's digits stand in for MNIST), and
summaries are JSON lines that ``tf.summary.read_events`` reads, not TensorBoard files."""

import time

import numpy as np

import eagerkit as tf


def _printed(capsys):
    return capsys.readouterr().out.splitlines()


def test_tensors_and_operations(capsys):
    print(tf.math.add(1, 2))
    print(tf.math.add([1, 2], [3, 4]))
    print(tf.math.square(5))
    print(tf.math.reduce_sum([1, 2, 3]))
    # Operator overloading is also supported
    print(tf.math.square(2) + tf.math.square(3))
    x = tf.linalg.matmul([[1]], [[2, 3]])
    print(x)
    print(x.shape)
    print(x.dtype)
    assert _printed(capsys) == [
        "ek.Tensor(3, shape=(), dtype=int32)",
        "ek.Tensor([4 6], shape=(2,), dtype=int32)",
        "ek.Tensor(25, shape=(), dtype=int32)",
        "ek.Tensor(6, shape=(), dtype=int32)",
        "ek.Tensor(13, shape=(), dtype=int32)",
        "ek.Tensor([[2 3]], shape=(1, 2), dtype=int32)",
        "(1, 2)",
        "<dtype: 'int32'>",  # TF prints a dtype this way
    ]


def test_numpy_compatibility():
    ndarray = np.ones([3, 3])
    # TensorFlow operations convert numpy arrays to Tensors automatically
    tensor = tf.math.multiply(ndarray, 42)
    assert tensor.dtype == tf.float64 and tensor.numpy().tolist() == [[42.0] * 3] * 3
    # And NumPy operations convert Tensors to NumPy arrays automatically
    added = np.add(tensor, 1)
    assert isinstance(added, np.ndarray) and added.tolist() == [[43.0] * 3] * 3
    # The .numpy() method explicitly converts a Tensor to a numpy array
    assert isinstance(tensor.numpy(), np.ndarray)


def test_gpu_acceleration_and_explicit_device_placement(capsys, no_gpu):
    x = tf.random.uniform([3, 3])
    assert tf.config.list_physical_devices("GPU") == []  # the no_gpu fixture's machine
    assert x.device.endswith("GPU:0") is False and x.device.endswith("CPU:0")

    def time_matmul(x):
        start = time.time()
        for _loop in range(10):
            tf.linalg.matmul(x, x)
        result = time.time() - start
        print("10 loops: {:0.2f}ms".format(1000 * result))

    # Force execution on CPU
    print("On CPU:")
    with tf.device("CPU:0"):
        x = tf.random.uniform([1000, 1000])
        assert x.device.endswith("CPU:0")
        time_matmul(x)
    lines = _printed(capsys)
    assert lines[0] == "On CPU:" and lines[1].startswith("10 loops: ")

    try:  # the same code on the simulated GPU, standing in for GPU:0
        tf.devices.enable_simulated_gpu(as_gpu=True)
        if tf.config.list_physical_devices("GPU"):
            with tf.device("GPU:0"):  # Or GPU:1 for the 2nd GPU, GPU:2 for the 3rd etc.
                x = tf.random.uniform([100, 100])
                assert x.device.endswith("SIM:0")  # it says what it is
                time_matmul(x)
    finally:
        tf.devices.disable_simulated_gpu()


def test_datasets(tmp_path, capsys):
    ds_tensors = tf.data.Dataset.from_tensor_slices([1, 2, 3, 4, 5, 6])
    filename = tmp_path / "lines.txt"
    with open(filename, "w") as f:
        f.write("Line 1\nLine 2\nLine 3\n  ")
    ds_file = tf.data.TextLineDataset(str(filename))
    ds_tensors = ds_tensors.map(tf.math.square).shuffle(2).batch(2)
    ds_file = ds_file.batch(2)
    batches = [x.numpy().tolist() for x in ds_tensors]
    assert [len(b) for b in batches] == [2, 2, 2]
    assert sorted(v for b in batches for v in b) == [1, 4, 9, 16, 25, 36]
    lines = [x.numpy().tolist() for x in ds_file]
    assert lines == [[b"Line 1", b"Line 2"], [b"Line 3", b"  "]]


def test_eager_execution_setup_and_basic_usage(capsys):
    assert tf.executing_eagerly()
    x = [[2.0]]
    m = tf.matmul(x, x)
    print("hello, {}".format(m))
    a = tf.constant([[1, 2], [3, 4]])
    print(a)
    # Broadcasting support
    b = tf.add(a, 1)
    print(b)
    # Operator overloading is supported
    print(a * b)
    # Use NumPy values
    c = np.multiply(a, b)
    print(c)
    # Obtain numpy value from a tensor:
    print(a.numpy())
    assert _printed(capsys) == [
        "hello, [[4.]]",
        "ek.Tensor(",
        "[[1 2]",
        " [3 4]], shape=(2, 2), dtype=int32)",
        "ek.Tensor(",
        "[[2 3]",
        " [4 5]], shape=(2, 2), dtype=int32)",
        "ek.Tensor(",
        "[[ 2  6]",
        " [12 20]], shape=(2, 2), dtype=int32)",
        "[[ 2  6]",
        " [12 20]]",
        "[[1 2]",
        " [3 4]]",
    ]


def test_dynamic_control_flow(capsys):
    def fizzbuzz(max_num):
        counter = tf.constant(0)
        max_num = tf.convert_to_tensor(max_num)
        for num in range(1, max_num.numpy() + 1):
            num = tf.constant(num)
            if int(num % 3) == 0 and int(num % 5) == 0:
                print("FizzBuzz")
            elif int(num % 3) == 0:
                print("Fizz")
            elif int(num % 5) == 0:
                print("Buzz")
            else:
                print(num.numpy())
            counter += 1

    fizzbuzz(15)
    assert _printed(capsys) == [
        "1", "2", "Fizz", "4", "Buzz", "Fizz", "7", "8", "Fizz", "Buzz", "11", "Fizz", "13",
        "14", "FizzBuzz",
    ]  # fmt: skip


def test_eager_training_a_model():
    (x_train, y_train), _ = tf.datasets.load_digits()  # stands in for MNIST: 8x8 images
    dataset = tf.data.Dataset.from_tensor_slices(
        (tf.cast(x_train[:256, :, :, None], tf.float32), tf.cast(y_train[:256], tf.int64))
    ).batch(32)
    tf.random.set_seed(1)
    # Build the model
    mnist_model = tf.keras.Sequential(
        [
            tf.keras.layers.Conv2D(16, [3, 3], activation="relu", input_shape=(None, None, 1)),
            tf.keras.layers.Conv2D(16, [3, 3], activation="relu"),
            tf.keras.layers.GlobalAveragePooling2D(),
            tf.keras.layers.Dense(10),
        ]
    )
    for images, _labels in dataset.take(1):
        assert mnist_model(images[0:1]).numpy().shape == (1, 10)  # "Logits: "

    optimizer = tf.keras.optimizers.Adam(learning_rate=0.01)
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    loss_history = []

    def train_step(images, labels):
        with tf.GradientTape() as tape:
            logits = mnist_model(images, training=True)
            assert logits.shape == (32, 10)  # the guide: tf.debugging.assert_equal (see below)
            loss_value = loss_object(labels, logits)
        loss_history.append(loss_value.numpy().mean())
        grads = tape.gradient(loss_value, mnist_model.trainable_variables)
        optimizer.apply_gradients(zip(grads, mnist_model.trainable_variables))

    for _epoch in range(8):
        for images, labels in dataset:
            train_step(images, labels)
    assert np.mean(loss_history[-8:]) < 0.8 * np.mean(loss_history[:8])


def test_debugging_assert_equal():
    logits = tf.zeros([32, 10])
    tf.debugging.assert_equal(logits.shape, (32, 10))


class Linear(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.W = tf.Variable(5.0, name="weight")
        self.B = tf.Variable(10.0, name="bias")

    def call(self, inputs):
        return inputs * self.W + self.B


def test_variables_and_optimizers(tmp_path):
    # A toy dataset of points around 3 * x + 2
    NUM_EXAMPLES = 2000
    tf.random.set_seed(0)
    training_inputs = tf.random.normal([NUM_EXAMPLES])
    noise = tf.random.normal([NUM_EXAMPLES])
    training_outputs = training_inputs * 3 + 2 + noise

    # The loss function to be optimized
    def loss(model, inputs, targets):
        error = model(inputs) - targets
        return tf.reduce_mean(tf.square(error))

    def grad(model, inputs, targets):
        with tf.GradientTape() as tape:
            loss_value = loss(model, inputs, targets)
        return tape.gradient(loss_value, [model.W, model.B])

    model = Linear()
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
    initial = "Initial loss: {:.3f}".format(loss(model, training_inputs, training_outputs))
    assert 60 < float(initial.split(": ")[1]) < 80  # (2 x + 8)^2 averaged: about 68
    for _i in range(300):
        grads = grad(model, training_inputs, training_outputs)
        optimizer.apply_gradients(zip(grads, [model.W, model.B]))
    final = float(loss(model, training_inputs, training_outputs))
    assert 0.9 < final < 1.1  # the noise's variance
    assert abs(model.W.numpy() - 3) < 0.1 and abs(model.B.numpy() - 2) < 0.1

    # Object-based saving
    model.save_path = None
    checkpoint_dir = str(tmp_path / "tf_ckpt")
    checkpoint = tf.train.Checkpoint(optimizer=optimizer, model=model)
    path = checkpoint.save(checkpoint_dir)
    trained = model.W.numpy()
    model.W.assign(0.0)
    checkpoint.restore(tf.train.latest_checkpoint(str(tmp_path)))
    assert path and model.W.numpy() == trained


def test_object_oriented_metrics():
    m = tf.keras.metrics.Mean("loss")
    m(0)
    m(5)
    assert m.result().numpy() == 2.5  # => 2.5
    m([8, 9])
    assert m.result().numpy() == 5.5  # => 5.5


def test_custom_gradients_and_log1pexp():
    @tf.custom_gradient
    def clip_gradient_by_norm(x, norm):
        y = tf.identity(x)

        def grad_fn(dresult):
            return [tf.clip_by_norm(dresult, norm), None]

        return y, grad_fn

    def log1pexp(x):
        return tf.math.log(1 + tf.exp(x))

    def grad_log1pexp(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            value = log1pexp(x)
        return tape.gradient(value, x)

    # The gradient computation works fine at x = 0.
    assert grad_log1pexp(tf.constant(0.0)).numpy() == 0.5
    # However, x = 100 fails because of numerical instability.
    assert np.isnan(grad_log1pexp(tf.constant(100.0)).numpy())

    @tf.custom_gradient
    def log1pexp(x):  # the guide redefines it
        e = tf.exp(x)

        def grad(dy):
            return dy * (1 - 1 / (1 + e))

        return tf.math.log(1 + e), grad

    assert grad_log1pexp(tf.constant(0.0)).numpy() == 0.5
    # And the gradient computation also works at x = 100.
    assert grad_log1pexp(tf.constant(100.0)).numpy() == 1.0

    x = tf.constant([3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = clip_gradient_by_norm(x, 1.0) * [3.0, 4.0]  # the gradient arriving is [3, 4]
    assert tape.gradient(y, x).numpy().tolist() == [0.6000000238418579, 0.800000011920929]


def test_summaries_and_tensorboard(tmp_path):
    logdir = str(tmp_path / "tb")
    writer = tf.summary.create_file_writer(logdir)
    steps = 1000
    with writer.as_default():  # or call writer.set_as_default() before the loop.
        for i in range(steps):
            step = i + 1
            # Calculate loss with your real train function.
            loss = 1 - 0.001 * step
            if step % 100 == 0:
                tf.summary.scalar("loss", loss, step=step)
    events = tf.summary.read_events(logdir)
    assert [e["step"] for e in events] == list(range(100, 1001, 100))
    assert [round(e["value"], 3) for e in events] == [round(1 - 0.1 * k, 3) for k in range(1, 11)]
