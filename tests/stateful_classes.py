"""Every public class of eagerkit, found by walking its namespaces, and what holds its state.

The state-after-failure tests take their classes from here: each public class either falls
under a kind of state (by its base class, so a new layer or optimizer is tested as soon as
it exists) or is declared stateless with the reason. A new public class that is neither
fails tests/test_state_after_failure.py::test_every_public_class_is_declared.
"""

import functools
import inspect

import eagerkit as ek
from eagerkit import namespaces
from eagerkit.data.iterator import Iterator
from eagerkit.function import Function
from eagerkit.keras.keras_tensor import KerasTensor
from eagerkit.keras.tf1_metrics import Metric
from eagerkit.summary import SummaryWriter
from eagerkit.train.checkpoint_status import LoadStatus

# Classes users get from a call rather than by name: ek.function(f), iter(dataset),
# ek.summary.create_file_writer(...), checkpoint.restore(...).
RETURNED = (Function, Iterator, SummaryWriter, LoadStatus)

# Each kind of state, by the base class its classes share; the tests named here break it.
KINDS = {
    "variable": (ek.Variable,),
    "optimizer": (ek.train.Optimizer,),
    "layer": (ek.keras.layers.Layer,),
    "module": (ek.Module,),
    "metric": (Metric,),
    "random generator": (ek.random.Generator,),
    "initializer (draws from the global random stream)": (ek.keras.initializers.Initializer,),
    "checkpoint": (ek.train.Checkpoint,),
    "checkpoint manager": (ek.train.CheckpointManager,),
    "summary writer": (SummaryWriter,),
    "dataset": (ek.data.Dataset,),
    "iterator (TF: raises an element's error, then goes on)": (Iterator,),
    "gradient tape": (ek.GradientTape,),
    "traced function": (Function,),
    "tensor array (TF2 eager: write and unstack change it in place)": (ek.TensorArray,),
}

STATELESS = {
    ek.Tensor: "immutable: every op makes a new one",
    ek.RaggedTensor: "immutable, as a Tensor: every op makes a new one",
    ek.SparseTensor: "immutable, as a Tensor: every op makes a new one",
    ek.DType: "a constant describing a dtype",
    ek.Device: "a name and a backend; the current device is a scope, tested as global state",
    ek.TensorShape: "immutable",
    ek.TensorSpec: "immutable",
    ek.UnconnectedGradients: "an Enum",
    ek.image.ResizeMethod: "an Enum",
    ek.random.Algorithm: "an Enum",
    ek.keras.losses.Reduction: "an Enum",
    ek.losses.Reduction: "string constants: TF 1's reduction keys",
    ek.config.LogicalDevice: "a record of a device's name and type",
    ek.config.PhysicalDevice: "a record of a device's name and type",
    ek.train.LBFGSResult: "a namedtuple of results",
    ek.train.CheckpointReader: "the values read from one checkpoint; get_tensor returns a copy",
    ek.keras.losses.Loss: "holds its configuration only; calls compute and return",
    ek.keras.regularizers.Regularizer: "holds its factors only; calls compute and return",
    ek.keras.constraints.Constraint: "holds its bounds and axes only; calls compute and return "
    "(the optimizers that apply it are tested as optimizers)",
    ek.keras.optimizers.schedules.LearningRateSchedule: "holds its arguments only; a call "
    "computes the step's rate",
    LoadStatus: "its methods only read; it changes through deferred restores, tested in "
    "tests/test_checkpoint_deferred.py",
    ek.name_scope: "a context manager; the scope stack is global state, tested as such",
    KerasTensor: "a symbolic stand-in: a shape, a dtype and the node that made it",
    ek.devices.Backend: "a device's array functions",
    ek.devices.ArrayNamespace: "a device's array functions",
    ek.keras.callbacks.Callback: "its state lives for one fit: on_train_begin sets it afresh; "
    "what a failed fit changed in the model is taken back (tests/test_keras_failed_calls.py)",
    ek.keras.callbacks.CallbackList: "the callbacks of one fit call, made by it",
    ek.keras.utils.Progbar: "a progress line: what it holds is what it has printed",
}


@functools.cache
def public_classes():
    """``{class: name}`` for every public class (the first name it is found under)."""
    found = {}
    modules = [ek, *namespaces.module_namespaces(ek, ek.PUBLIC_NAMESPACES)]
    for module in modules:
        for attribute in sorted(getattr(module, "__all__", None) or dir(module)):
            value = getattr(module, attribute, None)
            if (
                not attribute.startswith("_")
                and inspect.isclass(value)
                and value.__module__.startswith("eagerkit")
                and not issubclass(value, BaseException)
            ):
                found.setdefault(value, f"{module.__name__}.{attribute}".replace("eagerkit", "ek"))
    for cls in RETURNED:
        found.setdefault(cls, f"{cls.__module__}.{cls.__qualname__}")
    return found


def kind_of(cls):
    """The kind of state ``cls`` holds (the first base that matches), or None."""
    for kind, bases in KINDS.items():
        if issubclass(cls, bases):
            return kind
    return None


def stateless_reason(cls):
    for base, reason in STATELESS.items():
        if issubclass(cls, base):
            return reason
    return None


def classes_of(kind):
    """The public classes of one kind, as pytest parameters (sorted by name)."""
    classes = public_classes()
    return sorted((c for c in classes if kind_of(c) == kind), key=lambda c: classes[c])
