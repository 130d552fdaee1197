"""A training step leaves no reference cycle behind: what it made (a tape's values, the
gradients' arrays) is freed when the step ends, not when the garbage collector next runs,
so the memory (and the host pool's arrays, backends/host_pool.py) serves the next step.
A closure calling itself (nest.pack_sequence_as's did) is such a cycle; so is an error
raised from a name of the frame that raises it (the traceback holds the frame, the frame
the name), which would keep a failed op's inputs and arrays."""

import collections
import gc

import numpy as np
import pytest

import eagerkit as ek


def _data():
    rng = np.random.default_rng(0)
    x = ek.constant(rng.normal(size=(32, 8)).astype("float32"))
    return x, ek.constant(rng.integers(0, 3, 32))


def _model():
    return ek.keras.Sequential(
        [ek.keras.layers.Dense(16, activation="relu"), ek.keras.layers.Dense(3)]
    )


def eager_step():
    x, y = _data()
    model, optimizer = _model(), ek.keras.optimizers.Adam(0.01)
    loss = ek.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def step():
        with ek.GradientTape() as tape:
            value = loss(y, model(x))
        gradients = tape.gradient(value, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables, strict=True))

    return step


def function_step():
    return ek.function(eager_step())


def keras_fit():
    x, y = _data()
    model = _model()
    model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
    return lambda: model.fit(x.numpy(), y.numpy(), epochs=1, batch_size=16, verbose=0)


def nested_sources():
    variables = {"a": ek.Variable(1.0), "b": [ek.Variable(2.0), (ek.Variable(3.0),)]}

    def step():
        with ek.GradientTape() as tape:
            value = variables["a"] * variables["b"][0] * variables["b"][1][0]
        tape.gradient(value, variables)

    return step


def failed_ops():
    """Ops that fail and are caught, as an exercise check or a notebook cell does: by each
    path (an op's fast path, a binary op on tensors, beside a number, on Variables, a unary
    op, the general dispatch with parameters)."""
    a, b = ek.constant(np.ones((2, 3), np.float32)), ek.constant(np.ones((4, 5), np.float32))
    v = ek.Variable(np.ones((4, 5), np.float32))
    attempts = [
        lambda: ek.matmul(a, b),
        lambda: a + b,
        lambda: a + v,
        lambda: ek.matmul(a, b, transpose_b=True),
        lambda: ek.reshape(a, [7]),
        lambda: ek.constant([1, 2]) + 0.5,
        lambda: ek.sqrt(ek.constant([1, 2])),
        lambda: ek.keras.layers.Dense(2)(ek.constant([1, 2])),  # a method at the boundary
    ]

    def step():
        for attempt in attempts:
            try:
                attempt()
            except (ValueError, TypeError):  # eagerkit's errors are both, as TF's are
                pass

    return step


def _ours(thing):
    """Whether ``thing``, found in a cycle, is eagerkit's or an array: pytest-xdist's own
    thread makes garbage of its own meanwhile, which the collector finds too."""
    if isinstance(thing, np.ndarray):
        return True
    module = getattr(thing, "__module__", None) or type(thing).__module__
    return module.startswith("eagerkit")


def _named(thing):
    return getattr(thing, "__qualname__", type(thing).__name__)


@pytest.mark.parametrize("make", [eager_step, function_step, keras_fit, nested_sources, failed_ops])
def test_a_step_leaves_no_reference_cycle(make):
    step = make()
    step()  # first calls build layers, trace functions and make slots
    step()
    gc.collect()
    # Objects an earlier test left (a dataset's Iterator a finishing thread lets go of) may
    # become garbage meanwhile: only what the steps make counts.
    earlier = {id(thing) for thing in gc.get_objects()}
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds stays in gc.garbage, to name it
    try:
        for _ in range(3):
            step()
        gc.collect()
        found = collections.Counter(
            _named(thing) for thing in gc.garbage if _ours(thing) and id(thing) not in earlier
        )
        assert not found, f"reference cycles left behind: {found.most_common(8)}"
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
