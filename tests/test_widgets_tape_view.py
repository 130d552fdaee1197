"""TapeView's data model against hand-built tapes: names, kinds, steps, fan-out, nesting,
and the reason behind every ``None`` gradient."""

import base64
import warnings

import numpy as np
import pytest
from eagerkit.widgets import TapeView
from eagerkit.widgets.common.drawing import text_width
from tape_corpus import CORPUS

import eagerkit as ek


def nodes_by_label(view):
    return {n["label"]: n for n in view.graph["nodes"] if n["type"] == "tensor"}


def none_codes(view):
    return {n["label"]: n["none"]["code"] for n in view.graph["nodes"] if "none" in n}


@pytest.fixture
def fan_out():
    """y = (x * w)^2 + x: x is used twice (fan-out), w is a variable."""
    x = ek.constant(3.0)
    w = ek.Variable(2.0, name="w")
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        h = x * w
        y = h * h + x
    view = TapeView(tape, names={"x": x, "w": w, "h": h, "y": y, "_": x})
    tape.gradient(y, [x, w])
    return view


def test_nodes_carry_kind_shape_dtype_device_and_value(fan_out):
    nodes = nodes_by_label(fan_out)
    assert {name: n["kind"] for name, n in nodes.items()} == {
        "w": "variable",
        "x": "watched",
        "h": "intermediate",
        "t0": "intermediate",
        "y": "intermediate",
    }
    assert (nodes["h"]["shape"], nodes["h"]["dtype"], nodes["h"]["device"]) == (
        [],
        "float32",
        "/cpu:0",
    )
    assert nodes["h"]["value"] == "6.0" and nodes["y"]["value"] == "39.0"
    assert nodes["y"]["target"] is True


def test_forward_steps_follow_the_records(fan_out):
    texts = [step["text"] for step in fan_out.graph["forward"]]
    assert texts == [
        "read variable w (its value is snapshotted for the backward pass)",
        "h = multiply(x, w)",
        "t0 = multiply(h, h)",
        "y = add(t0, x)",
    ]


def test_backward_steps_show_g_vjps_and_fan_out_totals(fan_out):
    steps = fan_out.graph["backward"]
    assert [s["record"] for s in steps] == [3, 2, 1, 0]  # the reverse sweep's order
    add, square, product, read = steps
    assert add["g"] == "1.0"
    assert [(g["name"], g["value"], g["count"]) for g in add["grads"]] == [
        ("t0", "1.0", 1),
        ("x", "1.0", 1),
    ]
    # h * h: both inputs are h, so its two contributions add up to 2 * h = 12.
    assert [(g["name"], g["value"], g["count"], g["total"]) for g in square["grads"]] == [
        ("h", "6.0", 1, "6.0"),
        ("h", "6.0", 2, "12.0"),
    ]
    assert product["g"] == "12.0"
    assert [(g["name"], g["total"]) for g in product["grads"]] == [("x", "25.0"), ("w", "36.0")]
    assert read["op"] is None and read["grads"][0]["node"] == nodes_by_label(fan_out)["w"]["id"]
    nodes = nodes_by_label(fan_out)
    assert (nodes["x"]["grad"], nodes["w"]["grad"]) == ("25.0", "36.0")


def test_edges_connect_inputs_ops_and_outputs(fan_out):
    graph = fan_out.graph
    ids = {n["id"]: n["label"] for n in graph["nodes"]}
    edges = [(ids[e["from"]], ids[e["to"]], e["lane"]) for e in graph["edges"]]
    assert edges == [
        ("x", "multiply", 0),
        ("w", "multiply", 0),
        ("multiply", "h", 0),
        ("h", "multiply", 0),
        ("h", "multiply", 1),
        ("multiply", "t0", 0),
        ("t0", "add", 0),
        ("x", "add", 0),
        ("add", "y", 0),
    ]


def test_view_before_gradient_is_in_the_forward_phase():
    x = ek.constant(1.0)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = ek.exp(x)
    view = TapeView(tape)
    assert view.graph["phase"] == "forward" and view.graph["backward"] == []
    tape.gradient(y, x)
    assert view.graph["phase"] == "backward"
    assert [n["label"] for n in view.graph["nodes"]] == ["t0", "exp", "t1"]


def test_nested_tapes_colour_the_inner_backward_pass():
    def first_derivative(x):
        with ek.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        return inner.gradient(y, x)

    view = TapeView.record(first_derivative, 2.0)
    ops = [n for n in view.graph["nodes"] if n["type"] == "op"]
    # The inner forward pass (2 multiplies) was recorded by both tapes; the VJPs by one.
    assert [n["depth"] for n in ops[:2]] == [2, 2]
    assert all(n["depth"] == 1 for n in ops[2:]) and len(ops) > 2
    assert nodes_by_label(view)["x"]["grad"] == "12.0"  # d2/dx2 x^3 = 6x
    assert nodes_by_label(view)["first_derivative"]["value"] == "12.0"  # 3x^2


def test_record_names_arguments_after_the_parameters():
    view = TapeView.record(lambda a, b: a * b, 2.0, 5.0)
    nodes = nodes_by_label(view)
    assert (nodes["a"]["grad"], nodes["b"]["grad"], nodes["out"]["value"]) == ("5.0", "2.0", "10.0")


def test_every_reason_for_a_none_gradient():
    x, c, unused = ek.constant(2.0), ek.constant(1.0), ek.constant(4.0)
    k, frozen = ek.constant(3), ek.Variable(1.0, trainable=False)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch([x, unused])
        y = x * c + frozen
    view = TapeView(tape, names=locals())
    tape.gradient(y, [x, c, k, frozen, unused])
    assert none_codes(view) == {
        "c": "not_watched",
        "k": "integer",
        "frozen": "not_trainable",
        "unused": "branch",
    }
    texts = {n["label"]: n["none"]["text"] for n in view.graph["nodes"] if "none" in n}
    assert "call tape.watch(c)" in texts["c"]
    assert texts["k"].startswith("k is int32: gradients flow only through floating-point")
    assert "a branch that did not run" in texts["unused"]


def test_reason_stop_recording():
    a, b = ek.constant(2.0), ek.constant(5.0)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        with tape.stop_recording():
            c = b * 3.0
        z = a * a + c
    view = TapeView(tape, names=locals())
    tape.gradient(z, [a, b])
    assert none_codes(view) == {"b": "stop_recording"}
    assert tape.paused_at == [0]


@pytest.mark.parametrize(
    "escape",
    [lambda h: h.numpy(), np.asarray],  # a copy of h's values (as TF's numpy()), h's memory
    ids=["numpy()", "np.asarray"],
)
def test_reason_numpy_escape(escape):
    x = ek.constant([1.0, 2.0])
    w = ek.Variable([3.0, 4.0], name="w")
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        h = x * 2.0
        y = ek.reduce_sum(ek.constant(escape(h)) * w)  # h's values re-enter as a constant
    view = TapeView(tape, names=locals())
    tape.gradient(y, [x, w])
    assert none_codes(view) == {"x": "numpy"}
    assert "h left the tape through numpy" in nodes_by_label(view)["x"]["none"]["text"]


@pytest.mark.parametrize(
    "changed",
    [lambda h: np.exp(h.numpy()), lambda h: h.numpy().astype(np.float64)],
    ids=["np.exp", "float64"],
)
def test_a_value_numpy_changed_is_not_taken_for_an_escape(changed):
    """Values changed on the way (or another dtype) leave no trace: no guess."""
    x = ek.constant([1.0, 2.0])
    w = ek.Variable([3.0, 4.0], name="w", dtype=ek.float64)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        h = x * 2.0
        y = ek.reduce_sum(ek.cast(ek.constant(changed(h)), ek.float64) * w)
    view = TapeView(tape, names=locals())
    tape.gradient(y, [x, w])
    assert none_codes(view) == {"x": "not_connected"}


def test_reason_integer_path():
    x = ek.constant(2.5)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        i = ek.cast(x, ek.int32)
        y = ek.cast(i, ek.float32) * 2.0
    view = TapeView(tape, names=locals())
    tape.gradient(y, x)
    assert nodes_by_label(view)["x"]["none"] == {
        "code": "integer_path",
        "text": "the path from x to y goes through i (int32, made by cast): gradients stop "
        "at integer tensors",
    }


def test_reason_target_made_outside_the_tape_is_not_guessed():
    x = ek.constant(2.0)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        h = x * 3.0
    y = h * 2.0
    view = TapeView(tape, names=locals())
    tape.gradient(y, x)
    assert none_codes(view) == {"x": "not_connected"}
    assert nodes_by_label(view)["x"]["none"]["text"].startswith(
        "y was not made by an op this tape recorded"
    )


def test_a_spent_tape_is_refused_with_the_fix():
    x = ek.constant(1.0)
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(ValueError, match="Make the TapeView before calling tape.gradient"):
        TapeView(tape)
    with pytest.raises(TypeError, match="expected an ek.GradientTape, got Tensor"):
        TapeView(x)


def test_repr_and_png_are_in_the_bundle_and_stable(fan_out):
    data, _ = fan_out._repr_mimebundle_()
    assert data["text/plain"] == "TapeView(records=4, phase='backward')"
    assert "application/vnd.jupyter.widget-view+json" in data
    png = base64.b64decode(data["image/png"])
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert fan_out._repr_mimebundle_()[0]["image/png"] == data["image/png"]


def test_tape_cell_magic():
    from IPython.core.error import UsageError
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "eagerkit.widgets")
    shell.user_ns["ek"] = ek
    view = shell.run_cell_magic("tape", "z", "a = ek.constant(2.0)\ntape.watch(a)\nz = a * a * a\n")
    assert isinstance(view, TapeView) and isinstance(shell.user_ns["tape"], ek.GradientTape)
    assert nodes_by_label(view)["a"]["grad"] == "12.0"
    with pytest.raises(UsageError, match="the tape watched nothing"):
        shell.run_cell_magic("tape", "q", "q = ek.constant(1.0) * 2.0\n")
    with pytest.raises(UsageError, match="the cell did not define 'missing'"):
        shell.run_cell_magic("tape", "missing", "b = 1\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no target: forward only, and nothing to warn about
        forward = shell.run_cell_magic(
            "tape", "", "b = ek.constant(1.0)\ntape.watch(b)\nc = b + b\n"
        )
    assert forward.graph["phase"] == "forward"
    shell.run_line_magic("unload_ext", "eagerkit.widgets")
    assert "tape" not in shell.magics_manager.magics["cell"]


def test_previews_are_short_and_on_one_line():
    x = ek.constant(np.arange(12.0).reshape(3, 4))
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = ek.reduce_sum(x * x)
    view = TapeView(tape, names={"x": x})
    assert nodes_by_label(view)["x"]["value"] == "[[ 0. 1. 2. 3.] [ 4. 5. 6. …"  # 28 chars
    tape.gradient(y, x)
    assert nodes_by_label(view)["x"]["grad"].startswith("[[ 0. 2. 4. 6.]")


def test_highlight_marks_one_record_with_a_note(fan_out):
    x = ek.constant(3.0)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        t = x * x
        y = t + x
    view = TapeView(tape, names={"x": x, "y": y}, highlight=0, note="d(x*x)/dx is 2x, not x")
    assert view.graph["highlight"] == {
        "record": 0,
        "node": "op0",
        "text": "t0 = multiply(x, x)",
        "note": "d(x*x)/dx is 2x, not x",
    }
    plain = base64.b64decode(TapeView(tape)._repr_mimebundle_()[0]["image/png"])
    marked = base64.b64decode(view._repr_mimebundle_()[0]["image/png"])
    assert marked != plain  # the ring and the note are drawn
    assert view.set_highlight(y, "the add").graph["highlight"]["node"] == "op1"
    assert view.set_highlight(-1).graph["highlight"]["record"] == 1
    assert view.set_highlight(None).graph["highlight"] is None
    with pytest.raises(IndexError, match="record 5 does not exist; this tape has 2 records"):
        view.set_highlight(5)
    with pytest.raises(ValueError, match="that tensor was not made by a record of this tape"):
        view.set_highlight(x)
    with pytest.raises(TypeError, match="expected a record index .int. or a Tensor, got str"):
        view.set_highlight("add")
    # A read of a variable has no op box: the variable itself is marked.
    reads = fan_out.set_highlight(0, "w is read here")
    assert reads.graph["highlight"]["node"] == nodes_by_label(fan_out)["w"]["id"]


def test_every_tensor_the_sweep_reached_shows_its_gradient(fan_out):
    nodes = nodes_by_label(fan_out)
    assert {name: nodes[name].get("grad") for name in nodes} == {
        "w": "36.0",
        "x": "25.0",
        "h": "12.0",  # d(h*h + x)/dh = 2h
        "t0": "1.0",
        "y": "1.0",  # the target: the gradient the sweep starts with
    }


def test_a_weight_used_at_every_step_adds_up_use_by_use():
    view = CORPUS["hand_unrolled_rnn"]()
    w_h = next(n for n in view.graph["nodes"] if n["label"] == "w_h")
    grads = [g for s in view.graph["backward"] for g in s["grads"] if g["node"] == w_h["id"]]
    sent = [g for g in grads if g["edge"]]  # the last one: reading w_h hands the sum on
    assert [g["count"] for g in sent] == list(range(1, 21))  # one contribution per step
    totals = [float(g["total"]) for g in sent]
    values = [float(g["value"]) for g in sent]
    assert totals[-1] == pytest.approx(float(w_h["grad"]), rel=1e-3)
    assert (grads[-1]["edge"], grads[-1]["count"], grads[-1]["total"]) == (
        None,
        20,
        sent[-1]["total"],
    )
    assert totals == pytest.approx(list(np.cumsum(values)), rel=1e-3, abs=1e-6)
    # The box of w_h is sized for its gradient and the running count "(20/20)".
    box = next(b for b in view.drawing["states"][""]["boxes"] if b["id"] == w_h["id"])
    assert box["grads"] == [{"node": w_h["id"], "prefix": "grad: ", "chars": 10, "reserve": 18}]
    assert box["w"] >= round(text_width("grad: 0.09299 (20/20)"))


def test_the_browser_can_ask_the_kernel_for_a_folding_it_was_not_sent():
    view = CORPUS["hand_unrolled_rnn"]()
    series = next(g for g in view.graph["groups"] if g["kind"] == "series")
    fifth = next(g for g in view.graph["groups"] if g.get("index") == 5)
    key = f"{series['id']},{fifth['id']}"
    assert key not in view.drawing["states"]  # the middle iterations are not prepared
    view._on_browser_message(view, {"type": "unfold", "groups": [series["id"], fifth["id"]]}, [])
    state = view.drawing["states"][key]
    assert [b["id"] for b in state["boxes"] if b["type"] == "value"][:3] == [
        f"op{r}" for r in fifth["records"][:3]
    ]
    assert all(lab["text"] for lab in state["labels"])  # labelled like the others
    before = dict(view.drawing)
    view._on_browser_message(view, {"type": "unfold", "groups": ["g999"]}, [])
    view._on_browser_message(view, "not a dict", [])
    assert view.drawing == before  # unknown groups and stray messages change nothing


def dark_pixels(png):
    """How many pixels of a PNG are darker than light grey: text and box outlines."""
    from io import BytesIO

    from PIL import Image

    grey = np.asarray(Image.open(BytesIO(png)).convert("L"))
    return int((grey < 160).sum())


def test_snapshot_draws_what_was_recorded_after_the_view():
    x = ek.Variable(3.0)
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape)  # made first, as the docstring asks, then looked at as a PNG
        y = x**3 - x
    png = view.snapshot_png()
    texts = [step["text"] for step in view.graph["forward"]]
    assert len(texts) == len(tape.records) == 3 and "pow(" in texts[1] and "subtract(" in texts[2]
    assert png == TapeView(tape).snapshot_png()  # the picture a view made afterwards draws
    del y


def test_an_empty_tape_says_why_it_is_empty():
    x = ek.constant(2.0)
    with ek.GradientTape() as tape:
        y = x * x  # a constant, not watched: nothing is recorded
    view = TapeView(tape)
    assert view.graph["forward"] == [] and "tape.watch(x)" in view.graph["notice"]
    assert dark_pixels(view.snapshot_png()) > 1000  # the words, not a blank picture
    del y


def test_a_view_made_after_the_gradient_says_it_missed_the_sweep():
    x = ek.Variable(2.0)
    with ek.GradientTape(persistent=True) as tape:
        y = x * x
    tape.gradient(y, x)
    view = TapeView(tape)
    assert view.graph["phase"] == "forward"
    assert view.graph["notice"].startswith("tape.gradient ran before this view was made")
    tape.gradient(y, x)  # again, now that the view listens: it sees the sweep
    assert view.graph["phase"] == "backward" and view.graph["notice"] is None
    assert TapeView(tape).graph["notice"] is not None  # each new view is late again
    tape.reset()
    assert TapeView(tape).graph["notice"].startswith("A tape records only")
