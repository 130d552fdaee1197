"""Live widgets: buffered logs, throttled flushes, only new points sent, bounded history,
one device copy per flush, and a stable repr with a PNG."""

import base64
import math
import re

import numpy as np
import pytest
from eagerkit.widgets import GradientFlow, LossCurve
from eagerkit.widgets.common import live as _live
from eagerkit.widgets.gradient_flow import view as gradient_flow

import eagerkit as ek


class Recorder:
    """Taps a widget's comm (outside a kernel, ipywidgets' DummyComm): keeps every message."""

    def __init__(self):
        self.messages = []
        self.buffers = []

    def send(self, data=None, metadata=None, buffers=None):
        self.messages.append(data)
        self.buffers.append([np.frombuffer(b, dtype=np.float64) for b in buffers or ()])

    def custom(self):
        return [m["content"] for m in self.messages if m["method"] == "custom"]

    def loss_steps(self):
        """The steps of every LossCurve point sent, message after message."""
        steps = []
        for message, buffers in zip(self.messages, self.buffers, strict=True):
            if message["method"] == "custom":
                assert message["content"]["series"] == [["main", "loss"]]
                steps += buffers[0].astype(int).tolist()
        return steps

    def updates(self):
        return [m["state"] for m in self.messages if m["method"] == "update"]


def recorded(widget):
    recorder = Recorder()
    widget.comm.send = recorder.send  # every trait update and custom message goes here
    return recorder


@pytest.fixture
def fake_clock(monkeypatch):
    """A clock that advances 1 ms each time it is read: 10,000 reads are 10 seconds."""
    now = [0.0]

    def perf_counter():
        now[0] += 0.001
        return now[0]

    monkeypatch.setattr(_live.time, "perf_counter", perf_counter)
    return now


def test_ten_thousand_logs_in_a_tight_loop_send_a_handful_of_messages():
    curve = LossCurve()
    comm = recorded(curve)
    for step in range(10_000):
        curve.log(step, loss=1.0 / (step + 1))
    during = len(comm.messages)
    curve.flush(final=True)
    assert during <= 2  # the loop takes well under half a second here
    assert comm.loss_steps() == list(range(10_000))  # every point once, in order


def test_flushes_happen_at_most_four_times_a_second(fake_clock):
    curve = LossCurve(interval=0.25)
    comm = recorded(curve)
    for step in range(10_000):  # 10 simulated seconds
        curve.log(step, loss=float(step))
    custom = comm.custom()
    assert 35 <= len(custom) <= 41  # ~4 per second, never more
    assert len(comm.updates()) <= 2  # the whole history only every 10 s
    steps = comm.loss_steps()
    assert steps == sorted(set(steps)) == list(range(len(steps)))  # new points only, in order


def test_history_is_downsampled_to_1000_points_with_both_ends():
    curve = LossCurve()
    for step in range(12_000):
        curve.log(step, loss=float(step))
    curve.flush(final=True)
    series = curve.history["runs"]["main"]["loss"]
    assert len(series["x"]) <= 1000
    assert (series["x"][0], series["x"][-1]) == (0, 11_999)
    assert series["x"] == [int(y) for y in series["y"]]


def test_runs_metrics_and_nan_in_the_history():
    curve = LossCurve()
    curve.run("sgd").log(0, loss=2.0, val_loss=3.0)
    curve.run("adam").log(0, loss=float("nan"))
    curve.log(loss=ek.constant(0.5))  # no step: the run's next one
    curve.flush(final=True)
    assert curve.history["runs"] == {
        "sgd": {"loss": {"x": [0], "y": [2.0]}, "val_loss": {"x": [0], "y": [3.0]}},
        "adam": {"loss": {"x": [0, 1], "y": [None, 0.5]}},  # JSON has no NaN
    }
    # The NaN is left out of the axes; val_loss shares loss's panel.
    assert curve.history["axes"]["loss"]["y"]["labels"] == [
        "0.5",
        "1.0",
        "1.5",
        "2.0",
        "2.5",
        "3.0",
    ]


def test_bad_logs_fail_clearly_and_change_nothing():
    curve = LossCurve()
    with pytest.raises(
        TypeError,
        match="metric 'loss' must be a number or a one-element "
        r"tensor, got float32\[3\]; reduce it first \(ek.reduce_mean\)$",
    ):
        curve.log(0, loss=ek.constant([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="give at least one metric"):
        curve.log(0)
    curve.flush(final=True)
    assert curve.history == {"runs": {}, "axes": {}, "x": "step", "colours": {}}


@pytest.mark.parametrize(
    ("value", "described"),
    [
        (0.5, "0.5"),
        (np.float32(0.5), "np.float32(0.5)"),
        (ek.constant(0.5), "float32[]"),
        (np.array([0.5, 0.25]), "ndarray float64[2]"),
    ],
)
def test_a_loss_passed_as_the_step_is_told_to_name_its_metric(value, described):
    curve = LossCurve()
    with pytest.raises(TypeError) as raised:
        curve.log(value)  # the commonest slip: log(loss) for log(loss=loss)
    assert re.fullmatch(
        f"LossCurve.log: its first argument is the step, and {re.escape(described)} is not one; "
        r"name the metric you log: log\(loss=value\), or log\(step, loss=value\)",
        str(raised.value),
    )
    curve.flush(final=True)
    assert curve.history["runs"] == {}


@pytest.mark.parametrize("step", [1.5, "3", ek.constant(2.0), ek.constant([1, 2])])
def test_a_step_that_is_not_an_integer_is_refused(step):
    curve = LossCurve()
    with pytest.raises(TypeError, match="LossCurve.log: the step must be an integer"):
        curve.log(step, loss=1.0)
    curve.log(loss=2.0)  # the failed call used no step
    curve.log(ek.Variable(7, dtype=ek.int64), loss=3.0)  # a global step
    curve.flush(final=True)
    assert curve.history["runs"]["main"]["loss"] == {"x": [0, 7], "y": [2.0, 3.0]}


def test_a_metric_may_be_what_numpy_gives_back():
    curve = LossCurve()
    loss = ek.constant(0.5)
    curve.log(loss=loss.numpy(), accuracy=np.array([0.75], "float32"), count=np.int64(3))
    curve.flush(final=True)
    runs = curve.history["runs"]["main"]
    assert [runs[m]["y"] for m in ("loss", "accuracy", "count")] == [[0.5], [0.75], [3]]
    with pytest.raises(TypeError, match=r"tensor, got None$"):  # nothing to reduce in a None
        curve.log(loss=None)


def test_track_yields_everything_and_counts_steps():
    curve = LossCurve()
    seen = []
    for batch in curve.track(range(5), display=False):
        seen.append(batch)
        curve.log(loss=float(batch) * 2)
    assert seen == [0, 1, 2, 3, 4]
    assert curve.history["runs"]["main"]["loss"] == {
        "x": [0, 1, 2, 3, 4],
        "y": [0.0, 2.0, 4.0, 6.0, 8.0],
    }


@pytest.fixture
def counting_simulated_gpu(monkeypatch):
    """The simulated GPU, counting its copies to the host."""
    device = ek.devices.enable_simulated_gpu()
    copies = []
    real = device.backend.to_host
    monkeypatch.setattr(device.backend, "to_host", lambda a: copies.append(1) or real(a))
    yield device, copies
    ek.devices.disable_simulated_gpu()


def test_loss_values_leave_the_gpu_once_per_flush(counting_simulated_gpu):
    device, copies = counting_simulated_gpu
    curve = LossCurve(interval=3600)
    with ek.device(device.name):
        for step in range(100):
            curve.log(step, loss=ek.constant(float(step)) * 0.5)
    assert copies == []
    curve.flush(final=True)
    assert len(copies) == 1
    assert curve.history["runs"]["main"]["loss"]["y"][-1] == 49.5


def test_gradient_norms_leave_the_gpu_once_per_flush(counting_simulated_gpu):
    device, copies = counting_simulated_gpu
    with ek.device(device.name):
        w = ek.Variable([3.0, 4.0], name="dense/kernel")
        b = ek.Variable([0.0], name="dense/bias")
        flow = GradientFlow([w, b], interval=3600)
        for _ in range(50):
            flow.log([(ek.constant([3.0, 4.0]), w), (ek.constant([0.0]), b)])
    assert copies == []
    flow.flush(final=True)
    # One copy for all 100 norms, then one per variable for its latest histogram.
    assert len(copies) == 1 + 2
    assert flow.history["norms"][-1] == [5.0]


def test_gradient_norms_by_layer_and_the_flags():
    hidden = ek.Variable(np.ones((2, 2), "float32"), name="hidden/kernel")
    bias = ek.Variable(np.ones(2, "float32"), name="hidden/bias")
    out = ek.Variable(np.ones(2, "float32"), name="output/kernel")
    flow = GradientFlow(
        {"hidden/kernel": hidden, "hidden/bias": bias, "output/kernel": out},
        vanishing=1e-3,
        exploding=100.0,
    )
    flow.log(
        [
            (ek.constant(np.full((2, 2), 1.0, "float32")), hidden),
            (ek.constant(np.zeros(2, "float32")), bias),
            (ek.constant(np.full(2, 1e-5, "float32")), out),
        ]
    )
    flow.flush(final=True)
    assert flow.history["layers"] == ["hidden", "output"]
    hidden_norm, out_norm = flow.history["norms"][0]
    assert hidden_norm == pytest.approx(2.0) and out_norm == pytest.approx(math.sqrt(2) * 1e-5)
    assert flow.history["flags"] == {"hidden": "ok", "output": "vanishing"}

    flow.log([(ek.constant(np.full((2, 2), 1e3, "float32")), hidden), (None, out)])
    flow.flush(final=True)
    assert flow.history["flags"] == {"hidden": "exploding", "output": "vanishing"}
    assert flow.history["norms"][-1] == [pytest.approx(2000.0), None]  # None: no gradient

    flow.log([(ek.constant(np.full(2, np.nan, "float32")), bias)])
    flow.log([(ek.constant(np.ones((2, 2), "float32")), hidden)])
    flow.flush(final=True)
    assert flow.history["norms"][2] == ["nan", None]
    assert flow.history["flags"]["hidden"] == "nan"  # sticky, even after a good step
    summaries = {v["name"]: v for v in flow.history["variables"]}
    assert sum(summaries["hidden/kernel"]["counts"]) == 4
    assert summaries["hidden/bias"]["norm"] == "nan"


def test_attached_to_an_optimizer_it_logs_every_update():
    w = ek.Variable(1.0, name="w")
    optimizer = ek.train.GradientDescentOptimizer(0.25)
    flow = GradientFlow([w]).attach(optimizer)
    for _ in range(3):
        with ek.GradientTape() as tape:
            loss = w * w
        optimizer.apply_gradients([(tape.gradient(loss, w), w)])
    flow.detach(optimizer)
    optimizer.apply_gradients([(ek.constant(1.0), w)])
    flow.flush(final=True)
    assert flow.history["steps"] == [1, 2, 3]
    assert flow.history["norms"] == [[2.0], [1.0], [0.5]]  # |2w|, and w halves each step


def test_unknown_variables_join_and_duplicate_names_stay_apart():
    a, b = ek.Variable(1.0), ek.Variable(2.0)  # both are called 'Variable'
    flow = GradientFlow()
    flow.log([(ek.constant(3.0), a), (ek.constant(4.0), b)])
    flow.flush(final=True)
    assert flow.history["layers"] == ["Variable", "Variable_1"]
    assert flow.history["norms"] == [[3.0, 4.0]]
    with pytest.raises(TypeError, match="expected \\(gradient, variable\\) pairs of tensors"):
        flow.log([(3.0, a)])


@pytest.mark.parametrize("make", [LossCurve, GradientFlow])
def test_repr_is_fixed_and_the_png_shows_the_final_state(make):
    widget = make()
    before = repr(widget)
    weight = ek.Variable(1.0, name="layer/w")
    with widget.live(display=False):
        for step in range(20):
            if make is LossCurve:
                widget.log(step, loss=1.0 / (step + 1))
            else:
                widget.log([(ek.constant(float(step)), weight)])
    data, _ = widget._repr_mimebundle_()
    assert data["text/plain"] == before == repr(widget)
    png = base64.b64decode(data["image/png"])
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert widget._repr_mimebundle_()[0]["image/png"] == data["image/png"]  # reproducible


def test_gradient_norms_are_exact_however_the_gradients_are_kept():
    """Small gradients travel as bytes, large ones as sums of squares, strided ones are
    made contiguous; whichever way, the norms are those numpy computes."""
    rng = np.random.default_rng(0)
    shapes = {"small/kernel": (3, 2), "small/bias": (2,), "large/kernel": (64, 64)}
    variables = {name: ek.Variable(np.zeros(shape, "float32")) for name, shape in shapes.items()}
    flow = GradientFlow(variables, interval=3600)
    expected = []
    for _ in range(30):
        grads = {name: rng.normal(size=shape).astype("float32") for name, shape in shapes.items()}
        grads["small/kernel"] = np.asfortranarray(grads["small/kernel"])  # not C-contiguous
        flow.log([(ek.Tensor(grads[name]), variable) for name, variable in variables.items()])
        small = np.sqrt(np.sum(grads["small/kernel"] ** 2) + np.sum(grads["small/bias"] ** 2))
        expected.append([small, np.linalg.norm(grads["large/kernel"])])
    flow.flush(final=True)
    assert flow.history["layers"] == ["small", "large"]
    np.testing.assert_allclose(flow.history["norms"], expected, rtol=1e-5)


def test_steps_with_other_variables_start_a_new_segment():
    a = ek.Variable(np.zeros(2, "float32"), name="a/w")
    b = ek.Variable(np.zeros(1000, "float32"), name="b/w")  # large: summed at its step
    flow = GradientFlow([a, b])
    flow.log([(ek.constant([3.0, 4.0]), a), (ek.constant(np.full(1000, 0.1, "float32")), b)])
    flow.log([(ek.constant(np.ones(1000, "float32")), b), (ek.constant([0.0, 1.0]), a)])
    flow.log([(None, a), (None, b)])  # a step without gradients
    flow.log([(ek.constant([6.0, 8.0]), a)])
    flow.flush(final=True)
    assert flow.history["steps"] == [0, 1, 2, 3]
    norms = flow.history["norms"]
    assert norms[0][0] == 5.0 and norms[0][1] == pytest.approx(np.sqrt(10.0), rel=1e-6)
    assert norms[1] == [1.0, pytest.approx(np.sqrt(1000.0))]
    assert norms[2:] == [[None, None], [10.0, None]]


def test_gradients_that_do_not_match_their_variable_are_refused():
    w = ek.Variable(np.zeros((2, 2), "float32"), name="dense/kernel")
    flow = GradientFlow([w])
    with pytest.raises(ValueError, match=r"gradient of 'dense/kernel:0' has shape \(3,\)"):
        flow.log([(ek.constant([1.0, 2.0, 3.0]), w)])
    with pytest.raises(ValueError, match="dtype float64 but the variable has .* float32"):
        flow.log([(ek.constant(np.ones((2, 2))), w)])
    flow.flush(final=True)
    assert flow.history["steps"] == []  # nothing was kept


def test_what_is_not_a_pair_or_a_variable_is_named():
    w = ek.Variable(np.zeros(2, "float32"), name="w")
    flow = GradientFlow([w])
    expected = r"GradientFlow.log: expected \(gradient, variable\) pairs, .* got "
    with pytest.raises(TypeError, match=expected + r"Variable float32\[2\] among them$"):
        flow.log([w, ek.constant([1.0, 1.0])])  # the list, not zip(grads, variables)
    with pytest.raises(TypeError, match=expected + "tuple of 3 among them$"):
        flow.log([(ek.constant([1.0, 1.0]), w, 0.1)])
    with pytest.raises(TypeError, match=r"got ndarray float32\[2\] as the gradient of 'w:0'; "):
        flow.log([(np.ones(2, "float32"), w)])
    flow.flush(final=True)
    assert flow.history["steps"] == []
    made = r"GradientFlow: expected a model \(anything with trainable_variables\), .* got "
    with pytest.raises(TypeError, match=made + "'model'$"):
        GradientFlow("model")
    with pytest.raises(TypeError, match=made + r"list of 2, holding float32\[\]$"):
        GradientFlow([w, ek.constant(1.0)])
    with pytest.raises(TypeError, match=made + r"Variable float32\[2\]$"):
        GradientFlow(w)  # one variable: put it in a list
    unbuilt = GradientFlow(ek.keras.Sequential([ek.keras.layers.Dense(2)]))  # no weights yet
    unbuilt.flush(final=True)
    assert unbuilt.history["layers"] == []


def test_a_variable_logged_as_a_metric_is_read_when_logged():
    curve = LossCurve()
    accuracy = ek.Variable(0.5)
    curve.log(0, accuracy=accuracy)
    accuracy.assign(0.75)
    curve.log(1, accuracy=accuracy)
    curve.flush(final=True)
    assert curve.history["runs"]["main"]["accuracy"]["y"] == [0.5, 0.75]


def test_a_bad_metric_takes_back_the_ones_logged_before_it():
    curve = LossCurve()
    curve.log(0, loss=1.0, accuracy=0.5)
    with pytest.raises(TypeError, match="metric 'accuracy' must be a number"):
        curve.log(1, loss=0.5, accuracy="high")
    with pytest.raises(TypeError, match="metric 'accuracy' must be a number"):
        curve.log(1, new_metric=0.5, accuracy=[1.0])
    curve.log(loss=0.25, accuracy=0.75)  # step 1: the failed calls used no step
    curve.flush(final=True)
    runs = curve.history["runs"]["main"]
    assert runs == {
        "loss": {"x": [0, 1], "y": [1.0, 0.25]},
        "accuracy": {"x": [0, 1], "y": [0.5, 0.75]},
    }


def test_a_fast_loop_has_one_step_in_k_measured(monkeypatch):
    """Measuring more than its budget of the loop's time makes the flow measure fewer
    steps; the history says how many, and every=1 measures them all."""
    now = [0.0]
    monkeypatch.setattr(_live.time, "perf_counter", lambda: now[0])
    w = ek.Variable(np.ones(3, "float32"), name="dense/kernel")

    def train(flow, steps, measure_seconds):
        add = flow._pending.add

        def add_slowly(*args):  # measuring a step takes measure_seconds
            add(*args)
            now[0] += measure_seconds

        flow._pending.add = add_slowly
        for _ in range(steps):
            now[0] += 0.001  # a 1 ms training step
            flow.on_apply(None, [(ek.constant(np.ones(3, "float32")), w)])
        flow._pending.add = add

    adaptive, exact = GradientFlow([w]), GradientFlow([w], every=1)
    sent = recorded(exact)
    for flow in (adaptive, exact):
        train(flow, 3000, measure_seconds=0.00002)  # measuring costs 2% of a step
        flow.flush(final=True)
    exact_steps = [step for buffers in sent.buffers if buffers for step in buffers[0]]
    assert exact.history["every"] == 1 and exact_steps == list(range(3000))
    wanted = 0.02 / gradient_flow.BUDGET
    steps = adaptive.history["steps"]
    assert steps[:200] == list(range(200))  # the first quarter second: every step
    strides = np.diff(steps[-20:])
    assert len(set(strides)) == 1 and wanted / 2 <= strides[0] <= wanted * 1.5
    assert wanted / 2 <= adaptive.history["every"] <= wanted * 1.5
    assert adaptive.history["norms"][-1] == [pytest.approx(np.sqrt(3.0))]
    train(adaptive, 2000, measure_seconds=0.0)  # measuring gets cheap: every step again
    adaptive.flush(final=True)
    assert adaptive.history["every"] == 1
    with pytest.raises(ValueError, match="every must be a positive int or None, got 0"):
        GradientFlow([w], every=0)


@pytest.fixture
def shell():
    """An IPython shell whose display outputs are recorded (and removed afterwards)."""
    from IPython.core.displaypub import CapturingDisplayPublisher
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.display_pub = CapturingDisplayPublisher()
    yield shell
    InteractiveShell.clear_instance()


def test_a_flow_shown_before_the_loop_is_redrawn_after_the_cell_that_trains(shell):
    weight = ek.Variable([1.0, 2.0], name="dense/kernel")
    shell.user_ns.update(ek=ek, GradientFlow=GradientFlow, weight=weight)
    shell.run_cell("flow = GradientFlow([weight])\nflow")  # shown empty, before the loop
    [shown] = shell.display_pub.outputs
    display_id = shown["transient"]["display_id"]
    assert shown["data"]["text/plain"] == "GradientFlow(vanishing=1e-06, exploding=1000.0)"
    assert "application/vnd.jupyter.widget-view+json" in shown["data"]
    shell.run_cell("for step in range(5):\n    flow.log([(ek.constant([3.0, 4.0]), weight)])")
    updates = [o for o in shell.display_pub.outputs if o["update"]]
    assert [o["transient"]["display_id"] for o in updates] == [display_id]
    assert updates[0]["data"]["image/png"] != shown["data"]["image/png"]  # the trained run
    assert shell.user_ns["flow"].history["norms"] == [[5.0]] * 5
    shell.run_cell("x = 1")  # nothing new: no redraw
    assert len([o for o in shell.display_pub.outputs if o["update"]]) == 1
