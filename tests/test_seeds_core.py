"""The seed articles' code examples that need no layers, datasets, checkpoints or GPU, with
``tf.``/``tfe.`` replaced by ``ek.``, printing what the articles show.

Seeds (in /work/shared/seeds/): 000 the Google Brain announcement (translated), 001 the CS20
lecture-4 notes, 002 "Eager Mode before TF 2.0", 003 the eager user-guide notebook. The
article reprs carry TF1's ``id=`` field; ours is TF2's form without it. The random-data
regressions use a different random generator than TF, so they are checked for convergence
(W near 3, B near 2, loss near the noise variance 1), not for the exact losses printed.
"""

# ruff: noqa: UP031 - the seeds' own code is kept as they wrote it (% formatting included)

import re

import numpy as np

import eagerkit as ek


def _lines(capsys):
    return capsys.readouterr().out.splitlines()


# --- matrix multiply without sessions (000, 001, 003 In[3]) -------------------------------------
def test_matmul_without_sessions(capsys):
    x = [[2.0]]  # No need for placeholders!
    m = ek.matmul(x, x)
    print(m)  # No sessions!
    assert _lines(capsys) == ["ek.Tensor([[4.]], shape=(1, 1), dtype=float32)"]


# --- Collatz with Python control flow (000, 003 In[4]) ------------------------------------------
def test_collatz(capsys):
    a = ek.constant(12)
    counter = 0
    while not ek.equal(a, 1):
        if ek.equal(a % 2, 0):
            a = a / 2
        else:
            a = 3 * a + 1
        print(a)
        counter += 1
    assert _lines(capsys) == [
        f"ek.Tensor({v}, shape=(), dtype=float64)"
        for v in ["6.0", "3.0", "10.0", "5.0", "16.0", "8.0", "4.0", "2.0", "1.0"]
    ]
    assert counter == 9


# --- lazy loading and numpy compatibility (001) -------------------------------------------------
def test_lazy_loading_prints_each_element(capsys):
    x = ek.random_uniform([2, 2])
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            print(x[i, j])
    expected = [f"ek.Tensor({str(v)}, shape=(), dtype=float32)" for v in x.numpy().ravel()]
    assert _lines(capsys) == expected


def test_tensors_are_numpy_compatible_and_iterable(capsys):
    x = ek.constant([1.0, 2.0, 3.0])
    # Tensors are backed by NumPy arrays
    assert type(x.numpy()) is np.ndarray
    squared = np.square(x)  # Tensors are compatible with NumPy functions
    assert type(squared) is np.ndarray and squared.tolist() == [1.0, 4.0, 9.0]
    # Tensors are iterable!
    for i in x:
        print(i)
    assert _lines(capsys) == [
        "ek.Tensor(1.0, shape=(), dtype=float32)",
        "ek.Tensor(2.0, shape=(), dtype=float32)",
        "ek.Tensor(3.0, shape=(), dtype=float32)",
    ]


# --- gradients (000, 001, 003 In[4]-In[6], In[15]) ----------------------------------------------
def test_gradients_function_of_square(capsys):
    def square(x):
        return ek.multiply(x, x)

    grad = ek.gradients_function(square)
    print("square(3.) = ", square(3.0))  # [9.]
    print("grad(3.) = ", grad(3.0))  # [6.]
    gradgrad = ek.gradients_function(lambda x: grad(x)[0])
    print("gradgrad(3.) = ", gradgrad(3.0))  # [2.]
    assert _lines(capsys) == [
        "square(3.) =  ek.Tensor(9.0, shape=(), dtype=float32)",
        "grad(3.) =  [<ek.Tensor: shape=(), dtype=float32, numpy=6.0>]",
        "gradgrad(3.) =  [<ek.Tensor: shape=(), dtype=float32, numpy=2.0>]",
    ]


def test_cs20_square_with_pow(capsys):
    def square(x):
        return x**2

    grad = ek.gradients_function(square)
    # The slide's comment holds for a tensor: 3.0 ** 2 on a Python float stays Python (in TF too).
    assert square(3.0) == 9.0
    print(square(ek.constant(3.0)))  # tf.Tensor(9., shape=(), dtype=float32)
    print(grad(3.0))  # [tf.Tensor(6., shape=(), dtype=float32))]
    assert _lines(capsys) == [
        "ek.Tensor(9.0, shape=(), dtype=float32)",
        "[<ek.Tensor: shape=(), dtype=float32, numpy=6.0>]",
    ]


def test_abs_with_control_flow(capsys):
    def abs(x):  # noqa: A001 - the seed's name
        return x if x > 0.0 else -x

    grad = ek.gradients_function(abs)
    print("grad(2.0) = ", grad(2.0))  # [1.]
    print("grad(-2.0) = ", grad(-2.0))  # [-1.]
    assert _lines(capsys) == [
        "grad(2.0) =  [<ek.Tensor: shape=(), dtype=float32, numpy=1.0>]",
        "grad(-2.0) =  [<ek.Tensor: shape=(), dtype=float32, numpy=-1.0>]",
    ]


def test_higher_order_derivatives():
    def f(x):
        return ek.multiply(x, x)  # Or x * x

    assert 9 == f(3.0).numpy()
    df = ek.gradients_function(f)
    assert 6 == df(3.0)[0].numpy()
    # Second order deriviative.
    d2f = ek.gradients_function(lambda x: df(x)[0])
    assert 2 == d2f(3.0)[0].numpy()
    # Third order derivative: Will be None
    d3f = ek.gradients_function(lambda x: d2f(x)[0])
    assert None is d3f(3.0)[0]


def test_implicit_gradients_of_a_variable(capsys):
    x = ek.Variable(2.0)

    def loss(y):
        return (y - x**2) ** 2

    grad = ek.implicit_gradients(loss)
    print(loss(7.0))  # tf.Tensor(9., shape=(), dtype=float32)
    print(grad(7.0))
    assert _lines(capsys) == [
        "ek.Tensor(9.0, shape=(), dtype=float32)",
        "[(<ek.Tensor: shape=(), dtype=float32, numpy=-24.0>, "
        "<ek.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>)]",
    ]


# --- custom gradients (000, 003 In[7], In[8]) ---------------------------------------------------
def test_log1pexp_naive_then_custom(capsys):
    def log1pexp(x):
        return ek.log(1 + ek.exp(x))

    grad_log1pexp = ek.gradients_function(log1pexp)
    # The gradient computation works fine at x = 0.
    print(grad_log1pexp(0.0))
    # However it returns a `nan` at x = 100 due to numerical instability.
    print(grad_log1pexp(100.0))

    @ek.custom_gradient
    def log1pexp(x):  # noqa: F811 - the seed redefines it
        e = ek.exp(x)

        def grad(dy):
            return dy * (1 - 1 / (1 + e))

        return ek.log(1 + e), grad

    grad_log1pexp = ek.gradients_function(log1pexp)
    # Gradient at x = 0 works as before.
    print(grad_log1pexp(0.0))
    # And now gradient computation at x=100 works as well.
    print(grad_log1pexp(100.0))
    assert _lines(capsys) == [
        "[<ek.Tensor: shape=(), dtype=float32, numpy=0.5>]",
        "[<ek.Tensor: shape=(), dtype=float32, numpy=nan>]",
        "[<ek.Tensor: shape=(), dtype=float32, numpy=0.5>]",
        "[<ek.Tensor: shape=(), dtype=float32, numpy=1.0>]",
    ]


def test_square_with_noise_in_the_backward_pass():
    """000: a square whose backward pass adds noise (the Bulatov example)."""

    @ek.custom_gradient
    def noisy_square(x):
        def grad(dy):
            true_grad = 2 * x * dy
            return true_grad + ek.random_normal(ek.shape(x), stddev=0.1)

        return ek.square(x), grad

    ek.set_random_seed(0)
    x = ek.constant(np.full(2000, 3.0, np.float32))
    (grad,) = ek.gradients_function(noisy_square)(x)
    np.testing.assert_array_equal(noisy_square(x).numpy(), np.full(2000, 9.0))
    assert abs(grad.numpy().mean() - 6.0) < 0.02 and 0.08 < grad.numpy().std() < 0.12


# --- GradientTape figures (002; the TF guide's examples they show) ------------------------------
def test_tape_on_a_reduce_sum():
    x = ek.ones((2, 2))
    with ek.GradientTape() as t:
        t.watch(x)
        y = ek.reduce_sum(x)
        z = ek.multiply(y, y)
    dz_dx = t.gradient(z, x)  # Derivative of z with respect to the original input tensor x
    for i in [0, 1]:
        for j in [0, 1]:
            assert dz_dx[i][j].numpy() == 8.0


def test_persistent_tape_figure():
    x = ek.constant(3.0)
    with ek.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x
        z = y * y
    dz_dx = t.gradient(z, x)  # 108.0 (4*x^3 at x = 3)
    dy_dx = t.gradient(y, x)  # 6.0
    del t  # Drop the reference to the tape
    assert (dz_dx.numpy(), dy_dx.numpy()) == (108.0, 6.0)


def test_tape_with_python_control_flow():
    def f(x, y):
        output = 1.0
        for i in range(y):
            if i > 1 and i < 5:
                output = ek.multiply(output, x)
        return output

    def grad(x, y):
        with ek.GradientTape() as t:
            t.watch(x)
            out = f(x, y)
        return t.gradient(out, x)

    x = ek.convert_to_tensor(2.0)
    assert grad(x, 6).numpy() == 12.0
    assert grad(x, 5).numpy() == 12.0
    assert grad(x, 4).numpy() == 4.0


def test_executing_eagerly():
    assert ek.executing_eagerly()


# --- linear regression on random data (003 In[16], In[17]) --------------------------------------
def _toy_dataset(num_examples=1000):
    # A toy dataset of points around 3 * x + 2
    training_inputs = ek.random_normal([num_examples])
    noise = ek.random_normal([num_examples])
    training_outputs = training_inputs * 3 + 2 + noise
    return training_inputs, training_outputs


def _check_training_printout(lines, steps):
    """The printed lines have the seed's form; the loss falls towards the noise variance 1."""
    number = r"(-?\d+\.\d{6})"
    assert re.fullmatch(rf"Initial loss: {number}", lines[0])
    expected_steps = [int(s) for s in re.findall(r"Loss at step (\d+):", "\n".join(lines))]
    assert expected_steps == steps
    losses = [float(re.search(number, line).group(1)) for line in lines[:-1]]
    assert 55.0 < losses[0] < 85.0  # E[(2x + 8 - noise)^2] = 69
    steps = losses[1:-1]
    assert all(later < earlier for earlier, later in zip(steps[:-1], steps[1:], strict=True))
    assert losses[-1] <= steps[-1]
    assert 0.85 < losses[-1] < 1.3
    w, b = (float(v) for v in re.fullmatch(r"W, B = (\S+), (\S+)", lines[-1]).groups())
    assert abs(w - 3.0) < 0.15 and abs(b - 2.0) < 0.3
    return losses


def test_regression_with_gradients_function(capsys):
    training_inputs, training_outputs = _toy_dataset()

    def prediction(input, weight, bias):  # noqa: A002 - the seed's name
        return input * weight + bias

    # A loss function: Mean-squared error
    def loss(weight, bias):
        error = prediction(training_inputs, weight, bias) - training_outputs
        return ek.reduce_mean(ek.square(error))

    # Function that returns the derivative of loss with respect to weight and bias
    grad = ek.gradients_function(loss)

    W = 5.0
    B = 10.0
    learning_rate = 0.01
    print("Initial loss: %f" % loss(W, B).numpy())
    for i in range(200):
        (dW, dB) = grad(W, B)
        W -= dW * learning_rate
        B -= dB * learning_rate
        if i % 20 == 0:
            print("Loss at step %d: %f" % (i, loss(W, B).numpy()))
    print("Final loss: %f" % loss(W, B).numpy())
    print("W, B = %f, %f" % (W.numpy(), B.numpy()))
    lines = _lines(capsys)
    assert len(lines) == 13 and lines[-2].startswith("Final loss: ")
    _check_training_printout(lines, list(range(0, 200, 20)))


def test_regression_with_variables_and_an_optimizer(capsys):
    class Model:
        def __init__(self):
            self.W = ek.Variable(5.0, name="weight")
            self.B = ek.Variable(10.0, name="bias")

        def predict(self, inputs):
            return inputs * self.W + self.B

    # The loss function to be optimized
    def loss(model, inputs, targets):
        error = model.predict(inputs) - targets
        return ek.reduce_mean(ek.square(error))

    training_inputs, training_outputs = _toy_dataset()
    model = Model()
    grad = ek.implicit_gradients(loss)
    optimizer = ek.train.GradientDescentOptimizer(learning_rate=0.01)

    print("Initial loss: %f" % loss(model, training_inputs, training_outputs).numpy())
    for i in range(201):
        optimizer.apply_gradients(grad(model, training_inputs, training_outputs))
        if i % 20 == 0:
            print(
                "Loss at step %d: %f" % (i, loss(model, training_inputs, training_outputs).numpy())
            )
    print("Final loss: %f" % loss(model, training_inputs, training_outputs).numpy())
    print("W, B = %s, %s" % (model.W.numpy(), model.B.numpy()))
    lines = _lines(capsys)
    assert len(lines) == 14
    losses = _check_training_printout(lines, list(range(0, 201, 20)))
    assert losses[-1] == losses[-2]  # the final loss is the loss after step 200
    assert repr(model.W).startswith("<ek.Variable 'weight:0' shape=() dtype=float32, numpy=")


# --- timing a matmul on the CPU (003 In[12]; the GPU half runs only with a GPU) ----------------
def test_measure_matmul_on_the_cpu(capsys):
    import time

    def measure(x):
        # The very first time a GPU is used by TensorFlow, it is initialized.
        # So exclude the first run from timing.
        ek.matmul(x, x)

        start = time.time()
        for i in range(10):  # noqa: B007 - as in the seed
            ek.matmul(x, x)
        end = time.time()

        return "Took %s seconds to multiply a %s matrix by itself 10 times" % (
            end - start,
            x.shape,
        )

    # Run on CPU:
    with ek.device("/cpu:0"):
        print("CPU: %s" % measure(ek.random_normal([1000, 1000])))
    (line,) = _lines(capsys)  # the GPU half belongs to the device tests (device_suite.py)
    assert re.fullmatch(
        r"CPU: Took \d+\.\d+(e-\d+)? seconds to multiply a \(1000, 1000\) matrix "
        r"by itself 10 times",
        line,
    )
