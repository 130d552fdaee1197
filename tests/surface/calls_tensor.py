"""Valid calls of Tensor's and Variable's operators, protocols and methods, and of the
small classes around them (TensorShape, DType, TensorSpec, Device, GradientTape, ...)."""

import numpy as np

import eagerkit as ek
from eagerkit.errors import UnimplementedError
from eagerkit.variable_slices import VariableSlice

from . import walk
from .declare import call, fresh
from .values import B3, F23, P3, variable

CLASSES = walk.public_callables()
_ENUM_API = ("names", "module", "qualname", "type", "start", "boundary")
X = F23.numpy()  # the value of the Tensor the methods are called on
V = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)  # ... and of the Variable
SCALAR = ek.constant(3)


def _operators(value, other):
    """``__add__`` ... for a receiver holding ``value``, with ``other`` beside it."""
    found = {}
    for symbol, numpy_op in {
        "add": np.add,
        "sub": np.subtract,
        "mul": np.multiply,
        "truediv": np.divide,
        "floordiv": np.floor_divide,
        "mod": np.mod,
        "lt": np.less,
        "le": np.less_equal,
        "gt": np.greater,
        "ge": np.greater_equal,
        "eq": np.equal,
        "ne": np.not_equal,
    }.items():
        found[f"__{symbol}__"] = call(other, numpy=lambda o, f=numpy_op: f(value, o))
        found[f"__r{symbol}__"] = call(2.0, numpy=lambda o, f=numpy_op: f(o, value))
    found["__pow__"] = call(2.0, numpy=lambda o: value**o)
    found["__rpow__"] = call(2.0, numpy=lambda o: o**value)
    found["__matmul__"] = call(np.ones((value.shape[-1], 2), np.float32), numpy=lambda o: value @ o)
    found["__rmatmul__"] = call(
        [[1.0] * value.shape[0]], numpy=lambda o: np.array(o, np.float32) @ value
    )
    found["__neg__"] = call(numpy=lambda: -value)
    found["__pos__"] = call(numpy=lambda: value)
    found["__abs__"] = call(numpy=lambda: np.abs(value))
    for symbol, numpy_op in {
        "and": np.logical_and,
        "or": np.logical_or,
        "xor": np.logical_xor,
    }.items():
        on_bools = {"on": lambda: B3}
        found[f"__{symbol}__"] = call(B3, numpy=lambda o, f=numpy_op: f(B3.numpy(), o), **on_bools)
        found[f"__r{symbol}__"] = call(
            True, numpy=lambda o, f=numpy_op: f(o, B3.numpy()), **on_bools
        )
    found["__invert__"] = call(numpy=lambda: ~B3.numpy(), on=lambda: B3)
    return found


def _protocols(value):
    return {
        "__getitem__": call((1, slice(0, 2)), numpy=lambda key: value[key]),
        "__len__": call(check=lambda r: r == len(value)),
        "__iter__": call(check=lambda r: len(list(r)) == len(value)),
        "__bool__": call(on=lambda: SCALAR, check=lambda r: r is True),
        "__float__": call(on=lambda: SCALAR, check=lambda r: r == 3.0),
        "__int__": call(on=lambda: SCALAR, check=lambda r: r == 3),
        "__index__": call(on=lambda: SCALAR, check=lambda r: r == 3),
        "__format__": call(".1f", on=lambda: SCALAR, check=lambda r: r == "3.0", fixed=(0,)),
        "__array__": call(numpy=lambda: value),
        "__repr__": call(check=lambda r: r.startswith("<ek.")),
        "__str__": call(check=lambda r: r.startswith("ek.") or r.startswith("<ek.")),
        "__copy__": call(numpy=lambda: value),
        "__deepcopy__": call(numpy=lambda: value),
        "__reduce__": call(numpy=lambda: value),
        "numpy": call(numpy=lambda: value),
        "cpu": call(numpy=lambda: value),
        "gpu": call(on=lambda: _with_a_gpu(value), numpy=lambda: value),
        "get_shape": call(check=lambda r: tuple(r) == value.shape),
        "set_shape": call([None] * np.ndim(value), check=lambda r: r is None),
        "ref": call(check=lambda r: r.deref() is not None),
        "eval": call(raises=UnimplementedError),  # TF1's graph-only call, explained
    }


def _with_a_gpu(value):
    """A tensor, with '/gpu:0' answered by the simulated GPU when the machine has none."""
    if not ek.num_gpus():
        ek.devices.enable_simulated_gpu(as_gpu=True)
    return ek.constant(value)


_VARIABLE = {
    "__reduce__": call(raises=TypeError),  # variables are saved by checkpoints, not pickled
    "assign": call(ek.ones([2, 2]), numpy=lambda d: np.ones((2, 2))),
    "assign_add": call(ek.ones([2, 2]), numpy=lambda d: V + 1),
    "assign_sub": call(ek.ones([2, 2]), numpy=lambda d: V - 1),
    "read_value": call(numpy=lambda: V),
    "value": call(numpy=lambda: V),
}
# v[0:2] of the Variable: a tensor holding all of V (variable_slices.py) whose assign,
# assign_add and assign_sub write that part of the variable and return the variable.
_SLICE_OF_VARIABLE = {"__getitem__": call(slice(0, 2), numpy=lambda key: V[key])}
_SLICE_ASSIGNS = {method: _VARIABLE[method] for method in ("assign", "assign_add", "assign_sub")}
CALLS = {
    "ek.Tensor": call(X, numpy=lambda data: data),
    "ek.Variable": call([[1.0, 2.0], [3.0, 4.0]], numpy=lambda v: np.array(v)),
}
for _name, _class, _templates in (
    ("ek.Tensor", CLASSES["ek.Tensor"].target, {**_operators(X, P3.numpy()), **_protocols(X)}),
    (
        "ek.Variable",
        CLASSES["ek.Variable"].target,
        {**_operators(V, np.float32(2)), **_protocols(V), **_VARIABLE, **_SLICE_OF_VARIABLE},
    ),
    (
        "ek.Variable.__getitem__()",
        VariableSlice,
        {**_operators(V, np.float32(2)), **_protocols(V), **_SLICE_ASSIGNS},
    ),
):
    for _entry in walk.methods(_name, _class).values():
        CALLS[_entry.name] = _templates[_entry.attribute]


class _Recording:
    """A persistent tape that watched x and recorded y = x * x; its calls' arguments."""

    def tape(self):
        self.x = ek.constant([[1.0, 2.0], [3.0, 4.0]])
        with ek.GradientTape(persistent=True) as tape:
            tape.watch(self.x)
            self.y = self.x * self.x
        return tape


RECORDING = _Recording()
_X = fresh(lambda: RECORDING.x)
_Y = fresh(lambda: RECORDING.y)
CALLS.update(
    {
        "ek.GradientTape": call(persistent=True),
        "ek.GradientTape.__enter__": call(),
        "ek.GradientTape.__exit__": call(),
        "ek.GradientTape.gradient": call(
            _Y, _X, on=RECORDING.tape, strict=True, numpy=lambda y, x: 2 * x
        ),
        "ek.GradientTape.jacobian": call(_Y, _X, on=RECORDING.tape, strict=True),
        "ek.GradientTape.batch_jacobian": call(
            _Y, _X, on=RECORDING.tape, strict=True, numpy=lambda y, x: 2 * x[:, :, None] * np.eye(2)
        ),
        "ek.GradientTape.watch": call(F23, strict=True),
        "ek.GradientTape.watched_variables": call(on=RECORDING.tape),
        "ek.GradientTape.reset": call(on=RECORDING.tape),
        "ek.GradientTape.stop_recording": call(),
        "ek.TensorShape": call([2, 3], check=lambda r: r.as_list() == [2, 3]),
        "ek.TensorShape.__add__": call(
            ek.TensorShape([4]), check=lambda r: r.as_list() == [2, 3, 4]
        ),
        "ek.TensorShape.__radd__": call([1], check=lambda r: r.as_list() == [1, 2, 3]),
        "ek.TensorShape.__eq__": call([2, 3], check=lambda r: r is True),
        "ek.TensorShape.__ne__": call([2, 4], check=lambda r: r is True),
        "ek.TensorShape.__getitem__": call(0, check=lambda r: r == 2),
        "ek.TensorShape.__hash__": call(),
        "ek.TensorShape.__reduce__": call(check=lambda r: r.as_list() == [2, 3]),
        "ek.TensorShape.__repr__": call(),
        "ek.TensorShape.__str__": call(check=lambda r: r == "(2, 3)"),
        "ek.TensorShape.as_list": call(check=lambda r: r == [2, 3]),
        "ek.TensorShape.concatenate": call([4], check=lambda r: r.as_list() == [2, 3, 4]),
        "ek.TensorShape.is_compatible_with": call([2, None], check=lambda r: r is True),
        "ek.TensorShape.is_fully_defined": call(check=lambda r: r is True),
        "ek.TensorShape.num_elements": call(check=lambda r: r == 6),
        "ek.DType": call("float32", check=lambda r: r == ek.float32),
        "ek.DType.__eq__": call(ek.float32, check=lambda r: r is True),
        "ek.DType.__hash__": call(),
        "ek.DType.__reduce__": call(check=lambda r: r == ek.float32),
        "ek.DType.__repr__": call(check=lambda r: r == "ek.float32"),
        "ek.DType.__str__": call(),
        "ek.TensorSpec": call([2, 3], check=lambda r: r.is_compatible_with(F23)),
        "ek.TensorSpec.__eq__": call(ek.TensorSpec([2, 3]), check=lambda r: r is True),
        "ek.TensorSpec.__hash__": call(),
        "ek.TensorSpec.__repr__": call(),
        "ek.TensorSpec.from_tensor": call(
            F23, strict=True, check=lambda r: r == ek.TensorSpec([2, 3])
        ),
        "ek.TensorSpec.is_compatible_with": call(F23, strict=True, check=lambda r: r is True),
        "ek.Device": call("/cpu:0", fresh(lambda: ek.devices.CPU.backend)),
        "ek.Device.__repr__": call(check=lambda r: r == "<ek.Device /cpu:0 (numpy)>"),
        "ek.Device.supports": call("add", np.dtype(np.float32), check=lambda r: r is True),
        "ek.Device.synchronize": call(),
        "ek.name_scope": call("scope"),
        "ek.name_scope.__enter__": call(),
        "ek.name_scope.__exit__": call(),
        "ek.name_scope.__repr__": call(),
        # (Enum's functional API, UnconnectedGradients("x", names=...), makes a new Enum)
        "ek.UnconnectedGradients": call("zero", fixed=_ENUM_API),
        "ek.UnconnectedGradients.__format__": call("", check=lambda r: r == "zero", fixed=(0,)),
        "ek.UnconnectedGradients.__repr__": call(),
        "ek.UnconnectedGradients.__str__": call(),
        "ek.Module": call(name="block"),
        "ek.Module.__repr__": call(),
        "ek.Module.__setattr__": call("w", fresh(variable), fixed=(0,)),
        "ek.Module.with_name_scope": call(lambda self: self.name),
        "ek.keras.losses.Reduction": call(),
        "ek.image.ResizeMethod": call(),
    }
)
# What calls return: a tensor's ref(), top_k's (values, indices)
CALLS.update(
    {
        "ek.Tensor.ref().__eq__": call(fresh(lambda: F23.ref()), on=lambda: F23.ref()),
        "ek.Tensor.ref().__hash__": call(on=lambda: F23.ref()),
        "ek.Tensor.ref().deref": call(on=lambda: F23.ref(), check=lambda r: r is F23),
        "ek.top_k().__repr__": call(check=lambda r: r.startswith("TopK")),
        "ek.top_k().__getnewargs__": call(),
    }
)
for _name in ("ek.config.PhysicalDevice", "ek.config.LogicalDevice"):
    CALLS[_name] = call("/physical_device:CPU:0", "CPU")
    CALLS[_name + ".__repr__"] = call(check=lambda r: "CPU:0" in r)
    CALLS[_name + ".__getnewargs__"] = call()
