"""Effects in graphs: what ``ek.function`` runs at every call besides computing its result.

A Python side effect (``print``, appending to a list) happens while tracing only. The
effects below are recorded in the graph instead, as nodes that always run, in the order
the function asked for them, whether or not anything reads their result:

- ``assign_variable``: ``v.assign(x)``, ``v.assign_add(d)``, ``v.assign_sub(d)``;
- ``apply_gradients``: an optimizer's update of its variables (and slots, and step count);
- ``python_call``: Python run at every call, given the graph's tensors (``ek.print``,
  ``ek.py_function``).

Tracing only records them (the call that traced runs the graph right after, as in TF), so
a trace that fails has changed nothing.
"""

from eagerkit.graph.graph_ops import GraphOp
from eagerkit.tensor import Tensor


# --- variables ----------------------------------------------------------------------------------
def _new_value(xp, current, value, method):
    if method == "assign":
        return value
    return xp.add(current, value) if method == "assign_add" else xp.subtract(current, value)


def _assign_forward(xp, value, variable, method):
    if value.shape != variable._data.shape:  # a shape the trace left open may not fit
        variable._checked(Tensor(value, variable._device), method)  # raises eagerkit's error
        raise _shape_change(variable, value.shape)  # it fits a variable made with shape=
    variable._write(_new_value(xp, variable._data, value, method), method)


def _shape_change(variable, shape):
    from eagerkit.errors import UnimplementedError

    return UnimplementedError(
        f"assign on variable '{variable.name}' inside ek.function: a value of shape "
        f"{tuple(shape)} would change the variable's shape {variable.shape} (it was made with "
        "shape=, so eagerly it may); inside ek.function an assign keeps the shape: assign "
        "the new shape outside the function",
        op="assign",
    )


def _assign_call(value, variable, method):
    getattr(variable, method)(value)


ASSIGN = GraphOp(
    "assign_variable",
    _assign_forward,
    _assign_call,
    stateful=True,
    effects=True,
    shown=("variable", "method"),
)


def traced_assign(tracer, variable, method, value):
    """Record ``variable.<method>(value)``, checked now as eagerly (a bad value raises)."""
    array = variable._checked(value, method)  # a bad value raises before anything is written
    if array.shape != variable._data.shape:
        raise _shape_change(variable, array.shape)
    if not (isinstance(value, Tensor) and value._device is variable._device):
        value = Tensor(array, variable._device)  # a Python value, converted: a constant
    tracer.record_graph_op(ASSIGN, [value], {"variable": variable, "method": method}, None)
    tracer.forget_variable_reads()  # reads after this one see the new value


# --- part of a variable: v[key].assign(x) (variable_slices.py) -------------------------------
def _plain_key(template, indices):
    """The key with each index tensor's place (an int, its position among ``indices``) filled."""
    return tuple(
        int(indices[item.position]) if isinstance(item, _Index) else item for item in template
    )


class _Index:
    """In a graph's key, the place of an index tensor: the op's input ``1 + position``."""

    __slots__ = ("position",)

    def __init__(self, position):
        self.position = position

    def __repr__(self):
        return f"<index {self.position}>"


def _assign_part_forward(xp, value, *indices, variable, method, key):
    from eagerkit import variable_slices

    key = _plain_key(key, indices)
    array = variable_slices.variable_value(variable, key, Tensor(value, variable._device), method)
    variable_slices.write_part(variable, key, array, method)


def _assign_part_call(value, *indices, variable, method, key):
    from eagerkit import variable_slices

    variable_slices.assign_part(variable, _plain_key(key, indices), value, method)


ASSIGN_PART = GraphOp(
    "assign_variable_part",
    _assign_part_forward,
    _assign_part_call,
    stateful=True,
    effects=True,
    shown=("variable", "method", "key"),
)


def traced_assign_part(tracer, variable, key, method, value):
    """Record ``variable[key].<method>(value)``, checked now on the trace's values; an int
    tensor in ``key`` is an input, read at every call."""
    from eagerkit import variable_slices
    from eagerkit.ops.indexing import _basic_key

    items = key if isinstance(key, tuple) else (key,)
    indices, template = [], []
    for item in items:
        if isinstance(item, Tensor):
            template.append(_Index(len(indices)))
            indices.append(item)
        else:
            template.append(item)
    template = tuple(template)
    traced_key = _basic_key(_plain_key(template, indices), variable.shape)
    array = variable_slices.variable_value(variable, traced_key, value, method)  # raises now
    if not (isinstance(value, Tensor) and value._device is variable._device):
        value = Tensor(array, variable._device)  # a Python value, converted: a constant
    params = {"variable": variable, "method": method, "key": template}
    tracer.record_graph_op(ASSIGN_PART, [value, *indices], params, None)
    tracer.forget_variable_reads()  # reads after this one see the new value


# --- optimizers ---------------------------------------------------------------------------------
def _apply_forward(xp, *grads, optimizer, variables, global_step):
    tensors = [Tensor(g, v._device) for g, v in zip(grads, variables, strict=True)]
    optimizer.apply_gradients(zip(tensors, variables, strict=True), global_step=global_step)


def _apply_call(*grads, optimizer, variables, global_step):
    optimizer.apply_gradients(zip(grads, variables, strict=True), global_step=global_step)


APPLY_GRADIENTS = GraphOp(
    "apply_gradients", _apply_forward, _apply_call, stateful=True, effects=True
)


def traced_apply_gradients(tracer, optimizer, pairs, global_step):
    """Record ``optimizer.apply_gradients(pairs)`` (pairs already checked).

    The optimizer's variables (its step count, each variable's slots) are made now, while
    tracing, as TF's are: so a function traced again for another optimizer creates variables
    after its first trace, which TF refuses.
    """
    optimizer.iterations  # noqa: B018 - made on first use
    for _, variable in pairs:
        for slot_name in optimizer.slot_names:
            optimizer.get_slot(variable, slot_name)
    params = {
        "optimizer": optimizer,
        "variables": tuple(v for _, v in pairs),
        "global_step": global_step,
    }
    tracer.record_graph_op(APPLY_GRADIENTS, [g for g, _ in pairs], params, None)
    tracer.forget_variable_reads()


# --- Python called at every run -------------------------------------------------------------------
def _python_forward(xp, *arrays, function, devices):
    tensors = [Tensor(a, d) for a, d in zip(arrays, devices, strict=True)]
    return function(*tensors, raw=True)


def _python_call(*tensors, function, devices):
    return function(*tensors, raw=False)


PYTHON_CALL = GraphOp("python_call", _python_forward, _python_call, stateful=True, effects=True)


def traced_python_call(tracer, name, function, tensors, example):
    """Record ``function(*tensors, raw=...)`` to run at every call of the graph.

    ``function(*tensors, raw)`` returns arrays when ``raw`` (the compiled replay), else
    tensors; ``example()`` gives what the trace goes on with as its results (None, a
    tensor, or a list of them).
    """
    op = GraphOp(name, PYTHON_CALL.forward, PYTHON_CALL.call, stateful=True, effects=True)
    devices = tuple(t._device for t in tensors)
    params = {"function": function, "devices": devices}
    return tracer.record_graph_op(op, tensors, params, example())
