"""What a TapeView knows about each record beyond the op: the user's line that made it (in
a file, a notebook cell, a ``%%tape`` cell, a layer, every lesson), the structure it folds
(layers, name scopes, loops), the first NaN or Inf, and nested tapes watched early."""

import base64
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest
from drawing_checks import drawing_problems, every_state, opening
from eagerkit.widgets import TapeView
from eagerkit.widgets.common import origins
from eagerkit.widgets.tape_view.drawing import FIT_H, FIT_W
from tape_corpus import CORPUS

import eagerkit as ek

LESSONS = sorted((Path(__file__).parents[1] / "notebooks").glob("[0-9]*.ipynb"))
MAKES_A_VIEW = re.compile(r"TapeView\(|TapeView\.record\(|^%%tape", re.MULTILINE)


def by_label(view):
    return {n["label"]: n for n in view.graph["nodes"] if n["type"] == "tensor"}


def ops(view):
    return [n for n in view.graph["nodes"] if n["type"] == "op"]


@pytest.fixture
def shell():
    """IPython's shell, with a clean namespace, tracking new tapes as a notebook that
    imported eagerkit.widgets does."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.reset(new_session=False)
    shell.user_ns.update(ek=ek, TapeView=TapeView)
    origins.track_new_tapes()
    yield shell
    origins.stop_tracking_new_tapes()


def test_every_record_knows_the_users_line():
    x, names = ek.constant(2.0), {}
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names=names)  # a dict filled later is read when drawing
        tape.watch(x)
        y = x * x  # the line the view must name
    names.update(x=x, y=y)
    view.refresh()
    (op,) = ops(view)
    assert op["origin"]["file"] == __file__
    assert op["origin"]["code"] == "y = x * x  # the line the view must name"
    assert op["origin"]["where"] == f"test_widgets_tape_sources.py, line {op['origin']['line']}"
    assert by_label(view)["y"]["origin"] == op["origin"]  # the output, made on that line
    assert op["saved"] == "kept for the VJP: inputs x; output y"


def test_no_listener_no_cost():
    x = ek.constant(2.0)
    with ek.GradientTape() as tape:
        tape.watch(x)
        x * x
    assert tape.listeners == []  # outside a notebook, recording alone captures no lines


def test_a_notebook_cell_is_named_as_ipython_names_it(shell):
    shell.run_cell("a = ek.constant(3.0)", store_history=True)
    result = shell.run_cell(
        "with ek.GradientTape() as tape:\n"
        "    view = TapeView(tape, names=locals())\n"
        "    tape.watch(a)\n"
        "    b = a * 2.0\n",
        store_history=True,
    )
    assert result.success
    (op,) = ops(shell.user_ns["view"].refresh())
    count = shell.execution_count - 1
    assert op["origin"]["where"] == f"cell In [{count}], line 4"
    assert op["origin"]["code"] == "b = a * 2.0"


def test_a_view_made_after_the_with_block_in_a_notebook_knows_the_lines(shell):
    result = shell.run_cell(
        "x = ek.constant(3.0)\n"
        "with ek.GradientTape() as tape:\n"
        "    tape.watch(x)\n"
        "    y = x * x\n"
        "    z = ek.sin(y) + x\n"
        "view = TapeView(tape, names=locals())\n",
        store_history=True,
    )
    assert result.success
    count = shell.execution_count - 1
    where = [(op["origin"]["where"], op["origin"]["code"]) for op in ops(shell.user_ns["view"])]
    assert where == [
        (f"cell In [{count}], line 4", "y = x * x"),
        (f"cell In [{count}], line 5", "z = ek.sin(y) + x"),
        (f"cell In [{count}], line 5", "z = ek.sin(y) + x"),
    ]


def test_a_with_block_in_a_loop_is_tracked_only_at_first(shell):
    result = shell.run_cell(
        "w = ek.Variable(1.0)\n"
        "tapes = []\n"
        "for step in range(5):\n"
        "    with ek.GradientTape() as tape:\n"
        "        loss = w * w\n"
        "    tapes.append(tape)\n"
    )
    assert result.success
    tracked = [bool(t.listeners) for t in shell.user_ns["tapes"]]
    assert tracked == [True] * origins.LOOP_TAPES + [False] * (5 - origins.LOOP_TAPES)


def test_the_tape_cell_magic_knows_its_cells_lines(shell):
    shell.run_line_magic("load_ext", "eagerkit.widgets")
    try:
        result = shell.run_cell(
            "%%tape z\na = ek.constant(2.0)\ntape.watch(a)\nz = a * a * a\n", store_history=True
        )
    finally:
        shell.run_line_magic("unload_ext", "eagerkit.widgets")
    view = result.result  # what the cell showed
    count = shell.execution_count - 1
    assert {(op["origin"]["where"], op["origin"]["code"]) for op in ops(view)} == {
        (f"cell In [{count}], line 4", "z = a * a * a")  # line 1 is the %%tape line
    }
    assert not origins.recording.tape_opened  # unloading stops the tracking it started


def test_layers_fold_into_one_box_each_and_unfold_one_at_a_time():
    view = CORPUS["cnn_step"]()
    groups = view.graph["groups"]
    # The model's name counts up per process (sequential_3): compare the classes. A layer
    # of one op (pooling, flattening) folds nothing: its op is its box.
    layers = [g for g in groups if g["kind"] == "layer"]
    assert [g["label"].rsplit(" ", 1)[1] for g in layers] == [
        "(Sequential)",
        "(Conv2D)",
        "(Dense)",
        "(Dense)",
    ]
    model, conv = layers[0], layers[1]
    assert [g["parent"] for g in layers] == [None, model["id"], model["id"], model["id"]]
    unfolded = view.drawing["states"][model["id"]]  # the model unfolded, its layers folded
    kinds = [(b["type"], b["lines"][0]) for b in unfolded["boxes"]]
    assert [k for k in kinds if k[0] != "leaf"] == [
        ("group", f"▸ {conv['label']}"),
        ("value", "t3 = max_pool(t2)"),
        ("value", "t4 = reshape(t3)"),
        ("group", f"▸ {layers[2]['label']}"),
        ("group", f"▸ {layers[3]['label']}"),
        ("group", "▸ loss = ek.losses.sparse_softmax_cross_ent…"),
    ]
    assert unfolded["boxes"][0]["lines"][1] == "5 records, kernel, bias → t2 (2, 6, 6, 4)"
    inside = view.drawing["states"][f"{model['id']},{conv['id']}"]
    name = conv["label"].split(" ")[0]  # layers[0]: a Sequential's layers by their place
    assert [b["lines"][0] for b in inside["boxes"] if b["type"] == "value"][:3] == [
        f"t0 = conv2d(images, {name}/kernel)",
        f"t1 = bias_add(t0, {name}/bias)",
        "t2 = relu(t1)",
    ]
    # Every record of the conv layer is in its group, in order, reads of variables too.
    assert [s["record"] for s in view.graph["forward"] if s["group"] == conv["id"]] == [
        0,
        1,
        2,
        3,
        4,
    ]
    # A hidden node is drawn as its layer's box: stepping still finds it.
    kernel = next(n["id"] for n in view.graph["nodes"] if n["label"].endswith("/kernel"))
    assert unfolded["alias"][kernel] == conv["id"] and inside["alias"][kernel] == kernel


def test_layers_and_their_variables_are_named_as_the_model_holds_them():
    class Block(ek.Model):
        def __init__(self):
            super().__init__()
            self.hidden = ek.layers.Dense(3, activation="relu")
            self.stack = [ek.layers.Dense(2), ek.layers.Dense(2, name="out")]

        def call(self, x):
            return self.stack[1](self.stack[0](self.hidden(x)))

    model, x = Block(), ek.ones([1, 4])
    model(x)
    with ek.GradientTape() as tape:
        view = TapeView(tape, names={"model": model, "x": x})
        loss = ek.reduce_sum(model(x))
    tape.gradient(loss, model.trainable_variables)
    # The attribute that holds a layer names it (as GradientFlow does), not dense_7; a
    # layer called from the user's own code keeps its own name.
    labels = [g["label"] for g in view.graph["groups"] if g["kind"] == "layer"]
    assert labels == [
        f"{model.name} (Block)",
        "hidden (Dense)",
        "stack[0] (Dense)",
        "stack[1] (Dense)",
    ]
    variables = [n["label"] for n in view.graph["nodes"] if n.get("kind") == "variable"]
    assert variables == [
        "hidden/kernel",
        "hidden/bias",
        "stack[0]/kernel",
        "stack[0]/bias",
        "stack[1]/kernel",
        "stack[1]/bias",
    ]


def test_an_edge_into_a_folded_layer_carries_the_sum_of_its_gradients():
    class SquarePlus(ek.layers.Layer):
        def call(self, inputs):
            return inputs * inputs + inputs  # inputs used three times inside the layer

    x = ek.constant(3.0)
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names=locals())
        tape.watch(x)
        y = SquarePlus()(x)
    tape.gradient(y, x)
    folded = view.drawing["states"][""]
    into = next(e for e in folded["edges"] if e["to"] == "g0")
    assert len(into["ids"]) == 3
    label = next(lab for lab in folded["labels"] if lab["edge"] == into["id"])
    assert label["text"] == "7.0"  # 3 + 3 + 1: d(x*x + x)/dx at 3
    assert ops(view)[0]["origin"]["code"] == (
        "return inputs * inputs + inputs  # inputs used three times inside the layer"
    )


def test_records_made_in_a_name_scope_fold_together():
    x, names = ek.constant(2.0), {}
    with ek.GradientTape() as tape:
        view = TapeView(tape, names=names)
        tape.watch(x)
        with ek.name_scope("encoder"):
            h = ek.tanh(x * 3.0) + 1.0
        y = h * h
    names.update(h=h)
    tape.gradient(y, x)
    assert [(g["label"], g["records"]) for g in view.graph["groups"]] == [
        ("encoder (name scope)", [0, 1, 2])
    ]
    box = next(b for b in view.drawing["states"][""]["boxes"] if b["type"] == "group")
    made = by_label(view)["h"]  # tanh(6) + 1, in float32: 2.0
    assert box["lines"] == ["▸ encoder (name scope)", f"3 records → h ()  {made['value']}"]
    assert [s["group"] for s in view.graph["forward"]] == ["g0", "g0", "g0", None]


def test_a_loop_of_several_lines_folds_into_iterations():
    w = ek.Variable(0.5, name="w")
    h = ek.constant(1.0)
    with ek.GradientTape() as tape:
        view = TapeView(tape)
        for _ in range(4):
            a = h * w
            h = ek.tanh(a) + h
    tape.gradient(h, w)
    (series,) = [g for g in view.graph["groups"] if g["kind"] == "series"]
    assert (series["label"], series["count"]) == ("a = h * w … ×4", 4)
    turns = [g for g in view.graph["groups"] if g["parent"] == series["id"]]
    assert [(g["kind"], g["label"], g["index"]) for g in turns] == [
        ("iteration", f"iteration {k} of 4", k) for k in range(1, 5)
    ]
    assert [len(g["records"]) for g in turns] == [4, 3, 3, 3]  # w is read once, at first


def test_the_first_nan_of_the_forward_pass_is_named_with_its_line():
    x, names = ek.constant([1.0, -1.0]), {}
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names=names)
        tape.watch(x)
        h = x * 2.0
        r = ek.sqrt(h)  # sqrt(-2) is the first NaN
        y = ek.reduce_sum(r * r)
    names.update(x=x, h=h, r=r, y=y)
    tape.gradient(y, x)
    bad = view.graph["nonfinite"]
    assert (bad["phase"], bad["record"], bad["node"]) == ("forward", 1, by_label(view)["r"]["id"])
    assert bad["text"] == (
        "first NaN/Inf of the forward pass: record 2, r = sqrt(h), made at "
        f"test_widgets_tape_sources.py, line {by_label(view)['r']['origin']['line']}: "
        "r = ek.sqrt(h)  # sqrt(-2) is the first NaN"
    )


def test_the_first_nonfinite_gradient_is_named_too():
    x = ek.constant([0.0, 4.0])
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names=locals())
        tape.watch(x)
        r = ek.sqrt(x)  # finite forward; d sqrt/dx at 0 is Inf
        y = ek.reduce_sum(r)
    tape.gradient(y, x)
    bad = view.graph["nonfinite"]
    assert (bad["phase"], bad["record"]) == ("backward", 0)
    assert bad["text"].startswith(
        "first NaN/Inf gradient of the reverse sweep: the VJP of sqrt (record 1), made at"
    )
    assert np.isinf(tape.gradient(y, x).numpy()[0])


def test_a_view_made_before_the_inner_tape_colours_nested_ops():
    view = CORPUS["nested_tapes"]()
    depths = [n["depth"] for n in ops(view)]
    assert depths[:2] == [2, 2] and set(depths[2:]) == {1}
    assert by_label(view)["x"]["grad"] == "12.0"
    assert "dy_dx" not in by_label(view)  # locals() of a function is a snapshot; fine
    states = view.drawing["states"].values()
    drawn = {b.get("op"): b.get("depth") for s in states for b in s["boxes"]}
    assert [drawn.get(op["id"], 2) for op in ops(view)[:2]] == [2, 2]


def test_a_view_shows_records_made_after_it_when_displayed():
    x = ek.constant(1.0)
    tape = ek.GradientTape(persistent=True)
    view = TapeView(tape)
    with tape:
        tape.watch(x)
        y = ek.exp(x)
    assert view.graph["forward"] == []  # nothing published yet ...
    view._repr_mimebundle_()
    assert [s["text"] for s in view.graph["forward"]] == ["t1 = exp(t0)"]  # ... until shown
    assert y is not None


@pytest.mark.parametrize("name", ["mlp_step", "char_rnn_window", "hand_unrolled_rnn"])
def test_the_png_draws_the_state_the_view_opens_on(name):
    from PIL import Image

    view = CORPUS[name]()
    png = base64.b64decode(view._repr_mimebundle_()[0]["image/png"])
    state = opening(view)
    assert Image.open(io.BytesIO(png)).size == (round(state["width"]), round(state["height"]))


# --- every lesson's views ------------------------------------------------------------------


def lessons_with_views():
    """Each lesson that makes a TapeView, with its code cells up to the last that does."""
    for path in LESSONS:
        cells = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
        makers = [i for i, c in enumerate(cells) if MAKES_A_VIEW.search("".join(c["source"]))]
        if makers:
            yield pytest.param(cells[: makers[-1] + 1], id=path.stem)


@pytest.mark.parametrize("cells", list(lessons_with_views()))
def test_every_lessons_views_know_their_cells_and_open_readable(cells, shell, monkeypatch):
    made = []
    original = TapeView.__init__

    def noting(self, *args, **kwargs):
        original(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(TapeView, "__init__", noting)
    monkeypatch.chdir(Path(__file__).parents[1] / "notebooks")
    for cell in cells:
        result = shell.run_cell("".join(cell["source"]), store_history=True)
        assert result.success, "".join(cell["source"])
    assert made
    for view in made:
        view.refresh()
        for op in ops(view):
            assert op["origin"]["where"].startswith("cell In ["), op
            assert op["origin"]["code"], op
        state = opening(view)
        assert state["width"] <= FIT_W and state["height"] <= FIT_H
        for key, state in every_state(view):
            assert drawing_problems(state) == [], key
