"""``ek.print``: print tensors, in TF's format, at every run of a graph too.

Python's ``print`` inside ``ek.function`` runs while tracing only; ``ek.print`` is recorded
in the graph (graph/effects.py), so it prints at every call, the values of that call.
Eagerly it prints at once. The format is TF's ``tf.print``: a tensor as its values without
commas (``[1 2 3]``, rows on new lines), long axes summarized to their first and last
``summarize`` values (``[0 1 2 ... 7 8 9]``), floats in as few digits as give the value back.

One difference: TF prints to ``sys.stderr`` unless told otherwise, eagerkit to
``sys.stdout``, so that a notebook shows the lines as the cell's output.
"""

import sys

import numpy as np

from eagerkit import nest
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.effects import traced_python_call
from eagerkit.graph.trace import current_tracer
from eagerkit.tensor import Tensor

__all__ = ["print_tensors"]


def print_tensors(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):
    """Print ``inputs`` (tensors, Python values, structures of them) as TF's ``tf.print``.

    Parameters
    ----------
    *inputs : what to print, separated by ``sep``.
    output_stream : ``sys.stdout`` (the default), ``sys.stderr``, a file object, or
        ``"file://path"`` to append to a file.
    summarize : how many values to show at each end of a long axis (-1: all).
    sep, end : as for Python's ``print``.
    name : unused (TF's op name).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.print("values:", ek.constant([1.5, 2.0, 0.1]), ek.range(10))
    values: [1.5 2 0.1] [0 1 2 ... 7 8 9]
    >>> @ek.function
    ... def f(x):
    ...     ek.print("x =", x)
    >>> f(ek.constant(1)); f(ek.constant(2))  # printed at every call, traced once
    x = 1
    x = 2
    """
    summarize = _summarize(summarize)
    stream = _stream(output_stream)
    leaves = nest.flatten(list(inputs))
    tensors = [x for x in leaves if isinstance(x, Tensor)]
    layout = [None if isinstance(x, Tensor) else x for x in leaves]

    def write(*values, raw):
        given = iter(values)
        filled = [next(given) if i in positions else x for i, x in enumerate(layout)]
        items = nest.pack_sequence_as(list(inputs), filled)
        text = sep.join(_text(item, summarize, top=True) for item in items)
        _write(stream, text + end)

    positions = {i for i, x in enumerate(leaves) if isinstance(x, Tensor)}
    tracer = current_tracer()
    if tracer is None:
        write(*tensors, raw=False)
        return None
    traced_python_call(tracer, "print", write, tensors, lambda: None)
    return None


def tensor_text(value, summarize=3):
    """A tensor (or array) as ``tf.print`` writes it.

    Examples
    --------
    >>> import numpy as np
    >>> print(tensor_text(np.arange(6).reshape(2, 3)))
    [[0 1 2]
     [3 4 5]]
    >>> tensor_text(np.float32(0.1)), tensor_text(np.array([True, False]))
    ('0.1', '[1 0]')
    """
    host = value.numpy() if isinstance(value, Tensor) else value  # numpy: on the host
    return _nested(host, summarize, depth=0)


def _nested(array, summarize, depth):
    if array.ndim == 0:
        return _scalar(array[()], array.dtype)
    count = array.shape[0]
    if 0 <= summarize and 2 * summarize < count:
        indices = [*range(summarize), None, *range(count - summarize, count)]
    else:
        indices = list(range(count))
    parts = ["..." if i is None else _nested(array[i], summarize, depth + 1) for i in indices]
    joiner = " " if array.ndim == 1 else "\n" + " " * (depth + 1)
    return "[" + joiner.join(parts) + "]"


def _scalar(value, dtype):
    if dtype.kind == "f":
        short, long_ = (6, 9) if dtype.itemsize <= 4 else (15, 17)
        text = f"{float(value):.{short}g}"
        if dtype.type(text) != value and value == value:  # too short to give it back (not nan)
            text = f"{float(value):.{long_}g}"
        return text
    if dtype.kind == "b":
        return "1" if value else "0"
    if dtype.kind in "SUO":
        text = value.decode() if isinstance(value, bytes) else str(value)
        return f'"{text}"'
    return str(value)


def _text(item, summarize, top=False):
    if isinstance(item, Tensor):
        if item.ndim == 0 and item.dtype.name == "string":
            value = item.numpy()
            return value.decode() if isinstance(value, bytes) else str(value)
        return tensor_text(item, summarize)
    if isinstance(item, str) and top:
        return item
    if isinstance(item, dict):
        return "{" + ", ".join(f"{k!r}: {_text(v, summarize)}" for k, v in item.items()) + "}"
    if isinstance(item, (list, tuple)):
        inner = ", ".join(_text(v, summarize) for v in item)
        return f"[{inner}]" if isinstance(item, list) else f"({inner})"
    return repr(item) if isinstance(item, str) else str(item)


def _summarize(summarize):
    if (
        isinstance(summarize, bool)
        or not isinstance(summarize, (int, np.integer))
        or summarize < -1
    ):
        raise InvalidArgumentError(
            f"print: summarize must be a whole number >= -1 (-1 prints every value), got "
            f"{summarize!r}",
            op="print",
        )
    return int(summarize)


def _stream(output_stream):
    """Where to write, resolved when printing: ``"stdout"``/``"stderr"`` follow ``sys``'s
    current streams (a notebook or a test may replace them)."""
    if output_stream is None or output_stream is sys.stdout:
        return "stdout"
    if output_stream is sys.stderr:
        return "stderr"
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        return output_stream
    if callable(getattr(output_stream, "write", None)):
        return output_stream
    raise InvalidArgumentError(
        f"print: output_stream must be sys.stdout, sys.stderr, a file object or "
        f"'file://<path>', got {output_stream!r}",
        op="print",
    )


def _write(stream, text):
    if stream == "stdout":
        sys.stdout.write(text)
    elif stream == "stderr":
        sys.stderr.write(text)
    elif isinstance(stream, str):
        with open(stream[len("file://") :], "a", encoding="utf-8") as file:
            file.write(text)
    else:
        stream.write(text)
