"""Valid calls of losses, metrics, optimizers and initializers (Keras' and TF1's), and of
every method their classes have, declared once per method name."""

import numpy as np
from activation_formulas import FORMULAS

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, UnimplementedError

from . import calls_training, walk
from .declare import SAMPLE, call, fresh
from .values import BINARY, F3, F23, I3, LABELS, ONE_HOT, P23, PROBS, variable

CLASSES = walk.public_callables()


def _pairwise_mean(d):
    """The mean over the pairs i < j of (d_i - d_j) ** 2 (a sum over i != j counts each twice)."""
    return ((d[:, None] - d[None, :]) ** 2).sum() / (d.size * (d.size - 1))


CALLS = {}


def _mse(y_true, y_pred):
    return ((y_true - y_pred) ** 2).mean(-1)


def _xent(y_true, y_pred):
    return -(y_true * np.log(y_pred)).sum(-1)


def _binary_xent(y_true, y_pred):
    return -(y_true * np.log(y_pred) + (1 - y_true) * np.log(1 - y_pred)).mean(-1)


# --- functions ------------------------------------------------------------------------------
_K = "ek.keras.losses."
CALLS.update(
    {
        _K + "mean_squared_error": call(ONE_HOT, PROBS, numpy=_mse),
        _K + "mean_absolute_error": call(ONE_HOT, PROBS, numpy=lambda t, p: np.abs(t - p).mean(-1)),
        _K + "mean_absolute_percentage_error": call(
            PROBS + 1.0, ONE_HOT + 1.0, numpy=lambda t, p: 100 * np.abs((t - p) / t).mean(-1)
        ),
        _K + "huber": call(ONE_HOT, PROBS, numpy=lambda t, p: (0.5 * (t - p) ** 2).mean(-1)),
        _K + "binary_crossentropy": call(BINARY, PROBS, numpy=_binary_xent),
        _K + "categorical_crossentropy": call(ONE_HOT, PROBS, numpy=_xent),
        _K + "binary_focal_crossentropy": call(  # gamma 0: the binary cross-entropy
            BINARY, PROBS, gamma=0.0, numpy=lambda t, p, gamma: _binary_xent(t, p)
        ),
        _K + "sparse_categorical_crossentropy": call(
            LABELS, PROBS, numpy=lambda t, p: _xent(ONE_HOT.numpy(), p)
        ),
        _K + "hinge": call(
            BINARY, PROBS, numpy=lambda t, p: np.maximum(1 - (2 * t - 1) * p, 0).mean(-1)
        ),
        _K + "squared_hinge": call(
            BINARY, PROBS, numpy=lambda t, p: (np.maximum(1 - (2 * t - 1) * p, 0) ** 2).mean(-1)
        ),
        _K + "categorical_hinge": call(ONE_HOT, PROBS, numpy=lambda t, p: [1.0 - 0.5, 1.0 - 0.3]),
        _K + "kl_divergence": call(
            PROBS, PROBS, numpy=lambda t, p: np.zeros(2), check=lambda r: r.shape == (2,)
        ),
        _K + "poisson": call(ONE_HOT, PROBS, numpy=lambda t, p: (p - t * np.log(p)).mean(-1)),
        _K + "mean_squared_logarithmic_error": call(
            ONE_HOT, PROBS, numpy=lambda t, p: ((np.log1p(p) - np.log1p(t)) ** 2).mean(-1)
        ),
        _K + "log_cosh": call(ONE_HOT, PROBS, numpy=lambda t, p: np.log(np.cosh(p - t)).mean(-1)),
        _K + "cosine_similarity": call(
            ONE_HOT,
            PROBS,
            numpy=lambda t, p: -(t * p).sum(-1) / np.linalg.norm(p, axis=-1),
        ),
        "ek.keras.metrics.top_k_categorical_accuracy": call(
            ONE_HOT, PROBS, k=1, numpy=lambda t, p, k: [1.0, 1.0]
        ),
        "ek.keras.metrics.sparse_top_k_categorical_accuracy": call(
            [1, 0], PROBS, k=2, numpy=lambda t, p, k: [1.0, 0.0]
        ),
        "ek.keras.metrics.cosine_similarity": call(
            ONE_HOT, PROBS, numpy=lambda t, p: (t * p).sum(-1) / np.linalg.norm(p, axis=-1)
        ),
        "ek.keras.metrics.accuracy": call(I3, I3, numpy=lambda t, p: np.ones(3)),
        "ek.keras.metrics.binary_accuracy": call(
            BINARY, PROBS, numpy=lambda t, p: ((p > 0.5) == t).mean(-1)
        ),
        "ek.keras.metrics.categorical_accuracy": call(
            ONE_HOT, PROBS, numpy=lambda t, p: [1.0, 1.0]
        ),
        "ek.keras.metrics.sparse_categorical_accuracy": call(
            LABELS, PROBS, numpy=lambda t, p: [1.0, 1.0]
        ),
        "ek.losses.compute_weighted_loss": call(P23, numpy=np.mean),
        "ek.losses.mean_squared_error": call(
            ONE_HOT, PROBS, numpy=lambda t, p: ((t - p) ** 2).mean()
        ),
        "ek.losses.absolute_difference": call(
            ONE_HOT, PROBS, numpy=lambda t, p: np.abs(t - p).mean()
        ),
        "ek.losses.huber_loss": call(
            ONE_HOT, PROBS, numpy=lambda t, p: (0.5 * (t - p) ** 2).mean()
        ),
        "ek.losses.softmax_cross_entropy": call(ONE_HOT, F23),
        "ek.losses.sparse_softmax_cross_entropy": call(LABELS, F23),
        "ek.losses.sigmoid_cross_entropy": call(BINARY, F23),
        "ek.losses.log_loss": call(
            BINARY,
            PROBS,
            numpy=lambda t, p: (-t * np.log(p + 1e-7) - (1 - t) * np.log(1 - p + 1e-7)).mean(),
        ),
        "ek.losses.hinge_loss": call(
            BINARY, F23, numpy=lambda t, p: np.maximum(0, 1 - (2 * t - 1) * p).mean()
        ),
        "ek.losses.mean_pairwise_squared_error": call(
            ONE_HOT, PROBS, numpy=lambda t, p: sum(_pairwise_mean(d) for d in p - t)
        ),
        "ek.losses.Reduction": call(),
        "ek.losses.Reduction.all": call(check=lambda r: len(r) == 6),
        "ek.losses.Reduction.validate": call("none", check=lambda r: r is None),
        "ek.losses.cosine_distance": call(
            ONE_HOT, PROBS, axis=1, numpy=lambda t, p, axis: (1 - (t * p).sum(1)).mean()
        ),
        "ek.keras.optimizers.get": call(
            "nadam", learning_rate=0.5, check=lambda r: r.get_config()["learning_rate"] == 0.5
        ),
        "ek.keras.initializers.get": call(
            "ones", check=lambda r: r([2]).numpy().tolist() == [1, 1]
        ),
        "ek.keras.activations.get": call("softmax", check=lambda r: r is ek.nn.softmax),
        "ek.keras.activations.serialize": call(ek.nn.tanh, check=lambda r: r == "tanh"),
        "ek.keras.activations.deserialize": call("tanh", check=lambda r: r is ek.nn.tanh),
        "ek.keras.backend.clear_session": call(),
        "ek.keras.backend.random_normal": call(
            [2, 3], 1.0, 0.5, seed=1, check=lambda r: r.shape == (2, 3) and r.dtype == ek.float32
        ),
        "ek.keras.backend.random_uniform": call(
            [4], -1.0, 1.0, seed=1, check=lambda r: bool(ek.reduce_all(abs(r) <= 1.0))
        ),
        "ek.keras.Input": call(shape=[3], check=lambda r: tuple(r.shape) == (None, 3)),
    }
)
for _name, _formula in FORMULAS.items():  # ek.keras.activations.relu & co
    CALLS[f"ek.keras.activations.{_name}"] = call(F3, numpy=_formula)
for _name in "add average maximum minimum multiply subtract concatenate".split():
    CALLS[f"ek.keras.layers.{_name}"] = call([F23, P23])
CALLS["ek.keras.layers.dot"] = call(
    [F23, P23], axes=1, numpy=lambda v, axes: (v[0] * v[1]).sum(1, keepdims=True)
)
CALLS["ek.keras.layers.flatten"] = call(ek.ones([2, 2, 3]), numpy=lambda x: x.reshape(2, 6))

# --- classes and their methods ----------------------------------------------------------------
PAIR_FOR = {  # (y_true, y_pred) each loss or metric class takes
    "MeanSquaredError": (ONE_HOT, PROBS),
    "MeanAbsoluteError": (ONE_HOT, PROBS),
    "MeanAbsolutePercentageError": (PROBS + 1.0, ONE_HOT + 1.0),
    "Huber": (ONE_HOT, PROBS),
    "BinaryCrossentropy": (BINARY, PROBS),
    "BinaryFocalCrossentropy": (BINARY, PROBS),
    "CategoricalCrossentropy": (ONE_HOT, PROBS),
    "SparseCategoricalCrossentropy": (LABELS, PROBS),
    "Hinge": (BINARY, PROBS),
    "SquaredHinge": (BINARY, PROBS),
    "CategoricalHinge": (ONE_HOT, PROBS),
    "KLDivergence": (ONE_HOT, PROBS),
    "Poisson": (ONE_HOT, PROBS),
    "LogCosh": (ONE_HOT, PROBS),
    "MeanSquaredLogarithmicError": (ONE_HOT, PROBS),
    "CosineSimilarity": (ONE_HOT, PROBS),
    "TruePositives": (BINARY, PROBS),
    "FalsePositives": (BINARY, PROBS),
    "TrueNegatives": (BINARY, PROBS),
    "FalseNegatives": (BINARY, PROBS),
    "Precision": (BINARY, PROBS),
    "F1Score": (ONE_HOT, PROBS),
    "FBetaScore": (ONE_HOT, PROBS),
    "Recall": (BINARY, PROBS),
    "AUC": (BINARY, PROBS),
    "TopKCategoricalAccuracy": (ONE_HOT, PROBS),
    "SparseTopKCategoricalAccuracy": (LABELS, PROBS),
    "RootMeanSquaredError": (ONE_HOT, PROBS),
    "LogCoshError": (ONE_HOT, PROBS),
    "Accuracy": (I3, I3),
    "BinaryAccuracy": (BINARY, PROBS),
    "CategoricalAccuracy": (ONE_HOT, PROBS),
    "SparseCategoricalAccuracy": (LABELS, PROBS),
}
BUILT = {  # class: its construction, with SAMPLE for the calls of its methods
    "ek.keras.losses.Loss": call(sample=(ONE_HOT, PROBS)),
    "ek.keras.metrics.Metric": call(sample=(F3,)),
    "ek.keras.metrics.Mean": call(sample=(F3,)),
    "ek.keras.metrics.Sum": call(sample=(F3,)),
    "ek.keras.metrics.MeanMetricWrapper": call(
        ek.keras.losses.mean_squared_error, "mse", sample=(ONE_HOT, PROBS)
    ),
    "ek.metrics.Metric": call(sample=(F3,)),
    "ek.metrics.Mean": call(sample=(F3,)),
    "ek.metrics.Accuracy": call(sample=(I3, I3)),
}
for _module in ("ek.keras.losses.", "ek.keras.metrics."):
    for _short, _pair in PAIR_FOR.items():
        if _module + _short in CLASSES:
            BUILT[_module + _short] = call(sample=_pair)
UNWRITTEN = {
    "ek.keras.metrics.Metric",
    "ek.metrics.Metric",
    "ek.keras.losses.Loss",
}  # base classes: no update rule

SLOT_VARIABLE = variable()  # the variable get_slot asks about (stepped by the optimizer)
OPTIMIZERS = {  # class: (construction, a slot it keeps, or None)
    "ek.train.GradientDescentOptimizer": (call(0.1), None),
    "ek.train.MomentumOptimizer": (call(0.1, 0.9), "momentum"),
    "ek.train.AdamOptimizer": (call(0.1), "m"),
    "ek.train.AdagradOptimizer": (call(0.1), "accumulator"),
    "ek.train.RMSPropOptimizer": (call(0.1), "rms"),
    "ek.train.Optimizer": (call(0.1), None),
    "ek.keras.optimizers.SGD": (call(0.1, momentum=0.9), "momentum"),
    "ek.keras.optimizers.Adam": (call(0.1), "m"),
    "ek.keras.optimizers.Adagrad": (call(0.1), "accumulator"),
    "ek.keras.optimizers.RMSprop": (call(0.1), "rms"),
    "ek.keras.optimizers.AdamW": (call(0.1, weight_decay=0.01), "m"),
    "ek.keras.optimizers.Adadelta": (call(0.1), "accumulated_grad"),
    "ek.keras.optimizers.Adamax": (call(0.1), "u"),
    "ek.keras.optimizers.Nadam": (call(0.1), "v"),
}
INITIALIZERS = {  # class: (construction, what it gives for shape [2, 3], where exact)
    "ek.keras.initializers.Zeros": (call(), np.zeros((2, 3))),
    "ek.keras.initializers.Ones": (call(), np.ones((2, 3))),
    "ek.keras.initializers.Constant": (call(2.5), np.full((2, 3), 2.5)),
    "ek.keras.initializers.RandomNormal": (call(seed=1), None),
    "ek.keras.initializers.RandomUniform": (call(seed=1), None),
    "ek.keras.initializers.GlorotUniform": (call(seed=1), None),
    "ek.keras.initializers.GlorotNormal": (call(seed=1), None),
    "ek.keras.initializers.HeNormal": (call(seed=1), None),
    "ek.keras.initializers.HeUniform": (call(seed=1), None),
    "ek.keras.initializers.LecunNormal": (call(seed=1), None),
    "ek.keras.initializers.LecunUniform": (call(seed=1), None),
    "ek.keras.initializers.TruncatedNormal": (call(seed=1), None),
    "ek.keras.initializers.VarianceScaling": (call(2.0, "fan_avg", "uniform", seed=1), None),
    "ek.keras.initializers.Orthogonal": (call(seed=1), None),
    "ek.keras.initializers.Identity": (call(2.0), 2.0 * np.eye(2, 3)),
    "ek.keras.initializers.Initializer": (call(), None),
    # TF 2's top-level names for them (eagerkit/tf2_initializers.py)
    "ek.zeros_initializer": (call(), np.zeros((2, 3))),
    "ek.ones_initializer": (call(), np.ones((2, 3))),
    "ek.constant_initializer": (call(2.5), np.full((2, 3), 2.5)),
    "ek.random_normal_initializer": (call(seed=1), None),
    "ek.random_uniform_initializer": (call(seed=1), None),
}

REGULARIZERS = {  # class: (construction, its penalty on F23, numpy's)
    "ek.keras.regularizers.L1": (call(0.5), lambda x: 0.5 * np.abs(x).sum()),
    "ek.keras.regularizers.L2": (call(0.5), lambda x: 0.5 * np.square(x).sum()),
    "ek.keras.regularizers.L1L2": (
        call(0.5, 0.25),
        lambda x: 0.5 * np.abs(x).sum() + 0.25 * np.square(x).sum(),
    ),
    "ek.keras.regularizers.Regularizer": (call(), lambda x: 0.0),
}
_R = "ek.keras.regularizers."
CALLS.update(
    {
        _R + "l1_l2": call(check=lambda r: r.get_config() == {"l1": 0.01, "l2": 0.01}),
        _R + "get": call("l1_l2", check=lambda r: r.get_config() == {"l1": 0.01, "l2": 0.01}),
        _R + "serialize": call(
            ek.keras.regularizers.L2(0.5),
            check=lambda r: r == {"class_name": "L2", "config": {"l2": 0.5}},
        ),
        _R + "deserialize": call(
            {"class_name": "L1", "config": {"l1": 0.5}},
            check=lambda r: r.get_config() == {"l1": 0.5},
        ),
    }
)


def _metric_methods(name, declared):
    raises = UnimplementedError if name in UNWRITTEN else None
    return {
        "__call__": call(SAMPLE, raises=raises),
        "update_state": call(SAMPLE, raises=raises),
        "call": call(SAMPLE, raises=raises if name == "ek.keras.losses.Loss" else None),
        "result": call(),
        "reset_state": call(),
        "reset_states": call(),
        "__repr__": call(check=lambda r: isinstance(r, str)),
        "add_weight": call("total", fresh(lambda: ()), check=lambda r: isinstance(r, ek.Variable)),
    } | calls_training.config_methods(lambda: _make(name, declared))


def _optimizer_methods(name, slot):
    raises = UnimplementedError if name == "ek.train.Optimizer" else None

    def stepped():
        optimizer = _make(name, OPTIMIZERS[name][0])
        if raises is None:
            optimizer.apply_gradients([(ek.ones([2, 2]), SLOT_VARIABLE)])
        return optimizer

    return {
        "apply_gradients": call(fresh(lambda: [(ek.ones([2, 2]), variable())]), raises=raises),
        "minimize": call(_loss_of(variable), raises=raises),
        "get_slot": call(
            SLOT_VARIABLE,
            slot or "m",
            on=stepped,
            repeatable=False,
            raises=None if slot else InvalidArgumentError,  # it keeps none: says which it has
        ),
        "get_slot_names": call(on=stepped),
        "variables": call(on=stepped, repeatable=False),
        "__repr__": call(check=lambda r: r.startswith("<ek.")),
    } | calls_training.config_methods(lambda: _make(name, OPTIMIZERS[name][0]))


def _loss_of(make_variable):
    """A fresh ``loss`` for ``minimize``: the squared norm of a fresh variable."""

    def make():
        v = make_variable()
        return lambda: ek.reduce_sum(v * v)

    return fresh(make)


def _make(name, declared):
    return CLASSES[name].target(*declared.args, **declared.kwargs)


def _declare_methods(name, templates):
    for entry in walk.methods(name, CLASSES[name].target).values():
        CALLS[entry.name] = templates[entry.attribute]


for _name, _declared in BUILT.items():
    CALLS[_name] = _declared
    _declare_methods(_name, _metric_methods(_name, _declared))
for _name, (_declared, _slot) in OPTIMIZERS.items():
    CALLS[_name] = _declared
    _declare_methods(_name, _optimizer_methods(_name, _slot))
for _name, (_declared, _penalty) in REGULARIZERS.items():
    CALLS[_name] = _declared
    _base = _name.endswith("Regularizer")  # it cannot say its arguments
    _declare_methods(
        _name,
        {
            "__call__": call(F23, numpy=_penalty),
            "__repr__": call(check=lambda r: isinstance(r, str)),
            "get_config": call(
                check=lambda r: isinstance(r, dict), raises=UnimplementedError if _base else None
            ),
            "from_config": call(
                {} if _base else _make(_name, _declared).get_config(),
                check=lambda r, n=_name: type(r) is CLASSES[n].target,
            ),
        },
    )


def _initializer_repr(name):
    """How an initializer shows: Keras' as ``ek.initializers.Zeros()``, TF 2's top-level
    ones under the name called (``ek.zeros_initializer()``)."""
    return "ek.initializers." if name.startswith("ek.keras.") else f"{name}()"


for _name, (_declared, _values) in INITIALIZERS.items():
    CALLS[_name] = _declared
    _declare_methods(
        _name,
        {
            "__call__": call([2, 3], numpy=None if _values is None else lambda s, v=_values: v),
            "__repr__": call(check=lambda r, n=_name: r.startswith(_initializer_repr(n))),
            "get_config": call(check=lambda r: isinstance(r, dict)),
            "from_config": call(
                _make(_name, _declared).get_config(),
                check=lambda r, n=_name: type(r) is CLASSES[n].target,
            ),
        },
    )

SCHEDULES = {  # class: (construction, its rate at step 3; None: a base class says it has none)
    "ExponentialDecay": (call(0.1, 10, 0.5), 0.1 * 0.5**0.3),
    "InverseTimeDecay": (call(0.5, 4, 0.5), 0.5 / (1 + 0.5 * 3 / 4)),
    "PiecewiseConstantDecay": (call([2, 5], [1.0, 0.5, 0.1]), 0.5),
    "PolynomialDecay": (call(1.0, 6), (1.0 - 0.0001) * 0.5 + 0.0001),
    "CosineDecay": (call(1.0, 6), 0.5),
    "CosineDecayRestarts": (call(1.0, 2, t_mul=1.0), 0.5),  # step 3: halfway through the 2nd
    "LearningRateSchedule": (call(), None),
}
for _short, (_declared, _rate) in SCHEDULES.items():
    _name = "ek.keras.optimizers.schedules." + _short
    CALLS[_name] = _declared
    _declare_methods(
        _name,
        {
            "__call__": call(
                3,
                check=None if _rate is None else lambda r, rate=_rate: np.isclose(float(r), rate),
                raises=UnimplementedError if _rate is None else None,
            ),
            "__repr__": call(check=lambda r, s=_short: r.startswith(s + "(")),
            "get_config": call(check=lambda r: isinstance(r, dict)),
            "from_config": call(
                _make(_name, _declared).get_config(),
                check=lambda r, n=_name: type(r) is CLASSES[n].target,
            ),
        },
    )
