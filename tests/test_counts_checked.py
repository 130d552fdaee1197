"""Counts are whole numbers, checked before any work, as TF checks them (issue 18):
``TextLineDataset(buffer_size=1.5)`` is refused, not ignored; ``fit``'s epochs and the step
counts of ``fit``/``evaluate``/``predict`` are refused above a bound, naming the argument,
before the first step, leaving the model as it was."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.keras import fit_arguments

fractions = st.floats(allow_nan=False, allow_infinity=False).filter(lambda v: v != int(v))


@pytest.fixture(scope="module")
def text_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("text") / "lines.txt"
    path.write_text("one\ntwo\n")
    return str(path)


@given(value=fractions)
def test_text_line_dataset_refuses_a_fractional_buffer_size(text_file, value):
    with pytest.raises(ek.errors.InvalidArgumentError, match="buffer_size must be an integer"):
        ek.data.TextLineDataset(text_file, buffer_size=value)


@given(value=fractions)
def test_text_line_dataset_refuses_a_fractional_num_parallel_reads(text_file, value):
    with pytest.raises(ek.errors.InvalidArgumentError, match="num_parallel_reads must be an"):
        ek.data.TextLineDataset(text_file, num_parallel_reads=value)


@pytest.mark.parametrize(
    "tuning, message",
    [
        ({"buffer_size": -1}, "buffer_size must be >= 0, got -1"),
        ({"num_parallel_reads": 0}, "num_parallel_reads must be >= 1, or -1"),
        ({"buffer_size": "big"}, "buffer_size must be an integer, got str 'big'"),
    ],
)
def test_text_line_dataset_refuses_what_tf_refuses(text_file, tuning, message):
    with pytest.raises(ek.errors.InvalidArgumentError, match=message):
        ek.data.TextLineDataset(text_file, **tuning)


@pytest.mark.parametrize(
    "tuning", [{"buffer_size": 0}, {"buffer_size": 2**20, "num_parallel_reads": -1}]
)
def test_text_line_dataset_takes_tfs_whole_numbers_and_reads_the_same(text_file, tuning):
    lines = [line.numpy() for line in ek.data.TextLineDataset(text_file, **tuning)]
    assert lines == [b"one", b"two"]


@given(value=fractions)
def test_a_tensor_array_refuses_a_fractional_size(value):
    with pytest.raises(ek.errors.InvalidArgumentError, match="size must be a whole number >= 0"):
        ek.TensorArray(ek.float32, size=value)


def test_a_tensor_array_takes_whole_sizes_and_refuses_negative_ones():
    assert int(ek.TensorArray(ek.float32, size=np.int64(3)).size()) == 3
    assert int(ek.TensorArray(ek.float32, size=ek.constant(2)).size()) == 2
    with pytest.raises(ek.errors.InvalidArgumentError, match="got -1"):
        ek.TensorArray(ek.float32, size=-1)


def _model():
    model = ek.keras.Sequential([ek.keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer="sgd", loss="mse")
    model(ek.ones([1, 2]))
    return model


x, y = np.ones([4, 2], np.float32), np.zeros([4, 1], np.float32)


@pytest.mark.parametrize(
    "call, said",
    [
        (lambda m: m.fit(x, y, epochs=10**30, verbose=0), "epochs=1,000,000,000,000"),
        (
            lambda m: m.fit(x, y, epochs=300_000, batch_size=1, verbose=0),
            "epochs=300,000 of 4 steps each is more than 1,000,000 steps",
        ),
        (
            lambda m: m.fit(x, y, steps_per_epoch=2**40, verbose=0),
            "steps_per_epoch=1,099,511,627,776 is more",
        ),
        (
            lambda m: m.fit(x, y, validation_steps=2**40, verbose=0),
            "validation_steps=1,099,511,627,776 is more",
        ),
        (lambda m: m.evaluate(x, y, steps=2**40, verbose=0), "steps=1,099,511,627,776 is more"),
        (lambda m: m.predict(x, steps=2**40, verbose=0), "steps=1,099,511,627,776 is more"),
    ],
)
def test_a_loop_of_too_many_steps_is_refused_before_its_first(call, said):
    model = _model()
    before = [w.copy() for w in model.get_weights()]
    with pytest.raises(ek.errors.ResourceExhaustedError) as caught:
        call(model)
    message = str(caught.value)
    assert said in message
    assert "Ask for fewer" in message  # the fix
    assert all(np.array_equal(a, b) for a, b in zip(before, model.get_weights(), strict=True))
    assert int(model.optimizer.iterations) == 0


def test_a_step_count_is_named_as_the_call_names_it():
    with pytest.raises(
        ek.errors.InvalidArgumentError,
        match=r"^Sequential.evaluate\(.*\): steps must be a whole number >= 1, got 1.5",
    ):
        _model().evaluate(x, y, steps=1.5, verbose=0)


def test_epochs_already_run_do_not_count_and_a_bounded_fit_trains():
    model = _model()
    history = model.fit(x, y, epochs=fit_arguments.MAX_STEPS + 2, initial_epoch=10**6, verbose=0)
    assert len(history.history["loss"]) == 2  # only the epochs still to run were counted
