"""Keras' progress bar and ``verbose``: the lines fit prints, and what a notebook keeps.

A terminal or a Jupyter kernel gets tqdm's live line, redrawn with carriage returns and
timings; what stays is the final line of each epoch, which holds no timing. The tests
feed the raw output to the stream coalescing that nbval and ``nbconvert
--coalesce-streams`` (``make notebooks``) apply, and check that only the final lines
survive, identical from run to run.
"""

import io
import re
import sys

import nbformat
import numpy as np
import pytest
from nbconvert.preprocessors import CoalesceStreamsPreprocessor
from nbval.plugin import coalesce_streams as nbval_coalesce

import eagerkit as ek
from eagerkit import keras
from eagerkit.keras.utils import Progbar

FINAL = re.compile(r"^ ?\d+/\d+ \[=+\] - loss: \d\.\d{4}(e[+-]\d\d)? - mae: \d\.\d{4}$")


class Terminal(io.StringIO):
    """A stdout that says it is a terminal, so the live line is drawn."""

    def isatty(self):
        return True


@pytest.fixture(autouse=True)
def _live_bar_allowed(monkeypatch):
    monkeypatch.delenv("EAGERKIT_LIVE_PROGRESS", raising=False)  # conftest turns it off


def fit_output(verbose, terminal, epochs=2):
    ek.random.set_seed(0)
    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    out = Terminal() if terminal else io.StringIO()
    saved, sys.stdout = sys.stdout, out
    try:
        model.fit(np.ones((40, 2)), np.ones((40, 1)), batch_size=4, epochs=epochs, verbose=verbose)
    finally:
        sys.stdout = saved
    return out.getvalue()


def kept_by_jupyter(text):
    """What nbval compares and what `make notebooks` stores, for a cell that printed ``text``."""
    outputs = [nbformat.v4.new_output("stream", name="stdout", text=text)]
    checked = nbval_coalesce([nbformat.from_dict(o) for o in outputs])[0].text
    cell = nbformat.v4.new_code_cell(outputs=outputs)
    stored = CoalesceStreamsPreprocessor().preprocess_cell(cell, {}, 0)[0].outputs[0].text
    return checked, stored


def test_verbose_1_in_a_terminal_draws_a_live_bar_and_leaves_timeless_lines():
    raw = fit_output(verbose=1, terminal=True)
    assert "\r" in raw and "ETA: " in raw  # the live line, redrawn in place
    assert "it/s" not in raw and " 1/10 [" in raw  # Keras' line from the first frame on
    checked, stored = kept_by_jupyter(raw)
    assert checked == stored
    lines = stored.splitlines()
    assert [lines[0], lines[2]] == ["Epoch 1/2", "Epoch 2/2"]
    assert FINAL.match(lines[1]) and FINAL.match(lines[3]) and len(lines) == 4
    assert lines[1].startswith("10/10 [==============================] - loss: ")
    assert kept_by_jupyter(fit_output(verbose=1, terminal=True))[1] == stored  # every run


def test_the_switch_the_suite_sets_turns_the_live_line_off(monkeypatch):
    live = fit_output(verbose=1, terminal=True)
    monkeypatch.setenv("EAGERKIT_LIVE_PROGRESS", "0")  # tests/conftest.py, for nbval's kernels
    quiet = fit_output(verbose=1, terminal=True)
    assert "\r" in live and "\r" not in quiet and "ETA" not in quiet
    assert quiet == kept_by_jupyter(live)[1]  # the lines a notebook keeps either way


def test_verbose_modes_as_keras():
    quiet = fit_output(verbose=0, terminal=True)
    assert quiet == ""
    per_epoch = fit_output(verbose=2, terminal=True).splitlines()
    assert per_epoch[0] == "Epoch 1/2" and re.match(
        r"^10/10 - loss: [\d.e+-]+ - mae: ", per_epoch[1]
    )
    assert "\r" not in "".join(per_epoch)
    auto = fit_output(verbose="auto", terminal=False)
    assert auto == kept_by_jupyter(fit_output(verbose=1, terminal=True))[1]  # "auto" is 1
    assert "\r" not in auto  # not a terminal: the final lines only, as Keras does
    single = fit_output(verbose=1, terminal=False, epochs=1)
    assert not single.startswith("Epoch")  # Keras names the epoch only when there are several


def test_progbar_averages_as_keras_and_formats_tiny_values():
    out = io.StringIO()
    saved, sys.stdout = sys.stdout, out
    try:
        bar = Progbar(target=3, stateful_metrics=["lr"])
        bar.update(1, [("loss", 3.0), ("lr", 0.1)])
        bar.update(3, [("loss", 1.0), ("lr", 0.0001)])  # two steps at once: weight 2
        unknown = Progbar(target=None, verbose=2)
        unknown.update(7, {"loss": 0.5}, finalize=True)
    finally:
        sys.stdout = saved
    assert out.getvalue().splitlines() == [
        "3/3 [==============================] - loss: 1.6667 - lr: 1.0000e-04",
        "      7/Unknown - loss: 0.5000",
    ]
    with pytest.raises(ValueError, match="verbose must be 0, 1 or 2"):
        Progbar(3, verbose=5)
    with pytest.raises(ValueError, match="target must be a whole number"):
        Progbar(2.5)


DATASETS = {  # how the dataset is made -> its batches' count as the first epoch shows it
    "from_tensor_slices().shuffle().batch()": (
        lambda ds: ds.shuffle(16).batch(4),
        "10/10 [==============================]",
    ),
    "batch(drop_remainder=True)": (
        lambda ds: ds.batch(3, drop_remainder=True),
        "13/13 [==============================]",
    ),
    "filter(): cardinality unknown": (
        lambda ds: ds.filter(lambda x, y: True).batch(4),
        "     10/Unknown",
    ),
}


class StepsAtStart(keras.callbacks.Callback):
    """Keeps ``params["steps"]`` as fit gives it before the first batch."""

    def on_train_begin(self, logs=None):
        self.steps = self.params["steps"]


@pytest.mark.parametrize("made", DATASETS)
def test_a_datasets_known_cardinality_is_the_first_epochs_target_as_keras(made, capsys):
    # Keras' bar reads a Dataset's cardinality: "938/938 [===...]" from the numpy tutorial's
    # first epoch; only a size nobody knows before reading (filter, a generator) is Unknown.
    batched, first = DATASETS[made]
    ek.random.set_seed(0)
    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    dataset = batched(ek.data.Dataset.from_tensor_slices((np.ones((40, 2)), np.ones((40, 1)))))
    model.fit(dataset, epochs=2, callbacks=[(seen := StepsAtStart())])
    lines = capsys.readouterr().out.splitlines()
    count = 13 if "drop" in made else 10
    assert lines[1].startswith(first + " - loss: ")
    assert lines[3].startswith(f"{count}/{count} [==============================] - loss: ")
    assert seen.steps == (None if "Unknown" in first else count)
    model.evaluate(dataset, verbose=2)
    assert capsys.readouterr().out.startswith(first.split(" [")[0] + " - loss: ")
