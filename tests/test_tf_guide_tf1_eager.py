"""TF1's "Eager Execution" guide (TF 1.8-1.15), ported: ``import tensorflow as tf`` and
``import tensorflow.contrib.eager as tfe`` become ``import eagerkit as tf`` / ``as tfe``.
The seed articles' own examples are in test_seeds_*.py; this file adds the guide's other
sections. The MNIST download is out of scope (the data here is generated)."""

import numpy as np

import eagerkit as tf
import eagerkit as tfe


def test_setup_and_the_keras_layers(capsys):
    tf.enable_eager_execution()
    assert tf.executing_eagerly()

    class MySimpleLayer(tf.keras.layers.Layer):
        def __init__(self, output_units):
            super(MySimpleLayer, self).__init__()  # noqa: UP008 - the guide's spelling
            self.output_units = output_units

        def build(self, input_shape):
            # The build method gets called the first time your layer is used.
            # Creating variables on build() allows you to make their shape depend
            # on the input shape and hence removes the need for the user to specify
            # full shapes. It is possible to create variables during __init__() if
            # you already know their full shapes.
            self.kernel = self.add_variable("kernel", [input_shape[-1], self.output_units])

        def call(self, input):  # noqa: A002 - the guide's name
            # Override call() instead of __call__ so we can perform some bookkeeping.
            return tf.matmul(input, self.kernel)

    layer = MySimpleLayer(4)
    assert layer(tf.ones([2, 3])).shape == (2, 4) and layer.kernel.shape == (3, 4)

    model = tf.keras.Sequential(
        [
            tf.keras.layers.Dense(10, input_shape=(784,)),  # must declare input shape
            tf.keras.layers.Dense(10),
        ]
    )
    assert model(tf.zeros([5, 784])).shape == (5, 10)

    class MNISTModel(tf.keras.Model):
        def __init__(self):
            super(MNISTModel, self).__init__()  # noqa: UP008 - the guide's spelling
            self.dense1 = tf.keras.layers.Dense(units=10)
            self.dense2 = tf.keras.layers.Dense(units=10)

        def call(self, input):  # noqa: A002 - the guide's name
            """Run the model."""
            result = self.dense1(input)
            result = self.dense2(result)
            result = self.dense2(result)  # reuse variables from dense2 layer
            return result

    model = MNISTModel()
    batch = tf.zeros([1, 1, 784])
    print(batch.shape)  # => (1, 1, 784)
    result = model(batch)
    assert capsys.readouterr().out == "(1, 1, 784)\n"
    assert result.shape == (1, 1, 10) and len(model.variables) == 4


def test_computing_gradients(capsys):
    w = tf.Variable([[1.0]])
    with tf.GradientTape() as tape:
        loss = w * w
    grad = tape.gradient(loss, w)
    print(grad)  # => tf.Tensor([[ 2.]], shape=(1, 1), dtype=float32)
    assert capsys.readouterr().out == "ek.Tensor([[2.]], shape=(1, 1), dtype=float32)\n"


class Model(tf.keras.Model):
    def __init__(self):
        super(Model, self).__init__()  # noqa: UP008 - the guide's spelling
        self.W = tf.Variable(5.0, name="weight")
        self.B = tf.Variable(10.0, name="bias")

    def call(self, inputs):
        return inputs * self.W + self.B


def test_variables_and_optimizers(capsys):
    # A toy dataset of points around 3 * x + 2
    NUM_EXAMPLES = 2000
    tf.set_random_seed(0)
    training_inputs = tf.random_normal([NUM_EXAMPLES])
    noise = tf.random_normal([NUM_EXAMPLES])
    training_outputs = training_inputs * 3 + 2 + noise

    # The loss function to be optimized
    def loss(model, inputs, targets):
        error = model(inputs) - targets
        return tf.reduce_mean(tf.square(error))

    def grad(model, inputs, targets):
        with tf.GradientTape() as tape:
            loss_value = loss(model, inputs, targets)
        return tape.gradient(loss_value, [model.W, model.B])

    # Define:
    # 1. A model.
    # 2. Derivatives of a loss function with respect to model parameters.
    # 3. A strategy for updating the variables based on the derivatives.
    model = Model()
    optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.01)
    print("Initial loss: {:.3f}".format(loss(model, training_inputs, training_outputs)))
    # Training loop
    for i in range(300):
        grads = grad(model, training_inputs, training_outputs)
        optimizer.apply_gradients(
            zip(grads, [model.W, model.B]), global_step=tf.train.get_or_create_global_step()
        )
        if i % 20 == 0:
            print(
                "Loss at step {:03d}: {:.3f}".format(
                    i, loss(model, training_inputs, training_outputs)
                )
            )
    print("Final loss: {:.3f}".format(loss(model, training_inputs, training_outputs)))
    print("W = {}, B = {}".format(model.W.numpy(), model.B.numpy()))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Initial loss: ") and 60 < float(lines[0][14:]) < 80
    steps = [f"Loss at step {i:03d}: " for i in range(0, 300, 20)]
    assert [line[:18] for line in lines[1:16]] == steps
    assert 0.9 < float(lines[16][12:]) < 1.1  # "Final loss: 0.974" in the guide
    w, b = (float(part.split(" = ")[1]) for part in lines[17].split(", "))
    assert abs(w - 3) < 0.1 and abs(b - 2) < 0.1
    assert int(tf.train.get_or_create_global_step()) >= 300


def test_object_based_saving(tmp_path):
    x = tfe.Variable(10.0)
    checkpoint = tfe.Checkpoint(x=x)  # save as "x"
    x.assign(2.0)  # Assign a new value to the variables and save.
    save_path = checkpoint.save(str(tmp_path / "ckpt") + "/")
    x.assign(11.0)  # Change the variable after saving.
    # Restore values from the checkpoint
    checkpoint.restore(save_path)
    assert x.numpy() == 2.0  # => 2.0

    model = MNISTLikeModel()
    optimizer = tf.train.AdamOptimizer(learning_rate=0.001)
    checkpoint_dir = str(tmp_path / "path" / "to" / "model_dir")
    checkpoint_prefix = checkpoint_dir + "/ckpt"
    root = tfe.Checkpoint(
        optimizer=optimizer, model=model, optimizer_step=tf.train.get_or_create_global_step()
    )
    model(tf.ones([1, 4]))
    root.save(file_prefix=checkpoint_prefix)
    # or
    fresh = MNISTLikeModel()
    again = tfe.Checkpoint(optimizer=tf.train.AdamOptimizer(0.001), model=fresh)
    again.restore(tf.train.latest_checkpoint(checkpoint_dir))
    np.testing.assert_array_equal(fresh(tf.ones([1, 4])).numpy(), model(tf.ones([1, 4])).numpy())


class MNISTLikeModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(3)

    def call(self, x):
        return self.dense(x)


def test_object_oriented_metrics():
    m = tfe.metrics.Mean("loss")
    m(0)
    m(5)
    assert m.result().numpy() == 2.5  # => 2.5
    m([8, 9])
    assert m.result().numpy() == 5.5  # => 5.5


def test_dynamic_models_line_search():
    def line_search_step(fn, init_x, rate=1.0):
        with tf.GradientTape() as tape:
            # Variables are automatically recorded, but manually watch a tensor
            tape.watch(init_x)
            value = fn(init_x)
        grad = tape.gradient(value, init_x)
        grad_norm = tf.reduce_sum(grad * grad)
        init_value = value
        while value > init_value - rate * grad_norm:
            x = init_x - rate * grad
            value = fn(x)
            rate /= 2.0
        return x, value

    x, value = line_search_step(lambda x: tf.reduce_sum((x - 3.0) ** 2), tf.constant([0.0, 1.0]))
    # grad = [-6, -4], |grad|^2 = 52; rate 1 overshoots (value 52), rate 0.5 lands on [3, 3]
    assert x.numpy().tolist() == [3.0, 3.0] and value.numpy() == 0.0


def test_additional_functions_to_compute_gradients():
    def square(x):
        return tf.multiply(x, x)

    grad = tfe.gradients_function(square)
    assert square(3.0).numpy() == 9.0
    assert [g.numpy() for g in grad(3.0)] == [6.0]
    # The second-order derivative of square:
    gradgrad = tfe.gradients_function(lambda x: grad(x)[0])
    assert [g.numpy() for g in gradgrad(3.0)] == [2.0]
    # The third-order derivative is None:
    gradgradgrad = tfe.gradients_function(lambda x: gradgrad(x)[0])
    assert gradgradgrad(3.0) == [None]

    # With flow control:
    def abs(x):  # noqa: A001 - the guide's name
        return x if x > 0.0 else -x

    grad = tfe.gradients_function(abs)
    assert [g.numpy() for g in grad(3.0)] == [1.0]
    assert [g.numpy() for g in grad(-3.0)] == [-1.0]


def test_custom_gradients():
    def log1pexp(x):
        return tf.log(1 + tf.exp(x))

    grad_log1pexp = tfe.gradients_function(log1pexp)
    # The gradient computation works fine at x = 0.
    assert [g.numpy() for g in grad_log1pexp(0.0)] == [0.5]
    # However, x = 100 fails because of numerical instability.
    assert np.isnan(grad_log1pexp(100.0)[0].numpy())

    @tfe.custom_gradient
    def log1pexp(x):  # the guide redefines it
        e = tf.exp(x)

        def grad(dy):
            return dy * (1 - 1 / (1 + e))

        return tf.log(1 + e), grad

    grad_log1pexp = tfe.gradients_function(log1pexp)
    assert [g.numpy() for g in grad_log1pexp(0.0)] == [0.5]
    # And the gradient computation also works at x = 100.
    assert [g.numpy() for g in grad_log1pexp(100.0)] == [1.0]


def test_performance_and_devices(capsys):
    import time

    def measure(x, steps):
        # TensorFlow initializes a GPU the first time it's used, exclude from timing.
        tf.matmul(x, x)
        start = time.time()
        for _i in range(steps):
            x = tf.matmul(x, x)
        # tf.matmul can return before completing the matrix multiplication
        # (e.g., can return after enqueing the operation on a CUDA stream).
        # The x.numpy() call below will ensure that all enqueued operations
        # have completed (and will also copy the result to host memory,
        # so we're including a little more than just the matmul operation
        # time).
        _ = x.numpy()
        end = time.time()
        return end - start

    shape = (100, 100)
    steps = 20
    print("Time to multiply a {} matrix by itself {} times:".format(shape, steps))
    # Run on CPU:
    with tf.device("/cpu:0"):
        print("CPU: {} secs".format(measure(tf.random_normal(shape), steps)))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Time to multiply a (100, 100) matrix by itself 20 times:"
    assert lines[1].startswith("CPU: ") and lines[1].endswith(" secs")

    try:
        tf.devices.enable_simulated_gpu(as_gpu=True)  # stands in for a GPU
        if tfe.num_gpus() > 0:
            x = tf.random_normal([10, 10])
            x_gpu0 = x.gpu()
            x_cpu = x.cpu()
            on_cpu = tf.matmul(x_cpu, x_cpu)  # Runs on CPU
            on_gpu = tf.matmul(x_gpu0, x_gpu0)  # Runs on GPU:0
            assert on_cpu.device.endswith("CPU:0") and on_gpu.device.endswith("SIM:0")
            np.testing.assert_allclose(on_gpu.cpu().numpy(), on_cpu.numpy(), rtol=1e-6)
    finally:
        tf.devices.disable_simulated_gpu()


def test_summaries_and_tensorboard(tmp_path):
    global_step = tf.train.get_or_create_global_step()
    logdir = str(tmp_path / "logs")
    summary_writer = tf.contrib.summary.create_file_writer(logdir, flush_millis=10000)
    with summary_writer.as_default(), tf.contrib.summary.always_record_summaries():
        # model code goes here
        # and in it call
        tf.contrib.summary.scalar("loss", 0.25)
        # In this case every call to tf.contrib.summary.scalar will generate a record
    (event,) = tf.contrib.summary.read_events(logdir)
    assert (event["tag"], event["value"], event["step"]) == ("loss", 0.25, int(global_step))
