"""The data a TapeView draws, built from a tape's records: nodes, edges and forward steps.

Everything here is plain JSON-able data (strings, numbers, lists, dicts), computed once in
Python and sent to the browser, which then steps through it without asking the kernel.

- A *tensor node* per tensor the records touch, marked ``watched`` (tape.watch),
  ``variable``, ``constant`` or ``intermediate`` (made by a recorded op).
- An *op node* per record. Reading a variable is recorded too (``read_variable``); it gets
  no op node of its own: the snapshot it makes is drawn as the variable itself.
- A *forward step* per record. (The reverse sweep's steps are sweep.py's.)
"""

import numpy as np

from eagerkit.keras.layers.base import Layer
from eagerkit.tape import READ_VARIABLE
from eagerkit.tensor import Tensor

from ..common.names import model_variable_names


def preview(value, width=28):
    """A short one-line text of an array's values.

    Examples
    --------
    >>> preview(np.array([[1.0, 2.0], [3.0, 4.0]]))
    '[[1. 2.] [3. 4.]]'
    >>> preview(np.arange(100.0))
    '[ 0. 1. ... 98. 99.]'
    >>> preview(np.float32(1) / 3)
    '0.3333'
    """
    array = np.asarray(value)
    if array.ndim == 0:
        return _scalar_text(array.item())
    text = np.array2string(
        array, precision=3, threshold=6, edgeitems=2, max_line_width=10_000, separator=" "
    )
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def host(value, device=None):
    """A numpy copy of a Tensor, or of a raw array on ``device`` (what the sweep hands us)."""
    if isinstance(value, Tensor):
        return np.asarray(value.numpy())
    return np.asarray(device.backend.to_host(value))


def _scalar_text(value):
    if not isinstance(value, float):
        return str(value)  # ints and bools as they are
    text = f"{value:.4g}"
    return text if any(c in text for c in ".en") else text + ".0"  # 6.0, not 6


class Namer:
    """Names for tensors: the user's own (``names=locals()``) where given (a model's
    variables by the attribute that holds their layer: ``hidden/kernel``), else the
    variable's name, else the layer that made it when no op was recorded
    (``flatten(images)``, from ``unrecorded``: see origins.Tracker), else t0, t1, ...

    Ids are handed out in the order tensors are first asked about, which is record order,
    so the same code always gives the same names.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x, y = ek.constant(1.0), ek.constant(2.0)
    >>> namer = Namer({"x": x})
    >>> namer(x), namer(y), namer(y)
    ('x', 't0', 't0')
    """

    def __init__(self, names=None, unrecorded=None):
        self._source = names if names is not None else {}
        self._unrecorded = unrecorded or {}
        self._given = None  # read from the dict on first use: a %%tape cell fills it later
        self._names = {}
        self._counter = 0

    def give(self, tensor, name):
        """Name ``tensor`` unless it already has a name."""
        self._names.setdefault(id(tensor), name)

    def __call__(self, tensor):
        if self._given is None:
            self._given = {}
            # IPython keeps _, __, _3, Out ...: skip private names, keep the first one.
            public = [(name, v) for name, v in self._source.items() if not name.startswith("_")]
            for name, value in public:
                if isinstance(value, Tensor):
                    self._given.setdefault(id(value), name)
            for _, model in public:  # a model's variables, named as GradientFlow names them
                if isinstance(model, Layer):
                    for name, variable in model_variable_names(model):
                        self._given.setdefault(id(variable), name)
            self._taken = set(self._given.values())
        key = id(tensor)
        if key not in self._names:
            self._names[key] = self._given.get(key) or self._fresh(tensor)
        return self._names[key]

    def _fresh(self, tensor):
        name = None
        if tensor._is_variable:  # 'dense/kernel:0' -> 'dense/kernel', unless already taken
            name = tensor.name.rsplit(":", 1)[0]
        elif id(tensor) in self._unrecorded:  # a layer made it, recording nothing
            _, layer, inputs = self._unrecorded[id(tensor)]
            name = f"{layer}({self(inputs) if isinstance(inputs, Tensor) else '…'})"
        if name is not None and name not in self._taken and name != "Variable":
            self._taken.add(name)
            return name
        while f"t{self._counter}" in self._taken:
            self._counter += 1
        name = f"t{self._counter}"
        self._counter += 1
        return name


def tensor_kind(tensor, made_by_op, watched_ids):
    """One of ``variable``, ``intermediate``, ``watched`` or ``constant``."""
    if tensor._is_variable:
        return "variable"
    if id(tensor) in made_by_op:
        return "intermediate"
    return "watched" if id(tensor) in watched_ids else "constant"


def build_graph(records, *, namer, watched_ids, depths, extra=(), origins=None, groups=None):
    """Nodes, edges and forward steps for ``records`` (``extra``: tensors to add unconnected).

    ``origins`` maps a record index to the user's line that made it, ``groups`` to the
    id of the layer it ran in. Returns a dict ``{"nodes", "edges", "forward",
    "nonfinite", "node_of"}``: ``nonfinite`` is the first record whose output is NaN or
    Inf (or None); ``node_of`` maps ``id(tensor)`` to its node id (Python-side only).
    """
    origins, groups = origins or {}, groups or {}
    nonfinite = None
    node_of = {}  # id(tensor) -> node id
    made_by_op = {id(r.output) for r in records if r.op is not READ_VARIABLE}
    nodes, edges, forward, by_id = [], [], [], {}

    def tensor_node(tensor):
        key = id(tensor)
        if key not in node_of:
            node_id = f"n{len(node_of)}"
            node_of[key] = node_id
            nodes.append(_tensor_node(node_id, tensor, namer, made_by_op, watched_ids))
            by_id[node_id] = nodes[-1]
        return node_of[key]

    for index, record in enumerate(records):
        if record.op is READ_VARIABLE:
            # The snapshot the read made *is* the variable, as far as the picture goes.
            variable = record.inputs[0]
            node_of[id(record.output)] = tensor_node(variable)
            namer.give(record.output, namer(variable))
            forward.append(_read_step(index, node_of[id(variable)], namer(variable)))
            forward[-1]["group"] = groups.get(index)
            continue
        inputs = [tensor_node(x) for x in record.inputs]
        op_id = f"op{index}"
        op = {
            "id": op_id,
            "type": "op",
            "label": record.op.name,
            "record": index,
            "depth": depths.get(index, 1),
            "params": _params_text(record.params),
            "saved": _saved_text(record, namer),
        }
        if index in origins:
            op["origin"] = origins[index]
        if index in groups:
            op["group"] = groups[index]
        nodes.append(op)
        for k, node_id in enumerate(inputs):
            lane = inputs[:k].count(node_id)  # x * x: two edges side by side, not on top
            edges.append(
                {"id": f"e{index}_{k}", "from": node_id, "to": op_id, "record": index, "lane": lane}
            )
        output = tensor_node(record.output)
        if index in origins:
            by_id[output]["origin"] = origins[index]  # the output was made on the same line
        if nonfinite is None and not _finite(record.output):
            nonfinite = {"phase": "forward", "record": index, "node": output}
        edges.append(
            {"id": f"e{index}_out", "from": op_id, "to": output, "record": index, "lane": 0}
        )
        names = ", ".join(namer(x) for x in record.inputs)
        forward.append(
            {
                "record": index,
                "op": op_id,
                "inputs": inputs,
                "output": output,
                "text": f"{namer(record.output)} = {record.op.name}({names})",
                "group": groups.get(index),
            }
        )
    for tensor in extra:
        tensor_node(tensor)
    return {
        "nodes": nodes,
        "edges": edges,
        "forward": forward,
        "nonfinite": nonfinite,
        "node_of": node_of,
    }


def _finite(tensor):
    return not tensor.dtype.is_floating or bool(np.isfinite(host(tensor)).all())


def _saved_text(record, namer):
    """What the op's VJP reads in the backward pass: its inputs and its output (the tape
    keeps them alive until the sweep is done)."""
    kept = ", ".join(dict.fromkeys(namer(x) for x in record.inputs))
    return f"kept for the VJP: inputs {kept}; output {namer(record.output)}"


def _tensor_node(node_id, tensor, namer, made_by_op, watched_ids):
    return {
        "id": node_id,
        "type": "tensor",
        "label": namer(tensor),
        "kind": tensor_kind(tensor, made_by_op, watched_ids),
        "shape": list(tensor.shape),
        "dtype": tensor.dtype.name,
        "device": tensor._device.name,  # the short name: /cpu:0
        "value": preview(host(tensor)),
    }


def _read_step(index, node_id, name):
    return {
        "record": index,
        "op": None,
        "inputs": [node_id],
        "output": node_id,
        "text": f"read variable {name} (its value is snapshotted for the backward pass)",
    }


def _params_text(params):
    return ", ".join(f"{k}={v!r}" for k, v in sorted(params.items()))
