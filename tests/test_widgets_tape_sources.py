"""What a TapeView knows about each record beyond the op: the user's line that made it,
the layer it ran in (folding), the first NaN or Inf, and nested tapes watched early."""

import numpy as np
import pytest
from eagerkit.widgets import TapeView
from tape_corpus import CORPUS

import eagerkit as ek


def by_label(view):
    return {n["label"]: n for n in view.graph["nodes"] if n["type"] == "tensor"}


def test_every_record_knows_the_users_line():
    x, names = ek.constant(2.0), {}
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names=names)  # a dict filled later is read when drawing
        tape.watch(x)
        y = x * x  # the line the view must name
    names.update(x=x, y=y)
    view.refresh()
    op = next(n for n in view.graph["nodes"] if n["type"] == "op")
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
    assert tape.listeners == []  # recording alone captures no lines


def test_a_notebook_cell_is_named_as_ipython_names_it():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.user_ns.update(ek=ek, TapeView=TapeView)
    shell.run_cell("a = ek.constant(3.0)", store_history=True)
    result = shell.run_cell(
        "with ek.GradientTape() as tape:\n"
        "    view = TapeView(tape, names=locals())\n"
        "    tape.watch(a)\n"
        "    b = a * 2.0\n",
        store_history=True,
    )
    assert result.success
    nodes = shell.user_ns["view"].refresh().graph["nodes"]
    origin = next(n for n in nodes if n["type"] == "op")["origin"]
    count = shell.execution_count - 1
    assert origin["where"] == f"cell In [{count}], line 4" and origin["code"] == "b = a * 2.0"


def test_layers_fold_into_one_box_each_and_unfold_one_at_a_time():
    view = CORPUS["cnn_step"]()
    groups = view.graph["groups"]
    # Layer names count up per process (dense, dense_1, ...): compare the classes.
    assert [g["label"].rsplit(" ", 1)[1] for g in groups] == [
        "(Conv2D)",
        "(MaxPooling2D)",
        "(Flatten)",
        "(Dense)",
        "(Dense)",
    ]
    drawing = view.drawing
    folded_boxes = [b for b in drawing["boxes"] if b["type"] == "group"]
    assert [b["lines"][0] for b in folded_boxes] == [f"▸ {g['label']}" for g in groups]
    assert folded_boxes[0]["lines"][1] == "5 records: kernel, bias"
    assert len(drawing["boxes"]) == 12  # a CNN step folded: a screen, not three
    assert drawing["height"] < 820
    conv = drawing["unfolded"]["g0"]
    kinds = [b["type"] for b in conv["boxes"]]
    assert kinds.count("group") == 4 and kinds.count("op") >= 5
    assert conv["folded"] == ["g1", "g2", "g3", "g4"]
    # Every record of the conv layer is in its group, in order, reads of variables too.
    conv_steps = [s["record"] for s in view.graph["forward"] if s["group"] == "g0"]
    assert conv_steps == groups[0]["records"] == [0, 1, 2, 3, 4]
    # A hidden node is drawn as its layer's box: stepping still finds it.
    kernel = next(n["id"] for n in view.graph["nodes"] if n["label"].endswith("/kernel"))
    assert drawing["alias"][kernel] == "g0" and kernel not in conv["alias"]


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
    drawing = view.drawing
    into = next(e for e in drawing["edges"] if e["to"] == "g0")
    assert len(into["ids"]) == 3
    label = next(lab for lab in drawing["labels"] if lab["edge"] == into["id"])
    assert label["text"] == "7.0"  # 3 + 3 + 1: d(x*x + x)/dx at 3
    op = next(n for n in view.graph["nodes"] if n["type"] == "op")
    assert (
        op["origin"]["code"]
        == "return inputs * inputs + inputs  # inputs used three times inside the layer"
    )


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
    depths = [n["depth"] for n in view.graph["nodes"] if n["type"] == "op"]
    assert depths[:2] == [2, 2] and set(depths[2:]) == {1}
    assert by_label(view)["x"]["grad"] == "12.0"
    assert "dy_dx" not in by_label(view)  # locals() of a function is a snapshot; fine
    boxes = [b for b in view.drawing["boxes"] if b["type"] == "op"]
    assert [b["depth"] for b in boxes[:2]] == [2, 2]


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


@pytest.mark.parametrize("name", ["mlp_step", "cnn_step"])
def test_the_png_draws_the_folded_drawing(name):
    png = CORPUS[name]()._repr_mimebundle_()[0]["image/png"]
    assert len(png) > 1000


def test_records_made_in_a_name_scope_fold_together():
    x = ek.constant(2.0)
    with ek.GradientTape() as tape:
        view = TapeView(tape)
        tape.watch(x)
        with ek.name_scope("encoder"):
            h = ek.tanh(x * 3.0) + 1.0
        y = h * h
    tape.gradient(y, x)
    assert [(g["label"], g["records"]) for g in view.graph["groups"]] == [
        ("encoder (name scope)", [0, 1, 2])
    ]
    box = next(b for b in view.drawing["boxes"] if b["type"] == "group")
    assert box["lines"] == ["▸ encoder (name scope)", "3 records"]
    assert [s["group"] for s in view.graph["forward"]] == ["g0", "g0", "g0", None]
