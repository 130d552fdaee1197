"""A call that fails changes nothing: checkpoints and their files, summary writers, datasets,
gradient tapes and traced functions (the other kinds: tests/test_state_after_failure.py).

Files are pictured with their bytes. A full disk is simulated by making each change to the
file system fail in turn (``every_disk_failure``: the first, then the second, ... until the
call makes no more), so every step of a save is a way for it to fail.
"""

import os

import hypothesis.strategies as st
import pytest
from hypothesis import given, settings
from state_snapshots import every_disk_failure, files, picture
from stateful_classes import classes_of
from test_state_after_failure import junk, must_fail_and_change_nothing, unchanged_if_it_fails

import eagerkit as ek
from eagerkit import summary


def training_state():
    """A model, an Adam optimizer with slots, and a global step: what a checkpoint saves."""
    model = ek.Sequential([ek.keras.layers.Dense(3), ek.keras.layers.Dense(1)])
    optimizer = ek.train.AdamOptimizer(0.1)
    x = ek.constant([[1.0, 2.0], [-1.0, 0.5]])
    with ek.GradientTape() as tape:
        loss = ek.reduce_mean(model(x) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
    return model, optimizer


# --- checkpoints ----------------------------------------------------------------------------
@pytest.mark.parametrize("cls", classes_of("checkpoint"), ids=lambda c: c.__name__)
def test_a_save_that_fails_at_any_step_changes_no_file_and_no_counter(cls, tmp_path):
    model, optimizer = training_state()
    checkpoint = cls(model=model, optimizer=optimizer)
    checkpoint.save(str(tmp_path / "ckpt"))  # a state file and ckpt-1 exist already

    def observe():
        return picture(checkpoint, model, optimizer), files(tmp_path)

    failed, saved = every_disk_failure(lambda: checkpoint.save(str(tmp_path / "ckpt")), observe)
    assert failed >= 8  # temporary files, fsync, renames, the state file
    assert int(checkpoint.save_counter) == 1 + saved
    latest = str(tmp_path / f"ckpt-{1 + saved}")
    assert ek.train.latest_checkpoint(str(tmp_path)) == latest
    # write() over an existing checkpoint: its old bytes come back whatever step fails
    every_disk_failure(lambda: checkpoint.write(str(tmp_path / "ckpt-1")), observe)


@pytest.mark.parametrize("cls", classes_of("checkpoint"), ids=lambda c: c.__name__)
def test_a_save_into_a_new_directory_leaves_no_directory_when_it_fails(cls, tmp_path):
    checkpoint = cls(w=ek.Variable([1.0]))
    target = tmp_path / "new" / "deeper"
    every_disk_failure(
        lambda: checkpoint.save(str(target / "ckpt")),
        lambda: (picture(checkpoint), files(tmp_path), sorted(os.listdir(tmp_path))),
    )
    assert os.path.isdir(target)


@pytest.mark.parametrize("cls", classes_of("checkpoint"), ids=lambda c: c.__name__)
def test_a_restore_that_fails_changes_no_variable(cls, tmp_path):
    model, optimizer = training_state()
    checkpoint = cls(model=model, optimizer=optimizer)
    path = checkpoint.save(str(tmp_path / "ckpt"))
    for variable in model.variables:
        variable.assign(variable * 0 + 5.0)

    def observe():
        return picture(checkpoint, model, optimizer), files(tmp_path)

    must_fail_and_change_nothing(observe, lambda: checkpoint.restore(str(tmp_path / "missing")))
    wider = ek.Sequential([ek.keras.layers.Dense(4), ek.keras.layers.Dense(1)])
    wider(ek.zeros([1, 2]))
    other = cls(model=wider, optimizer=ek.train.AdamOptimizer(0.1))
    must_fail_and_change_nothing(lambda: picture(other, wider), lambda: other.restore(path))
    data = tmp_path / "ckpt-1.npz"
    data.write_bytes(data.read_bytes()[:-7] + b"garbage")  # a truncated, rewritten tail
    must_fail_and_change_nothing(observe, lambda: checkpoint.restore(path))


@pytest.mark.parametrize("cls", classes_of("checkpoint manager"), ids=lambda c: c.__name__)
def test_a_manager_save_that_fails_at_any_step_changes_nothing(cls, tmp_path):
    model, optimizer = training_state()
    checkpoint = ek.train.Checkpoint(model=model, optimizer=optimizer)
    manager = cls(checkpoint, str(tmp_path), max_to_keep=2)
    manager.save()
    manager.save()  # the next save drops ckpt-1: removals can fail too

    def observe():
        return picture(manager, model, optimizer), files(tmp_path)

    failed, saved = every_disk_failure(manager.save, observe)
    assert failed >= 10  # the new checkpoint, the state file, and ckpt-1's two files
    kept = [f"ckpt-{n}" for n in (1 + saved, 2 + saved)]
    assert [os.path.basename(p) for p in manager.checkpoints] == kept
    # (a copy whose removal failed after a save stays as a hidden temporary file, which
    # the next process's save deletes: atomic_files.clean_up)
    assert sorted(name for name in files(tmp_path) if not name.startswith(".tmp-")) == [
        "checkpoint",
        *(f"{name}{suffix}" for name in kept for suffix in (".index.json", ".npz")),
    ]


@pytest.mark.parametrize("max_to_keep", [1.5, 0, -1, "2", ek.constant(2.0)])
def test_a_manager_refuses_max_to_keep_that_is_not_a_count(max_to_keep, tmp_path):
    checkpoint = ek.train.Checkpoint(w=ek.Variable(1.0))
    with pytest.raises(ek.errors.InvalidArgumentError, match="max_to_keep"):
        ek.train.CheckpointManager(checkpoint, str(tmp_path), max_to_keep=max_to_keep)
    assert os.listdir(tmp_path) == []


# --- summary writers ------------------------------------------------------------------------
@pytest.mark.parametrize("cls", classes_of("summary writer"), ids=lambda c: c.__name__)
def test_a_failed_summary_writes_nothing_and_loses_nothing(cls, tmp_path):
    writer = cls(str(tmp_path), max_queue=2)
    step = ek.Variable(0, dtype=ek.int64)

    def observe():
        return picture(writer, summary._writers, summary._policies), files(tmp_path)

    with writer.as_default():
        summary.scalar("loss", 1.0, step=0)
        summary.scalar("loss", 0.5, step=1)  # flushed: the file has two lines
        summary.scalar("loss", 0.25, step=2)  # queued
        for call in (
            lambda: summary.scalar("loss", [1.0, 2.0], step=3),
            lambda: summary.scalar("loss", "high", step=3),
            lambda: summary.scalar("loss", 1.0, step=1.5),
            lambda: summary.scalar("loss", 1.0, step="x"),
            lambda: summary.histogram("w", [1.0, 2.0], step=3, buckets=2.5),
            lambda: summary.histogram("w", [1.0, 2.0], step=3, buckets=10**9),
            lambda: summary.histogram("w", "x", step=3),
        ):
            must_fail_and_change_nothing(observe, call)
        # the queue is full with the next line: a flush, which may fail at any step
        every_disk_failure(lambda: summary.scalar("loss", 0.125, step=step), observe)
    writer.close()
    must_fail_and_change_nothing(observe, lambda: writer.write({"kind": "scalar"}))
    assert [e["value"] for e in summary.read_events(str(tmp_path))] == [1.0, 0.5, 0.25, 0.125]


# --- datasets and iterators -------------------------------------------------------------------
@pytest.mark.parametrize("cls", classes_of("dataset"), ids=lambda c: c.__name__)
@settings(max_examples=25, deadline=None)
@given(
    step=st.sampled_from(
        ["map", "filter", "batch", "shuffle", "take", "skip", "repeat", "prefetch"]
    ),
    argument=junk,
)
def test_a_refused_step_leaves_the_dataset(cls, step, argument, tmp_path_factory):
    if cls is ek.data.TextLineDataset:
        path = tmp_path_factory.mktemp("lines") / "a.txt"
        path.write_text("one\ntwo\nthree\n")
        dataset = cls(str(path)).shuffle(3, seed=1)
    else:
        dataset = cls.range(5).shuffle(5, seed=1)
    next(iter(dataset))  # one epoch started: the shuffle's epoch counter moved
    unchanged_if_it_fails(lambda: picture(dataset), lambda: getattr(dataset, step)(argument))


@pytest.mark.parametrize(
    "cls",
    classes_of("iterator (TF: raises an element's error, then goes on)"),
    ids=lambda c: c.__name__,
)
def test_an_iterator_raises_an_elements_error_then_goes_on_as_tf(cls):
    def times_ten(x):
        if int(x) == 1:
            raise ek.errors.InvalidArgumentError("element 1 is bad", op="map")
        return x * 10

    iterator = cls(ek.data.Dataset.range(4).map(times_ten))
    assert int(iterator.get_next()) == 0
    with pytest.raises(ek.errors.InvalidArgumentError, match="element 1 is bad"):
        iterator.get_next()
    assert [int(x) for x in iterator] == [20, 30]  # the rest of the epoch is not lost


# --- gradient tapes ---------------------------------------------------------------------------
@pytest.mark.parametrize("cls", classes_of("gradient tape"), ids=lambda c: c.__name__)
@pytest.mark.parametrize("persistent", [False, True])
def test_a_refused_gradient_call_leaves_the_tape_usable(cls, persistent):
    x = ek.constant([1.0, 2.0])
    with cls(persistent=persistent) as tape:
        tape.watch(x)
        y = ek.reduce_sum(x * x)
    for call in (
        lambda: tape.gradient(None, x),
        lambda: tape.gradient(y, "x"),
        lambda: tape.gradient(y, x, output_gradients=[1.0, 2.0, 3.0]),
        lambda: tape.gradient(y, x, unconnected_gradients="sometimes"),
    ):
        with pytest.raises((ek.errors.OpError, TypeError, ValueError)):
            call()
    assert tape.gradient(y, x).numpy().tolist() == [2.0, 4.0]  # TF: refused before it is used


# --- traced functions ---------------------------------------------------------------------------
@pytest.mark.parametrize("cls", classes_of("traced function"), ids=lambda c: c.__name__)
def test_a_trace_that_raises_is_not_kept(cls):
    v = ek.Variable([1.0, 2.0])

    def scaled(x):
        if len(x.shape) == 2:  # the user's code raises for this input, while tracing
            raise ValueError("the user's function raised while tracing")
        return ek.reduce_sum(x * v)

    function = ek.function(scaled)
    assert isinstance(function, cls)
    assert float(function(ek.constant([1.0, 1.0]))) == 3.0  # traced once
    before = picture(function, v)
    with pytest.raises(ValueError, match="while tracing"):
        function(ek.constant([[1.0, 1.0]]))  # a new shape: traced again, and it raises
    assert picture(function, v) == before
    assert float(function(ek.constant([2.0, 2.0]))) == 6.0  # the first trace still works


def test_saving_under_a_file_changes_nothing(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    checkpoint = ek.train.Checkpoint(w=ek.Variable([1.0]))

    def observe():
        return picture(checkpoint), files(tmp_path)

    must_fail_and_change_nothing(observe, lambda: checkpoint.save(str(blocker / "ckpt")))
    must_fail_and_change_nothing(observe, lambda: checkpoint.write(str(blocker / "weights")))
    manager = ek.train.CheckpointManager(checkpoint, str(blocker / "dir"))
    must_fail_and_change_nothing(lambda: (picture(manager), files(tmp_path)), manager.save)
    must_fail_and_change_nothing(
        lambda: files(tmp_path), lambda: ek.summary.create_file_writer(str(blocker / "logs"))
    )
