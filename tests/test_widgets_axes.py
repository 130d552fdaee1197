"""What the live views' axes say: nice ticks, log scales, one colour per run, the run's own
colour scale, the student's names for the rows, and the same ticks and colours in the PNG
as in the browser's data."""

import math

import numpy as np
import pytest
from eagerkit.widgets import GradientFlow, LossCurve
from eagerkit.widgets.common.ticks import linear_axis, log_axis
from eagerkit.widgets.gradient_flow.snapshot import flow_figure
from eagerkit.widgets.loss_curve.snapshot import (
    RUN_COLOURS,
    TRAINING_BESIDE_VALIDATION,
    curves_figure,
    validation_colour,
)
from hypothesis import given
from hypothesis import strategies as st
from matplotlib.colors import to_hex, to_rgb

import eagerkit as ek


@pytest.mark.parametrize(
    ("lo", "hi", "labels"),
    [
        (0, 1, ["0", "1"]),  # 2 epochs: never "0 0 1 1 1"
        (0, 9, ["0", "2", "4", "6", "8"]),  # 10 epochs: never "0 2 5 7 9"
        (0, 999, ["0", "200", "400", "600", "800"]),
        (1, 5, ["1", "2", "3", "4", "5"]),
        (0, 0, ["0", "1"]),  # the first epoch alone: no negative epochs around it
    ],
)
def test_integer_axes_step_by_1_2_or_5(lo, hi, labels):
    assert linear_axis(lo, hi, integer=True)["labels"] == labels


@pytest.mark.parametrize(
    ("lo", "hi"), [(0.0715, 0.986), (0.98, 1.02), (1e-6, 3e-6), (-3.2, 41.0), (2.0, 2.0)]
)
def test_real_axes_have_1_2_5_steps_and_labels_with_just_the_decimals_they_need(lo, hi):
    axis = linear_axis(lo, hi)
    values, labels = axis["ticks"], axis["labels"]
    assert 2 <= len(values) <= 6
    assert all(axis["lo"] <= v <= axis["hi"] for v in values)
    steps = np.diff(values)
    assert np.allclose(steps, steps[0])
    mantissa = steps[0] / 10 ** math.floor(math.log10(steps[0]) + 1e-9)
    assert min(abs(mantissa - m) for m in (1, 2, 5)) < 1e-6
    assert all(
        math.isclose(float(label), v, abs_tol=steps[0] * 1e-6)
        for label, v in zip(labels, values, strict=True)
    )
    assert len(set(labels)) == len(labels)  # no two ticks read the same


def test_log_axes_fall_on_powers_of_ten_or_1_2_5():
    assert log_axis(1e-8, 1e4)["labels"][:3] == ["1e-08", "1e-07", "1e-06"]
    assert log_axis(0.03, 0.4)["labels"] == ["0.05", "0.1", "0.2"]
    assert [round(10**t, 9) for t in log_axis(0.5, 0.51)["ticks"]][0] >= 0.5


def test_loss_curve_names_its_x_axis_and_the_png_shows_the_browsers_ticks():
    curve = LossCurve(title="MLP", x="epoch")
    for epoch in range(2):
        curve.log(epoch, loss=0.986 - 0.9146 * epoch, accuracy=0.5 + 0.4 * epoch)
    curve.flush(final=True)
    history = curve.history
    assert history["x"] == "epoch"
    assert history["axes"]["loss"]["x"]["labels"] == ["0", "1"]
    assert history["axes"]["loss"]["y"]["labels"] == ["0.2", "0.4", "0.6", "0.8", "1.0"]
    figure = curves_figure(history, "MLP")
    accuracy, loss = figure.axes  # panels in name order
    assert [t.get_text() for t in loss.get_xticklabels()] == ["0", "1"]
    assert [t.get_text() for t in loss.get_yticklabels()] == history["axes"]["loss"]["y"]["labels"]
    assert loss.get_xlabel() == "epoch"
    assert loss.get_ylim() == (
        history["axes"]["loss"]["y"]["lo"],
        history["axes"]["loss"]["y"]["hi"],
    )
    assert repr(curve) == "LossCurve(title='MLP', x='epoch')"


def test_each_live_message_carries_the_axes_of_everything_so_far():
    curve = LossCurve(interval=3600)
    sent = []
    curve.send = lambda content, buffers=None: sent.append(content)
    for step in range(5):
        curve.log(step, loss=10.0**-step)
    curve.flush()
    curve.log(5, loss=50.0)
    curve.flush()
    first, second = sent
    assert first["axes"]["loss"]["x"]["labels"] == ["0", "1", "2", "3", "4"]
    assert first["axes"]["loss"]["ylog"]["labels"] == ["0.0001", "0.001", "0.01", "0.1", "1"]
    assert second["axes"]["loss"]["y"]["hi"] > 50  # the range grew with the new point
    assert second["axes"]["loss"]["x"]["labels"][-1] == "5"


def test_each_run_keeps_one_colour_in_the_order_runs_got_points_in_the_browser_and_the_png():
    curve = LossCurve(interval=3600)
    sent = []
    curve.send = lambda content, buffers=None: sent.append(content)
    assert curve.colour("asked first") == RUN_COLOURS[0]  # asked before any point: kept
    for step in range(3):
        curve.run("zeta").log(step, loss=3.0 - step)
    curve.flush()
    curve.run("alpha").log(0, loss=2.0)
    curve.flush(final=True)
    expected = {"asked first": RUN_COLOURS[0], "zeta": RUN_COLOURS[1], "alpha": RUN_COLOURS[2]}
    assert sent[0]["colours"] == {"asked first": RUN_COLOURS[0], "zeta": RUN_COLOURS[1]}
    assert sent[-1]["colours"] == expected
    assert curve.history["colours"] == {"zeta": RUN_COLOURS[1], "alpha": RUN_COLOURS[2]}
    (panel,) = curves_figure(curve.history).axes
    drawn = {line.get_label(): to_hex(line.get_color()) for line in panel.get_lines()}
    assert drawn == {"zeta: loss": RUN_COLOURS[1], "alpha: loss": RUN_COLOURS[2]}
    many = LossCurve()
    for run in range(len(RUN_COLOURS) + 1):  # more runs than colours: they come round again
        many.run(run).log(0, loss=1.0)
    many.flush(final=True)
    assert list(many.history["colours"].values()) == RUN_COLOURS + RUN_COLOURS[:1]


def _contrast_on_white(colour):
    """WCAG's contrast ratio of ``colour`` against a white page (1 to 21)."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(colour)]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return 1.05 / (luminance + 0.05)


@given(st.integers(0, 0xFFFFFF))
def test_a_validation_colour_is_its_runs_colour_darker(rgb):
    colour = f"#{rgb:06x}"
    shade = validation_colour(colour)
    assert all(int(shade[i : i + 2], 16) == int(colour[i : i + 2], 16) * 3 // 5 for i in (1, 3, 5))
    assert _contrast_on_white(shade) >= _contrast_on_white(colour)


def test_a_validation_line_stands_out_from_its_training_twin_in_the_png():
    # lesson 07's "MLP trained by fit": a noisy loss per step, a val_loss per epoch
    rng = np.random.default_rng(0)
    curve = LossCurve()
    for step in range(60):
        curve.log(step, loss=2.0 / (1 + step) + 0.2 * rng.random(), accuracy=0.9)
        if step % 10 == 9:
            curve.log(step, val_loss=2.0 / (1 + step), val_accuracy=0.85)
    curve.flush(final=True)
    for panel in curves_figure(curve.history).axes:
        training, validation = panel.get_lines()
        assert validation.get_label() == f"main: val_{panel.get_title()}"
        assert to_hex(training.get_color()) == RUN_COLOURS[0]
        assert to_hex(validation.get_color()) == validation_colour(RUN_COLOURS[0])
        assert _contrast_on_white(validation.get_color()) >= 7  # WCAG's AAA for text
        assert training.get_alpha() == TRAINING_BESIDE_VALIDATION  # faded beside its twin
        assert validation.get_linestyle() == "--"
        assert validation.get_linewidth() >= 1.5 * training.get_linewidth()
        assert validation.get_zorder() > training.get_zorder()  # drawn on top
        assert validation.get_marker() == "o" and training.get_marker() == "None"  # 6 points
        legend = [text.get_text() for text in panel.get_legend().get_texts()]
        assert legend == [training.get_label(), validation.get_label()]
    alone = LossCurve()  # no validation: the training line keeps its full colour
    alone.log(0, loss=1.0)
    alone.flush(final=True)
    (line,) = curves_figure(alone.history).axes[0].get_lines()
    assert line.get_alpha() is None and line.get_linewidth() == 1.4


def test_a_log_scale_curve_draws_powers_of_ten_in_the_png_as_in_the_browser():
    curve = LossCurve(y_scale="log")
    for step in range(5):
        curve.log(step, loss=10.0**-step, accuracy=0.0 if step == 0 else 0.2 * step)
    curve.flush(final=True)
    accuracy, loss = curves_figure(curve.history, y_scale="log").axes
    labels = curve.history["axes"]["loss"]["ylog"]["labels"]
    assert labels == ["0.0001", "0.001", "0.01", "0.1", "1"]
    assert loss.get_yscale() == "log"
    assert [t.get_text() for t in loss.get_yticklabels()] == labels
    assert loss.get_ylim() == pytest.approx((1e-4, 1.0))
    assert loss.get_xlabel() == "step   (y: log scale)"
    assert accuracy.get_yscale() == "log"  # its 0 is left out, as in the browser
    linear = curves_figure(curve.history).axes[1]
    assert linear.get_yscale() == "linear" and linear.get_xlabel() == "step"
    assert curve.snapshot_png() != LossCurve().snapshot_png()
    assert repr(curve) == "LossCurve(title='', y_scale='log')"


def test_a_curve_with_nothing_above_zero_stays_linear_on_a_log_scale():
    curve = LossCurve(y_scale="log")
    curve.log(0, margin=-1.0)
    curve.log(1, margin=0.0)
    curve.flush(final=True)
    assert curve.history["axes"]["margin"]["ylog"] is None
    (panel,) = curves_figure(curve.history, y_scale="log").axes
    assert panel.get_yscale() == "linear"


def test_an_unknown_y_scale_is_refused_by_name():
    with pytest.raises(
        ValueError, match=r"LossCurve\(y_scale='logarithmic'\): .* 'linear' or 'log'"
    ):
        LossCurve(y_scale="logarithmic")


class MLP(ek.Model):
    def __init__(self):
        super().__init__()
        self.hidden = ek.layers.Dense(8, activation="relu")
        self.logits = ek.layers.Dense(3)

    def call(self, x):
        return self.logits(self.hidden(x))


def _train(model, flow, steps=12, seed=0):
    rng = np.random.default_rng(seed)
    x = ek.constant(rng.normal(size=(16, 4)).astype("float32"))
    labels = ek.constant(rng.integers(0, 3, size=16))
    optimizer = ek.train.GradientDescentOptimizer(0.1)
    flow.attach(optimizer)
    for _ in range(steps):
        with ek.GradientTape() as tape:
            loss = ek.losses.sparse_softmax_cross_entropy(labels, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
    flow.flush(final=True)
    return flow.history


@pytest.mark.parametrize("build_first", [True, False])
def test_rows_are_named_by_the_models_attributes_and_stay_so_when_the_cell_reruns(build_first):
    layer_names = []
    for _ in range(2):  # the cell, run twice: the layers are dense_5 then dense_7, say
        model = MLP()
        if build_first:
            model(ek.zeros([1, 4]))
        history = _train(model, GradientFlow(model, every=1))
        layer_names.append(history["layers"])
        assert [v["name"] for v in history["variables"]] == [
            "hidden/kernel",
            "hidden/bias",
            "logits/kernel",
            "logits/bias",
        ]
    assert layer_names == [["hidden", "logits"], ["hidden", "logits"]]


def test_sequential_rows_are_numbered_unless_named():
    model = ek.Sequential([ek.layers.Dense(4), ek.layers.Dense(3, name="out")])
    model(ek.zeros([1, 4]))
    history = _train(model, GradientFlow(model, every=1), steps=2)
    assert history["layers"] == ["layers[0]", "out"]


def test_the_colour_scale_fits_the_runs_own_norms_and_the_png_uses_it():
    flow = GradientFlow({"big/w": ek.Variable([0.0]), "small/w": ek.Variable([0.0])}, interval=3600)
    big, small = flow._variables
    for step in range(100):
        outlier = 1e6 if step == 50 else 1.0  # one wild step must not wash the rest out
        flow.log([(ek.constant([2.0 * outlier]), big), (ek.constant([0.002]), small)])
    flow.flush(final=True)
    scale = flow.history["scale"]
    assert -3.0 <= scale["lo"] < -2.5 and 0.25 < scale["hi"] <= 0.5  # log10 of 0.002 .. 2
    assert scale["labels"] == ["0.001", "0.01", "0.1", "1"] or scale["labels"][0] == "0.01"
    axis = flow.history["step_axis"]
    assert (axis["lo"], axis["hi"]) == (-0.5, 99.5)
    assert axis["labels"] == ["0", "20", "40", "60", "80"]
    figure = flow_figure(flow.history)
    heat, bar = figure.axes
    assert [t.get_text() for t in heat.get_xticklabels()] == axis["labels"]
    assert heat.get_xlim() == (-0.5, 99.5)
    assert [t.get_text() for t in bar.get_yticklabels()] == scale["labels"]
    assert "brighter = larger" in heat.get_title()
    mesh = heat.collections[0]
    assert mesh.get_clim() == (scale["lo"], scale["hi"])


def test_a_metric_that_is_only_nan_keeps_its_panel_and_says_why_it_is_empty():
    curve = LossCurve()
    curve.log(0, loss=float("nan"))
    curve.log(1, loss=float("inf"))
    curve.flush(final=True)
    axes = curve.history["axes"]["loss"]
    assert axes["x"]["labels"] == ["0", "1"] and axes["y"] is None and axes["ylog"] is None
    [panel] = curves_figure(curve.history).axes
    assert "no finite values yet" in panel.texts[0].get_text()
    curve.log(2, loss=0.5)  # the first finite value gives the panel its y axis
    curve.flush(final=True)
    assert curve.history["axes"]["loss"]["y"]["lo"] < 0.5 < curve.history["axes"]["loss"]["y"]["hi"]
