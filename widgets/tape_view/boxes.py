"""What is written inside each box of the tape graph, and so how big the box is.

Four kinds of box (folding.py decides which nodes get which):

- a *leaf*: a tensor no recorded op made (a watched tensor, a variable, a constant);
- a *value*: one record, the op and the tensor it made in one box (``h = multiply(x, w)``),
  so a chain of ops takes one row per op;
- a *group*: folded records (a line, a layer, a loop: "▸ h = ek.tanh(...) ×20"), with the
  value it hands on;
- a *proxy*: a small stand-in, beside each use, for a leaf used in many places (a weight
  used at every time step), so no curtain of long edges crosses the drawing.

The browser (view.js) and the PNG (snapshot.py) write exactly these lines, in the drawing's
monospace font. A box is sized for its gradient lines before there is a gradient (room for
the longest gradient a tensor of its shape can show), so the layout is done once.
"""

from ..common.drawing import text_width

LINE_H = 15  # one line of text in a box
TITLE_CHARS = 44  # a title longer than this ends in "…"
SCALAR_CHARS = 10  # the longest text of a scalar ("-1.234e-05"), see model.preview
ARRAY_CHARS = 18  # an array's values in a box: its first few (a click shows more)


GRAD_LINES = 3  # a folded group handing on more values than this shows no gradient line


def box_size(lines, grads=()):
    """(width, height) of a box holding ``lines`` and the gradient lines ``grads`` (each
    ``{"prefix", "reserve"}``: its longest text is the prefix and ``reserve`` characters)."""
    longest = [grad["prefix"] + "x" * grad["reserve"] for grad in grads]
    widest = max(map(text_width, [*lines, *longest]))
    return round(widest + 16), 8 + LINE_H * (len(lines) + len(grads))


def grad_lines(shown, uses):
    """The gradient lines of a box showing the tensors ``shown`` (a folded group's outputs,
    else one tensor): ``grad: `` for one, ``grad h1: `` for each of a few, none for many
    (a loop's 24 logits: unfold it to see them, or click). The browser
    clips a gradient to ``chars`` characters; ``reserve`` leaves room after them for the
    running count of a tensor with several ``uses`` ("(2/3)").

    Examples
    --------
    >>> grad_lines([{"id": "n4", "label": "h", "shape": []}], {"n4": 2})
    [{'node': 'n4', 'prefix': 'grad: ', 'chars': 10, 'reserve': 16}]
    >>> [g["prefix"] for g in grad_lines([{"id": "n1", "label": "h1", "shape": [1, 4]},
    ...                                   {"id": "n2", "label": "logits", "shape": [1, 3]}], {})]
    ['grad h1: ', 'grad logits: ']
    """
    lines = []
    for node in shown if len(shown) <= GRAD_LINES else ():
        prefix = "grad: " if len(shown) == 1 else f"grad {node['label']}: "
        count = uses.get(node["id"], 0)
        chars = grad_reserve(node)  # the browser clips gradients to it
        running = len(f" ({count}/{count})") if count > 1 else 0
        lines.append(
            {"node": node["id"], "prefix": prefix, "chars": chars, "reserve": chars + running}
        )
    return lines


def leaf_lines(node):
    """A leaf: its name, shape and dtype, and its value.

    Examples
    --------
    >>> leaf_lines({"label": "x", "shape": [2], "dtype": "float32", "device": "/cpu:0",
    ...             "value": "[1. 2.]"})
    ['x', '(2,) float32', '[1. 2.]']
    >>> leaf_lines({"label": "w", "shape": [], "dtype": "float32", "device": "/cpu:0",
    ...             "value": "2.0"})
    ['w', '() float32  2.0']
    """
    return [_short(node["label"]), *_meta(node)]


def value_lines(op, output, inputs):
    """A record: ``name = op(inputs)``, then the output's shape, dtype and value.

    Examples
    --------
    >>> value_lines({"label": "multiply"}, {"label": "h", "shape": [], "dtype": "float32",
    ...             "device": "/cpu:0", "value": "6.0"}, ["x", "w"])
    ['h = multiply(x, w)', '() float32  6.0']
    """
    return [_short(f"{output['label']} = {op['label']}({', '.join(inputs)})"), *_meta(output)]


def group_lines(group, outputs, hidden):
    """A folded group: its label (▸ to unfold), how many records, what it hands on.

    Examples
    --------
    >>> group_lines({"kind": "layer", "label": "dense (Dense)", "records": [0, 1, 2]},
    ...             [{"label": "t2", "shape": [4, 8], "value": "[[..."}], ["kernel", "bias"])
    ['▸ dense (Dense)', '3 records, kernel, bias → t2 (4, 8)']
    """
    title = group["label"]
    if group.get("index") is not None and group["kind"] != "iteration":
        title = f"#{group['index']} {title}"
    count = len(group["records"])
    summary = f"{count} record" + ("s" if count != 1 else "")
    if hidden:
        summary += ", " + ", ".join(hidden)
    if len(outputs) == 1:
        shown = outputs[0]
        summary += f" → {shown['label']} {_shape(shown['shape'])}"
        summary += f"  {shown['value']}" if not shown["shape"] else ""
    elif outputs:
        summary += " → " + ", ".join(o["label"] for o in outputs)
    return [_short("▸ " + title), _short(summary)]


def grad_reserve(node):
    """How many characters the gradient of ``node`` may take in its box."""
    return SCALAR_CHARS if not node["shape"] else ARRAY_CHARS


def grad_text(node, prefix="grad: "):
    """The gradient line of a tensor after ``gradient()``, or None when it has none."""
    if "grad" in node:
        return prefix + clip(node["grad"], grad_reserve(node))
    if "none" in node:
        return prefix + "None"
    return None


def clip(text, chars):
    """``text`` cut to ``chars`` characters, the last one "…" when it was longer."""
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _meta(node):
    device = "" if node["device"] == "/cpu:0" else " " + node["device"]
    meta = f"{_shape(node['shape'])} {node['dtype']}{device}"
    if not node["shape"]:
        return [f"{meta}  {node['value']}"]  # a scalar's value fits on the same line
    return [meta, clip(node["value"], ARRAY_CHARS)]


def _shape(shape):
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _short(text):
    return clip(text, TITLE_CHARS)
