"""Checks that run unchanged on any device: the simulated GPU in CI, a real GPU where present.

tests/test_simulated_device.py runs them on '/sim:0' and tests/test_gpu.py on '/gpu:0'.
"""

import inspect
import os
import signal
import time
import warnings

import numpy as np

import eagerkit as ek
from eagerkit.testing import check_grads


def check_case_on(device_name, fn, args):
    """``fn`` gives the CPU's answer on ``device_name``, and its gradients pass to order 2."""
    expected = fn(*[ek.constant(a) for a in args]).numpy()
    device = ek.devices.get_device(device_name)
    with ek.device(device):
        inputs = [ek.constant(a) for a in args]
        with ek.GradientTape() as tape:
            tape.watch(inputs)
            result = fn(*inputs)
        grads = [g for g in tape.gradient(result, inputs) if g is not None]
        # Everything stays on the device, held in the device's own array type.
        for tensor in [result, *grads]:
            assert tensor.device == device.full_name
            assert device.backend.is_array(tensor._data), type(tensor._data)
        np.testing.assert_allclose(result.numpy(), expected, rtol=1e-6, atol=1e-12)
        check_grads(fn, *args, order=2)


def gradient_across_copies(device_name):
    """d/dx of sum((x on the device)**2) brought back to the CPU: 2x, on the CPU."""
    x = ek.constant([1.0, -2.0, 3.0])
    with ek.GradientTape() as tape:
        tape.watch(x)
        on_device = ek.copy_to_device(x, device_name)
        y = ek.reduce_sum(on_device * on_device).cpu()
    grad = tape.gradient(y, x)
    return on_device, y, grad


def train_linear_model(device_name, optimizer=None, steps=60):
    """Fit y = x @ [1, 2, -1] + 0.5 with Variables and an optimizer (gradient descent).

    Returns the losses, the variables and the optimizer.
    """
    ek.set_random_seed(1)
    with ek.device(device_name):
        x = ek.random_normal([64, 3])
        y = ek.matmul(x, ek.constant([[1.0], [2.0], [-1.0]])) + 0.5
        w = ek.Variable(ek.zeros([3, 1]), name="w")
        b = ek.Variable(0.0, name="b")
    optimizer = optimizer or ek.train.GradientDescentOptimizer(learning_rate=0.2)
    losses = []
    for _ in range(steps):
        with ek.GradientTape() as tape:
            loss = ek.reduce_mean(ek.square(ek.matmul(x, w) + b - y))
        grads = tape.gradient(loss, [w, b])
        optimizer.apply_gradients(zip(grads, [w, b], strict=True))
        losses.append(float(loss))
    return losses, (w, b), optimizer


def seed_gpu_examples():
    """The GPU cells of the TF 1.x eager guide (seed 003), with tf/tfe replaced by ek.

    Returns what they print. ``x.gpu()`` needs a GPU (or the simulated one with as_gpu).
    """

    def measure(x):
        # The very first time a GPU is used it is initialised, so exclude the first run.
        ek.matmul(x, x)
        start = time.time()
        for _ in range(10):
            ek.matmul(x, x)
        x.numpy()  # wait for queued work before reading the clock
        end = time.time()
        return f"Took {end - start} seconds to multiply a {x.shape} matrix by itself 10 times"

    printed = []
    with ek.device("/cpu:0"):
        printed.append(f"CPU: {measure(ek.random_normal([1000, 1000]))}")
    if ek.num_gpus() > 0:
        with ek.device("/gpu:0"):
            printed.append(f"GPU: {measure(ek.random_normal([1000, 1000]))}")

    x = ek.random_normal([10, 10])
    x_gpu = x.gpu()
    x_cpu = x.cpu()
    on_cpu = ek.matmul(x_cpu, x_cpu)  # runs on the CPU
    on_gpu = ek.matmul(x_gpu, x_gpu)  # runs on GPU:0
    return printed, on_cpu, on_gpu


def dense_training_step(device_name):
    """One step of a Dense layer under ``ek.device``: its variables are made there."""
    ek.set_random_seed(2)
    with ek.device(device_name):
        layer = ek.layers.Dense(2)
        x = ek.random_normal([4, 3])
        with ek.GradientTape() as tape:
            loss = ek.reduce_mean(ek.square(layer(x)))
        grads = tape.gradient(loss, layer.trainable_variables)
        ek.train.GradientDescentOptimizer(0.1).apply_gradients(
            zip(grads, layer.trainable_variables, strict=True)
        )
    return layer, loss


def traced_step_with_python_numbers(device_name):
    """An SGD step written with Python numbers (``* 0.5``, ``- 0.1 * g``), run eagerly and
    through ``ek.function`` on ``device_name``: the two losses, the two variables' final
    values, and the graph optimizations of the trace (the same on every device)."""
    ek.set_random_seed(3)
    with ek.device(device_name):
        x = ek.random_normal([8, 3])
        start = ek.random_normal([3, 1])
    results = [_sgd_steps(run, device_name, x, start) for run in (lambda f: f, ek.function)]
    traced = ek.function(lambda x: x * 0.5 + x * 0.5).get_concrete_function(x)
    return results, traced.optimizations


def _sgd_steps(run, device_name, x, start, steps=3):
    with ek.device(device_name):
        w = ek.Variable(start)

    def step(x):
        with ek.GradientTape() as tape:
            y = ek.matmul(x, w) * 0.5 + ek.matmul(x, w) * 0.5  # the same value twice
            loss = ek.reduce_mean(y * y) + 1.0
        w.assign_sub(0.1 * tape.gradient(loss, w))
        return loss

    stepped = run(step)
    return [stepped(x) for _ in range(steps)], w.numpy()


def live_widgets(device_name, steps=20):
    """A LossCurve and a GradientFlow watching training on ``device_name``.

    Returns the two widgets after their final flush, the number of copies to the host made
    during training (before the flushes) and during the flushes, and the gradient norms
    computed on the CPU afterwards, one ``[kernel, bias]`` pair per step.
    """
    from eagerkit.widgets import GradientFlow, LossCurve

    device = ek.devices.get_device(device_name)
    copies = []
    to_host = device.backend.to_host
    device.backend.to_host = lambda array: copies.append(1) or to_host(array)
    try:
        with ek.device(device):
            kernel = ek.Variable(np.linspace(-1, 1, 4000, dtype="float32").reshape(40, 100))
            bias = ek.Variable(np.zeros(100, "float32"))
            x = ek.constant(np.linspace(0, 1, 320, dtype="float32").reshape(8, 40))
        flow = GradientFlow({"dense/kernel": kernel, "dense/bias": bias}, interval=3600, every=1)
        curve = LossCurve(interval=3600)
        optimizer = ek.train.GradientDescentOptimizer(0.01)
        flow.attach(optimizer)
        grads_per_step = []
        for step in range(steps):
            with ek.GradientTape() as tape:
                loss = ek.reduce_mean(ek.square(ek.matmul(x, kernel) + bias))
            grads = tape.gradient(loss, [kernel, bias])
            optimizer.apply_gradients(zip(grads, [kernel, bias], strict=True))
            curve.log(step, loss=loss)
            grads_per_step.append(grads)
        during = len(copies)
        flow.flush(final=True)
        curve.flush(final=True)
        at_the_flushes = len(copies) - during
    finally:
        device.backend.to_host = to_host
    norms = [[float(np.linalg.norm(g.numpy())) for g in grads] for grads in grads_per_step]
    return curve, flow, during, at_the_flushes, norms


def mlp_training(device_name, batch=64, inputs=784, hidden=256, classes=10):
    """One SGD step of a ReLU MLP with integer labels, written as a TF user writes it
    (Variables under a fresh tape, ``+ b``, sparse cross-entropy), and the same step by
    hand on the device's arrays (what cupy code written by hand would launch).

    Returns ``(step, by_hand, variables)``: two functions that each take one step, and the
    eagerkit Variables that ``step`` trains.
    """
    device = ek.devices.get_device(device_name)
    ek.set_random_seed(4)
    with ek.device(device):
        images = ek.random_normal([batch, inputs])
        labels = ek.random_uniform([batch], 0, classes, dtype=ek.int32)
        w1 = ek.Variable(ek.random_normal([inputs, hidden], stddev=0.05), name="w1")
        b1 = ek.Variable(ek.zeros([hidden]), name="b1")
        w2 = ek.Variable(ek.random_normal([hidden, classes], stddev=0.05), name="w2")
        b2 = ek.Variable(ek.zeros([classes]), name="b2")
    variables = [w1, b1, w2, b2]
    optimizer = ek.train.GradientDescentOptimizer(0.1)

    def step():
        with ek.GradientTape() as tape:
            hidden_layer = ek.nn.relu(ek.matmul(images, w1) + b1)
            logits = ek.matmul(hidden_layer, w2) + b2
            loss = ek.reduce_mean(
                ek.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
            )
        grads = tape.gradient(loss, variables)
        optimizer.apply_gradients(zip(grads, variables, strict=True))
        return loss

    xp = device.xp
    x, y = images._data, labels._data
    weights = [v._data.copy() for v in variables]

    def by_hand():
        w1, b1, w2, b2 = weights
        h = xp.maximum(x @ w1 + b1, 0)
        logits = h @ w2 + b2
        e = xp.exp(logits - logits.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        p[xp.arange(batch), y] -= 1  # softmax minus one-hot: d(sum of losses)/d logits
        g = p / batch
        g_hidden = (g @ w2.T) * (h > 0)
        weights[:] = w1 - 0.1 * (x.T @ g_hidden), b1 - 0.1 * g_hidden.sum(axis=0)
        weights[2:] = w2 - 0.1 * (h.T @ g), b2 - 0.1 * g.sum(axis=0)

    return step, by_hand, variables


def training_against_the_cpu(device_name, steps=3):
    """``steps`` MLP steps (``mlp_training``) on ``device_name`` and on the CPU.

    Returns ``(losses, cpu_losses, variables, cpu_variables)``.
    """
    on_device, _, variables = mlp_training(device_name)
    on_cpu, _, cpu_variables = mlp_training("/cpu:0")
    losses, cpu_losses = [], []
    for _ in range(steps):  # in turn, as a training loop would
        losses.append(float(on_device()))
        cpu_losses.append(float(on_cpu()))
    return losses, cpu_losses, variables, cpu_variables


OUT_OF_RANGE_LOGITS = np.array([[1.0, 2.0, 0.5], [0.0, 0.0, 0.0], [3.0, -1.0, 0.0]], np.float32)
OUT_OF_RANGE_LABELS = np.array([2, 3, -1], np.int32)  # 3 and -1: out of range for 3 classes


def cross_entropy_out_of_range(device_name):
    """Sparse cross-entropy and its gradient on ``device_name`` for labels 2, 3 and -1 of 3
    classes (a GPU answers NaN rows, as TF's GPU kernel does; the CPU raises), and the
    first row's loss computed on the CPU. Returns ``(loss, grad, first_row_on_cpu)``."""
    with ek.device(device_name):
        x, y = ek.constant(OUT_OF_RANGE_LOGITS), ek.constant(OUT_OF_RANGE_LABELS)
        with ek.GradientTape() as tape:
            tape.watch(x)
            loss = ek.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=x)
        grad = tape.gradient(loss, x)
    on_cpu = ek.nn.sparse_softmax_cross_entropy_with_logits(
        labels=OUT_OF_RANGE_LABELS[:1], logits=OUT_OF_RANGE_LOGITS[:1]
    )
    return loss.numpy(), grad.numpy(), on_cpu.numpy()[0]


# The fused kernels whose last parameters are numbers (an optimizer's rates), not arrays.
KERNEL_SCALARS = {
    "gradient_descent": 1,
    "momentum_update": 2,
    "nesterov_update": 2,
    "adam_update": 6,
    "cross_entropy_loss": 1,  # the number of classes
}


def kernel_arity(kernel):
    """(arrays, numbers) the fused kernel takes after ``xp``."""
    count = len(inspect.signature(kernel.function).parameters) - 1
    numbers = KERNEL_SCALARS.get(kernel.name, 0)
    return count - numbers, numbers


def kernel_arguments(name, shape, dtype):
    """Host arguments for the fused kernel ``name``: arrays of ``shape`` in (0.5, 2), away
    from 0 (several kernels divide), int32 labels and column indices in 0..2, numbers in
    (0, 1) for rates, and 3 for a count of classes."""
    from eagerkit.backends import fusion

    kernel = fusion.KERNELS[name]
    arrays, numbers = kernel_arity(kernel)
    names = list(inspect.signature(kernel.function).parameters)[1 : 1 + arrays]
    generator = np.random.default_rng(7)
    made = [
        generator.integers(0, 3, shape).astype(np.int32)  # a label, or a column's index
        if parameter in ("label", "column")
        else generator.uniform(0.5, 2.0, shape).astype(dtype)
        for parameter in names
    ]
    rates = list(inspect.signature(kernel.function).parameters)[1 + arrays :]
    return made, [3 if rate == "classes" else dtype(0.1 * (i + 1)) for i, rate in enumerate(rates)]


def fused_run_of(name, device_name):
    """An ek.function in which the elementwise op ``name`` ends a run of two ops (abs, or
    logical_not, then it), replayed compiled on ``device_name``: ``(replayed, eager result,
    the CPU's result, its source)``, the replay's warnings raised as errors."""
    from eagerkit.registry import REGISTRY

    op = REGISTRY[name]
    arity = len(inspect.signature(op.forward).parameters) - 1  # after xp
    logical = name.startswith("logical")
    host = np.array([True, False, True]) if logical else np.array([0.5, -1.5, 2.0], np.float32)
    first = ek.logical_not if logical else ek.abs  # the op before it in the run

    def program(a):
        b = first(a)
        if name == "where":
            return ek.where(a > 0.0, b, a)
        return op.call(*[b, a][:arity])

    on_cpu = program(ek.constant(host))
    with ek.device(device_name):
        x = ek.identity(ek.constant(host))
        eager = program(x)
        f = ek.function(program)
        f(x)  # the first call runs through the ops; the second compiles the graph
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a run cupy cannot fuse warns: here, a failure
            replayed = f(x)
        source = f.get_concrete_function(x).source
    return replayed, eager, on_cpu, source


def outputs(result):
    """A kernel's results as a tuple (one output or several)."""
    return result if isinstance(result, tuple) else (result,)


def in_a_forked_child(function, seconds=60):
    """What ``function()`` returned (its repr) or raised (``Class: message``) in a child
    process forked from this one; "" when the child died or hung past ``seconds``."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        signal.alarm(seconds)  # a child stuck in a driver call ends, and says nothing
        try:
            text = repr(function())
        except BaseException as error:
            text = f"{type(error).__name__}: {error}"
        with os.fdopen(write, "w") as out:
            out.write(text)
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as incoming:
        text = incoming.read()
    os.waitpid(pid, 0)
    return text
