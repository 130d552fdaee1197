"""A call that fails changes nothing: variables, optimizers, layers, metrics, random streams.

For every public class that holds state (found by walking the namespaces: see
tests/stateful_classes.py) a test pictures everything the object holds, makes calls fail
every way it can (bad arguments drawn by hypothesis, a raising listener, a raising user
function, a raising hyperparameter), and asserts the picture did not change. Files on disk,
datasets, tapes and traced functions are in tests/test_state_after_failure_files.py.
"""

import hypothesis.extra.numpy as hnp
import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from state_snapshots import picture
from stateful_classes import classes_of, kind_of, public_classes, stateless_reason

import eagerkit as ek
from eagerkit import placement, recording
from eagerkit.name_scope import _stack as name_scope_stack
from eagerkit.random import generator as generator_module
from eagerkit.train import global_step

FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_every_public_class_is_declared():
    undeclared = [
        name
        for cls, name in public_classes().items()
        if kind_of(cls) is None and stateless_reason(cls) is None
    ]
    assert undeclared == [], "declare each in tests/stateful_classes.py: a kind, or stateless"


def random_state():
    """Every random stream eagerkit keeps: the op-seed streams, the global seed and generator."""
    return picture(ek.random._streams, ek.random._global_seed, generator_module._global_generator)


def unchanged_if_it_fails(observe, call):
    """Run ``call``; if it raises, ``observe()`` must be what it was. True when it raised."""
    before = observe()
    try:
        call()
    except Exception:
        after = observe()
        assert after == before, "a call that raised changed the state"
        return True
    return False


def must_fail_and_change_nothing(observe, call, error=Exception):
    before = observe()
    with pytest.raises(error):
        call()
    assert observe() == before, "a call that raised changed the state"


# --- what users pass by mistake ------------------------------------------------------------


def _not_a_big_shape(array):
    """False for an array that, read as a shape, would ask for 2**24 to 2**36 elements: a
    valid tensor of gigabytes (see ``junk``'s integers), not a mistake to refuse."""
    with np.errstate(all="ignore"):
        size = np.prod(np.abs(array.astype(np.float64)))
    return not 2**24 <= size < 2**36


arrays = hnp.arrays(
    dtype=st.sampled_from([np.float32, np.float64, np.int32, np.int64, np.bool_]),
    shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4),
).filter(_not_a_big_shape)
junk = st.one_of(
    st.none(),
    st.text(max_size=3),
    st.floats(allow_nan=True),
    # Small or far too big: a size in between (a shape of 2**32 floats) is a valid tensor of
    # gigabytes, which a call given it would make; the machine may kill the test for it.
    st.integers(-(2**40), 2**40).filter(lambda n: not 2**24 <= abs(n) < 2**36),
    st.lists(st.floats(-3, 3), max_size=4),
    st.lists(st.lists(st.floats(-3, 3), max_size=3), max_size=3),  # ragged, often
    arrays,
    arrays.map(ek.constant),
    st.just(np.float32),
    st.just(ek.constant(["a", "b"])),
)


# --- variables ------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", classes_of("variable"), ids=lambda c: c.__name__)
@FUZZ
@given(
    dtype=st.sampled_from([ek.float32, ek.int32, ek.float64]),
    method=st.sampled_from(["assign", "assign_add", "assign_sub"]),
    value=junk,
    read_value=st.sampled_from([True, False, np.array([1, 2]), ek.constant([True, False])]),
)
def test_a_failed_write_leaves_the_variable(cls, dtype, method, value, read_value):
    variable = cls(ek.constant([1, 2], dtype=dtype))
    unchanged_if_it_fails(
        lambda: picture(variable), lambda: getattr(variable, method)(value, read_value=read_value)
    )


def test_a_write_with_an_ambiguous_read_value_fails_before_writing():
    v = ek.Variable([1.0, 2.0])
    for method in ("assign", "assign_add", "assign_sub"):
        must_fail_and_change_nothing(
            lambda v=v, m=method: picture(v),
            lambda v=v, m=method: getattr(v, m)([5.0, 5.0], read_value=np.array([1, 2])),
            ek.errors.InvalidArgumentError,
        )


# --- optimizers -----------------------------------------------------------------------------
def build(cls, *extra):
    """An instance from the first argument list that works (constructors differ)."""
    for arguments in ((*extra, 0.1), (*extra, 0.1, 0.9), extra):
        try:
            return cls(*arguments)
        except TypeError:
            continue
    raise AssertionError(f"cannot build {cls.__name__}")


def trained(cls, learning_rate=None):
    """An optimizer of ``cls`` after one step on two variables: slots and counters exist."""
    optimizer = build(cls) if learning_rate is None else build_with_rate(cls, learning_rate)
    w, b = ek.Variable([[1.0, -2.0]]), ek.Variable([0.5])
    step = ek.Variable(0, dtype=ek.int64, trainable=False)
    if type(optimizer)._update is not ek.train.Optimizer._update:
        optimizer.apply_gradients(
            [(ek.constant([[0.3, 0.1]]), w), (ek.constant([1.0]), b)], global_step=step
        )
    return optimizer, w, b, step


def build_with_rate(cls, rate):
    for arguments in ((rate,), (rate, 0.9)):
        try:
            return cls(*arguments)
        except TypeError:
            continue
    return cls(learning_rate=rate)


class Raises:
    """A listener (a widget) that raises when told of a step."""

    def __init__(self):
        self.calls = 0

    def on_apply(self, optimizer, pairs):
        self.calls += 1
        raise RuntimeError("the widget broke")


def bad_steps(w, b, step):
    """Every way we know to make apply_gradients fail, with what it should raise."""
    good = ek.constant([[0.3, 0.1]]), ek.constant([1.0])
    return {
        "wrong shape": [(good[0], w), (ek.constant([1.0, 2.0]), b)],
        "wrong dtype": [(good[0], w), (ek.constant([1.0], ek.float64), b)],
        "not a variable": [(good[0], w), (good[1], ek.constant([0.5]))],
        "no gradients": [(None, w), (None, b)],
        "an integer variable": [(good[0], w), (ek.constant([1]), ek.Variable([1]))],
        "a list for a gradient": [(good[0], w), ("x", b)],
        "a 3-tuple": [(good[0], w, 1)],
    }


@pytest.mark.parametrize("cls", classes_of("optimizer"), ids=lambda c: c.__name__)
def test_a_failed_step_leaves_the_optimizer_and_its_variables(cls):
    optimizer, w, b, step = trained(cls)

    def observe():
        return picture(optimizer, w, b, step)

    for pairs in bad_steps(w, b, step).values():
        must_fail_and_change_nothing(observe, lambda p=pairs: optimizer.apply_gradients(p))
    good = [(ek.constant([[0.3, 0.1]]), w), (ek.constant([1.0]), b)]
    for counter in (ek.constant(0), ek.Variable([0, 0]), 3):
        must_fail_and_change_nothing(
            observe, lambda c=counter: optimizer.apply_gradients(good, global_step=c)
        )
    must_fail_and_change_nothing(observe, lambda: optimizer.minimize(ek.reduce_sum(w)))

    def raising_loss():
        ek.reduce_sum(w * w)  # the variables were read under the tape: then it breaks
        raise ValueError("the data went away")

    must_fail_and_change_nothing(observe, lambda: optimizer.minimize(raising_loss))


@pytest.mark.parametrize("cls", classes_of("optimizer"), ids=lambda c: c.__name__)
def test_a_raising_listener_takes_the_whole_step_back(cls):
    optimizer, w, b, step = trained(cls)
    if type(optimizer)._update is ek.train.Optimizer._update:
        pytest.skip("the base class has no update rule to take back")
    quiet, broken = Recorder(), Raises()
    optimizer.listeners.extend([quiet, broken])
    fresh = ek.Variable([7.0])  # its slots would be made by this step: they must go too

    def observe():  # the listeners keep their own state (the widget saw the step)
        return picture(attributes_but(optimizer, "listeners"), w, b, step, fresh)

    before = observe()
    pairs = [(ek.constant([[0.3, 0.1]]), w), (ek.constant([1.0]), b), (ek.constant([1.0]), fresh)]
    with pytest.raises(RuntimeError, match="the widget broke"):
        optimizer.apply_gradients(pairs, global_step=step)
    assert observe() == before
    optimizer.listeners.remove(broken)
    assert float(fresh) == 7.0 and broken.calls == 1 and quiet.calls == 1
    optimizer.apply_gradients(pairs, global_step=step)  # and the next step runs normally
    assert int(step) == 2 and int(optimizer.iterations) == 2


def attributes_but(obj, *names):
    """``obj``'s attributes without ``names`` (things that keep their own state)."""
    return {k: v for k, v in vars(obj).items() if k not in names}


class Recorder:
    def __init__(self):
        self.calls = 0

    def on_apply(self, optimizer, pairs):
        self.calls += 1


@pytest.mark.parametrize("cls", classes_of("optimizer"), ids=lambda c: c.__name__)
def test_a_raising_hyperparameter_changes_nothing(cls):
    calls, failing = [], [None]

    def rate():
        calls.append(1)
        if len(calls) == failing[0]:  # the last read of step 2 (the second variable's)
            raise ValueError("the schedule broke")
        return 0.1

    optimizer, w, b, step = trained(cls, learning_rate=rate)
    failing[0] = 2 * len(calls)  # reads per step: one per variable, two with weight decay
    if type(optimizer)._update is ek.train.Optimizer._update:
        pytest.skip("the base class has no update rule")
    must_fail_and_change_nothing(  # (the schedule counts its own calls: not pictured)
        lambda: picture(attributes_but(optimizer, "learning_rate", "_learning_rate"), w, b, step),
        lambda: optimizer.apply_gradients(
            [(ek.constant([[0.3, 0.1]]), w), (ek.constant([1.0]), b)]
        ),
        ValueError,
    )


def test_lbfgs_puts_the_variables_back_when_the_loss_raises_at_any_evaluation():
    for failing_call in range(1, 8):
        x = ek.Variable([1.0, -1.0], dtype=ek.float64)
        calls = []

        def loss(failing_call=failing_call, x=x, calls=calls):
            calls.append(1)
            if len(calls) == failing_call:
                raise RuntimeError("the loss broke")
            return ek.reduce_sum((x - [3.0, 2.0]) ** 2 * [1.0, 10.0])

        must_fail_and_change_nothing(
            lambda x=x: picture(x),
            lambda x=x, loss=loss: ek.train.lbfgs_minimize(loss, [x]),
            RuntimeError,
        )


# --- layers and models ------------------------------------------------------------------------
def layer_and_input(cls):
    """An instance of each public layer class and an input it accepts."""
    layers = ek.keras.layers
    x4 = ek.constant(np.arange(8.0, dtype=np.float32).reshape(2, 4) / 8)
    image = ek.constant(np.linspace(0, 1, 50, dtype=np.float32).reshape(2, 5, 5, 1))
    sequence = ek.constant(np.linspace(0, 1, 24, dtype=np.float32).reshape(2, 4, 3))
    pair = [x4, x4 * 2]
    made = {
        layers.Dense: (lambda: layers.Dense(3), x4),
        layers.Activation: (lambda: layers.Activation("relu"), x4),
        layers.ReLU: (lambda: layers.ReLU(6.0, 0.1, 0.5), x4),
        layers.LeakyReLU: (lambda: layers.LeakyReLU(), x4),
        layers.Softmax: (lambda: layers.Softmax(), x4),
        layers.ELU: (lambda: layers.ELU(0.5), x4),
        layers.Conv2D: (lambda: layers.Conv2D(2, 3), image),
        layers.MaxPool2D: (lambda: layers.MaxPool2D(), image),
        layers.AveragePooling2D: (lambda: layers.AveragePooling2D(), image),
        layers.Conv1D: (lambda: layers.Conv1D(2, 2, padding="causal"), sequence),
        layers.MaxPooling1D: (lambda: layers.MaxPooling1D(), sequence),
        layers.AveragePooling1D: (lambda: layers.AveragePooling1D(padding="same"), sequence),
        layers.Conv2DTranspose: (lambda: layers.Conv2DTranspose(2, 3, strides=2), image),
        layers.UpSampling2D: (lambda: layers.UpSampling2D(interpolation="bilinear"), image),
        layers.GlobalAveragePooling2D: (lambda: layers.GlobalAveragePooling2D(), image),
        layers.GlobalMaxPool2D: (lambda: layers.GlobalMaxPool2D(), image),
        layers.GlobalAveragePooling1D: (lambda: layers.GlobalAveragePooling1D(), sequence),
        layers.GlobalMaxPool1D: (lambda: layers.GlobalMaxPool1D(), sequence),
        layers.Flatten: (lambda: layers.Flatten(), image),
        layers.Reshape: (lambda: layers.Reshape((2, 2)), x4),
        layers.Dropout: (lambda: layers.Dropout(0.5), x4),
        layers.SpatialDropout1D: (lambda: layers.SpatialDropout1D(0.5, seed=1), sequence),
        layers.GaussianNoise: (lambda: layers.GaussianNoise(0.2, seed=1), x4),
        layers.ActivityRegularization: (lambda: layers.ActivityRegularization(0.1, 0.2), x4),
        layers.RepeatVector: (lambda: layers.RepeatVector(3), x4),
        layers.Permute: (lambda: layers.Permute((2, 1)), sequence),
        layers.Embedding: (lambda: layers.Embedding(5, 3), ek.constant([[1, 2], [3, 4]])),
        layers.Masking: (lambda: layers.Masking(mask_value=1.0), sequence),
        layers.LSTM: (lambda: layers.LSTM(3), sequence),
        layers.GRU: (lambda: layers.GRU(3), sequence),
        layers.SimpleRNN: (lambda: layers.SimpleRNN(3), sequence),
        layers.Bidirectional: (lambda: layers.Bidirectional(layers.LSTM(3)), sequence),
        layers.TimeDistributed: (lambda: layers.TimeDistributed(layers.Dense(2)), sequence),
        layers.Lambda: (lambda: layers.Lambda(lambda x: x * 2.0), x4),
        layers.ZeroPadding2D: (lambda: layers.ZeroPadding2D(((1, 0), (2, 1))), image),
        layers.Cropping2D: (lambda: layers.Cropping2D(((1, 2), (0, 1))), image),
        layers.ZeroPadding1D: (lambda: layers.ZeroPadding1D((2, 1)), sequence),
        layers.Cropping1D: (lambda: layers.Cropping1D((1, 2)), sequence),
        layers.BatchNormalization: (lambda: layers.BatchNormalization(), x4),
        layers.LayerNormalization: (lambda: layers.LayerNormalization(), x4),
        layers.Normalization: (lambda: layers.Normalization(), x4),
        layers.Rescaling: (lambda: layers.Rescaling(1 / 255), x4),
        layers.StringLookup: (
            lambda: layers.StringLookup(vocabulary=["a"]),
            ek.constant(["a", "z"]),
        ),
        layers.IntegerLookup: (
            lambda: layers.IntegerLookup(vocabulary=[1, 2]),
            ek.constant([[1, 5]]),
        ),
        layers.CategoryEncoding: (lambda: layers.CategoryEncoding(4), ek.constant([[1, 3]])),
        layers.Discretization: (lambda: layers.Discretization(bin_boundaries=[0.5]), x4),
        layers.Hashing: (lambda: layers.Hashing(3), ek.constant(["the cat", "a dog"])),
        layers.TextVectorization: (
            lambda: layers.TextVectorization(vocabulary=["cat"]),
            ek.constant(["the cat", "a dog sat"]),
        ),
        layers.InputLayer: (lambda: layers.InputLayer(input_shape=(4,)), x4),
        layers.Concatenate: (lambda: layers.Concatenate(), pair),
        layers.Dot: (lambda: layers.Dot(axes=1), pair),
        layers.Attention: (
            lambda: layers.Attention(use_scale=True, score_mode="concat"),
            [sequence, sequence * 2],
        ),
        # It takes (query, value): a layer around it calls it with a value of its own.
        layers.MultiHeadAttention: (lambda: AttendTo(sequence), sequence),
        ek.Sequential: (lambda: ek.Sequential([layers.Dense(3), layers.Dense(2)]), x4),
    }
    if cls in made:
        return made[cls]
    if cls in (layers.Add, layers.Subtract, layers.Multiply, layers.Average):
        return (cls, pair)
    if cls in (layers.Maximum, layers.Minimum):
        return (cls, pair)
    if cls in (ek.keras.layers.Layer, ek.keras.Model, ek.Network):
        return (lambda: Pair(cls), x4)  # a subclass with layers and a call
    raise AssertionError(f"add {cls.__name__} to layer_and_input")


def Pair(base):
    """A model written the way users write one: layers in attributes, a call using them."""

    class Pair(base):
        def __init__(self):
            super().__init__()
            self.first = ek.keras.layers.Dense(3)
            self.second = ek.keras.layers.Dense(2)

        def call(self, inputs):
            return self.second(ek.nn.relu(self.first(inputs)))

    return Pair()


def AttendTo(value):
    """A layer whose inputs are the queries of a MultiHeadAttention attending to ``value``."""

    class AttendTo(ek.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.attention = ek.keras.layers.MultiHeadAttention(num_heads=2, key_dim=2)

        def call(self, inputs, training=None):
            return self.attention(inputs, value, training=training)

    return AttendTo()


def layer_state(layer):
    return picture(layer, random_state())


@pytest.mark.parametrize("cls", classes_of("layer"), ids=lambda c: c.__name__)
@FUZZ
@given(bad=junk, built=st.booleans(), training=st.sampled_from([None, True]))
def test_a_failed_call_leaves_the_layer_as_it_was(cls, bad, built, training):
    make, good = layer_and_input(cls)
    layer = make()
    if built:
        layer(good)
    kwargs = {} if training is None else {"training": training}
    unchanged_if_it_fails(lambda: layer_state(layer), lambda: layer(bad, **kwargs))


@pytest.mark.parametrize("cls", classes_of("layer"), ids=lambda c: c.__name__)
def test_inputs_a_built_layer_cannot_take_change_nothing(cls):
    make, good = layer_and_input(cls)
    layer = make()
    layer(good)
    wrong = [None, "text", ek.constant(["a", "b"])]
    if not isinstance(good, list):
        wrong += [ek.zeros([*good.shape[:-1], good.shape[-1] + 1]), ek.zeros([])]
    else:
        wrong += [good[0], [good[0], ek.zeros([2, 5])]]
    failures = sum(
        unchanged_if_it_fails(lambda: layer_state(layer), lambda w=w: layer(w)) for w in wrong
    )
    assert failures >= 1  # None at least is refused by every layer


def test_a_failed_add_weight_adds_nothing():
    layer = ek.keras.layers.Dense(2)
    layer(ek.ones([1, 3]))
    for shape in ([1.5, 2], [-1], "x", [2**40, 2**40]):
        must_fail_and_change_nothing(
            lambda: layer_state(layer), lambda s=shape: layer.add_weight("extra", s)
        )


@pytest.mark.parametrize("cls", classes_of("module"), ids=lambda c: c.__name__)
def test_a_module_that_fails_to_build_keeps_its_variables(cls):
    class Scale(cls):
        def __init__(self):
            super().__init__()
            self.w = ek.Variable([1.0, 2.0])

        def __call__(self, x):
            return x * self.w

    module = Scale()
    for bad in (ek.zeros([3]), "x", None):
        unchanged_if_it_fails(lambda: picture(module), lambda b=bad: module(b))
    assert module.variables[0].numpy().tolist() == [1.0, 2.0]


# --- metrics --------------------------------------------------------------------------------
def metric_and_update(cls):
    """An instance and one valid update: ``(metric, args)`` for ``metric.update_state``."""
    metrics = ek.keras.metrics
    if cls is metrics.MeanMetricWrapper:
        return cls(metrics.binary_accuracy, name="wrapped"), ([[1.0], [0.0]], [[0.8], [0.3]])
    if cls in (ek.keras.tf1_metrics.Metric, metrics.Metric):
        return None, None
    metric = cls()
    if cls.__name__ in ("Mean", "Sum"):
        return metric, ([1.0, 3.0],)
    if cls is ek.keras.tf1_metrics.Accuracy:
        return metric, ([1, 2], [1, 0])
    if "Sparse" in cls.__name__:
        return metric, ([1, 0], [[0.2, 0.8], [0.6, 0.4]])
    if "Accuracy" in cls.__name__ and cls is not metrics.CategoricalAccuracy:
        return metric, ([[1.0], [0.0]], [[0.8], [0.3]])
    return metric, ([[0.0, 1.0], [1.0, 0.0]], [[0.2, 0.8], [0.6, 0.4]])


METRICS = [c for c in classes_of("metric") if metric_and_update(c)[0] is not None]


def test_the_abstract_metric_bases_are_the_only_ones_left_out():
    left_out = set(classes_of("metric")) - set(METRICS)
    assert left_out == {ek.keras.tf1_metrics.Metric, ek.keras.metrics.Metric}


@pytest.mark.parametrize("cls", METRICS, ids=lambda c: c.__module__[-12:] + "." + c.__name__)
@FUZZ
@given(first=junk, second=junk, weight=st.one_of(st.none(), junk))
def test_a_failed_update_leaves_the_metric(cls, first, second, weight):
    metric, good = metric_and_update(cls)
    metric(*good)
    arguments = (first,) if len(good) == 1 else (first, second)
    keyword = "weights" if cls.__module__.endswith("tf1_metrics") else "sample_weight"
    call = (lambda: metric(*arguments, **{keyword: weight})) if weight is not None else None
    unchanged_if_it_fails(lambda: picture(metric), call or (lambda: metric(*arguments)))


# Sum logs nothing; the F-scores give one score per class by default (a vector, no scalar
# summary to log).
VECTORS = (ek.keras.metrics.F1Score, ek.keras.metrics.FBetaScore)
LOGGING = [c for c in METRICS if c.result is not ek.keras.metrics.Sum.result and c not in VECTORS]


@pytest.mark.parametrize("cls", LOGGING, ids=lambda c: c.__module__[-12:] + "." + c.__name__)
def test_an_update_whose_logging_fails_is_taken_back(cls, tmp_path, monkeypatch):
    metric, good = metric_and_update(cls)
    metric(*good)
    monkeypatch.setattr(global_step, "_global_step", None)  # no step to log the result at
    with ek.summary.create_file_writer(str(tmp_path)).as_default():
        must_fail_and_change_nothing(
            lambda: picture(metric), lambda: metric(*good), ek.errors.InvalidArgumentError
        )


# --- random streams -------------------------------------------------------------------------
bad_shapes = st.one_of(
    st.just([2.5]), st.just([-1]), st.just("x"), st.just([None]), st.just([[2]]), junk
)
bad_numbers = st.one_of(st.just("x"), st.just([1.0, 2.0, 3.0]), st.just(None), junk)


@pytest.mark.parametrize("cls", classes_of("random generator"), ids=lambda c: c.__name__)
@FUZZ
@given(
    method=st.sampled_from(["normal", "uniform", "truncated_normal"]),
    shape=st.one_of(st.just([2]), bad_shapes),
    low=st.one_of(st.just(0.0), bad_numbers),
    high=st.one_of(st.just(1.0), bad_numbers),
    dtype=st.sampled_from([ek.float32, ek.int32, ek.string, "x", ek.uint8]),
)
def test_a_failed_draw_does_not_move_the_generator(cls, method, shape, low, high, dtype):
    generator = cls.from_seed(7)
    generator.normal([3])
    call = getattr(generator, method)
    if method == "uniform":
        raised = unchanged_if_it_fails(
            lambda: picture(generator), lambda: call(shape, low, high, dtype=dtype)
        )
    else:
        raised = unchanged_if_it_fails(
            lambda: picture(generator), lambda: call(shape, low, high, dtype=dtype)
        )
    if raised:  # and the next draw is the one it would have been
        twin = cls.from_seed(7)
        twin.normal([3])
        assert generator.normal([4]).numpy().tolist() == twin.normal([4]).numpy().tolist()


@pytest.mark.parametrize("count", [2.5, -1, "2", None, 10**9])
def test_a_refused_split_does_not_move_the_generator(count):
    generator = ek.random.Generator.from_seed(3)
    must_fail_and_change_nothing(lambda: picture(generator), lambda: generator.split(count))


@FUZZ
@given(
    function=st.sampled_from(
        [ek.random.normal, ek.random.uniform, ek.random.truncated_normal, ek.random_normal]
    ),
    shape=st.one_of(st.just([2]), bad_shapes),
    a=st.one_of(st.just(0.0), bad_numbers),
    dtype=st.sampled_from([ek.float32, ek.int32, ek.string]),
    seed=st.sampled_from([None, 3, 1.5]),
)
def test_a_failed_draw_does_not_move_the_global_streams(function, shape, a, dtype, seed):
    ek.random.normal([1])  # the global stream exists
    ek.random.normal([1], seed=3)
    unchanged_if_it_fails(random_state, lambda: function(shape, a, dtype=dtype, seed=seed))


def test_categorical_and_shuffle_fail_without_drawing():
    ek.random.normal([1])
    for call in (
        lambda: ek.random.categorical([[0.0, 1.0]], 2.5),
        lambda: ek.random.categorical([0.0, 1.0], 2),
        lambda: ek.random.shuffle(3.0),
        lambda: ek.random.shuffle([1, 2], seed="x"),
    ):
        must_fail_and_change_nothing(random_state, call)


@pytest.mark.parametrize(
    "cls", classes_of("initializer (draws from the global random stream)"), ids=lambda c: c.__name__
)
@FUZZ
@given(shape=bad_shapes, dtype=st.sampled_from([ek.float32, ek.int32, ek.string, "x"]))
def test_a_failed_initializer_does_not_move_the_global_stream(cls, shape, dtype):
    initializer = cls(1.0) if cls is ek.keras.initializers.Constant else cls()
    ek.random.normal([1])
    unchanged_if_it_fails(random_state, lambda: initializer(shape, dtype=dtype))


# --- global settings -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "read"),
    [
        (lambda: ek.set_random_seed(1.5), random_state),
        (lambda: ek.random.set_seed("x"), random_state),
        (lambda: ek.random.set_global_generator(3), random_state),
        (lambda: ek.set_device_policy("sometimes"), lambda: placement._policy),
        (
            lambda: ek.summary.record_summaries_every_n_global_steps(0),
            lambda: picture(ek.summary._policies),
        ),
    ],
)
def test_a_refused_setting_keeps_the_old_one(call, read):
    ek.random.normal([1])
    must_fail_and_change_nothing(read, call)


def test_scopes_are_left_as_they_were_when_their_body_raises(tmp_path):
    writer = ek.summary.create_file_writer(str(tmp_path))
    tape = ek.GradientTape()

    def stacks():
        return picture(
            ek.summary._writers,
            ek.summary._policies,
            name_scope_stack(),
            ek.devices.current_device().name,
            recording.active_tapes,
            recording.sole_tape,
        )

    before = stacks()
    for scope in (
        writer.as_default(),
        ek.summary.always_record_summaries(),
        ek.summary.never_record_summaries(),
        ek.name_scope("outer"),
        ek.device("/cpu:0"),
        tape,
    ):
        with pytest.raises(ZeroDivisionError):
            with scope:
                raise ZeroDivisionError
        assert stacks() == before


# --- tensor arrays ----------------------------------------------------------------------------
def tensor_array_state(array):
    stacked = None if array._stacked is None else array._stacked.numpy().tolist()
    return array.dynamic_size, array._size, array._element_shape, stacked


@pytest.mark.parametrize(
    "cls", classes_of("tensor array (TF2 eager: write and unstack change it in place)")
)
@FUZZ
@given(
    written=st.booleans(),
    dynamic=st.booleans(),
    method=st.sampled_from(["write", "unstack"]),
    index=st.one_of(st.integers(-1, 4), st.just(2.5), st.just("x"), junk),
    value=st.one_of(
        st.just([1.0, 2.0]), st.just([1.0, 2.0, 3.0]), st.just([[1.0, 2.0]] * 4), st.just("x"), junk
    ),
)
def test_a_failed_write_or_unstack_leaves_the_tensor_array(
    cls, written, dynamic, method, index, value
):
    array = cls(ek.float32, size=3, dynamic_size=dynamic)
    if written:
        array = array.write(0, ek.constant([5.0, 6.0]))
    call = (
        (lambda: array.write(index, value)) if method == "write" else lambda: array.unstack(value)
    )
    unchanged_if_it_fails(lambda: tensor_array_state(array), call)
