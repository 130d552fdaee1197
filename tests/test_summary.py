"""Summaries: JSON lines on disk, default writers, recording policies, flushing."""

import json
import os

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import FailedPreconditionError, InvalidArgumentError
from eagerkit.train import global_step as global_step_module


@pytest.fixture
def fresh_global_step(monkeypatch):
    monkeypatch.setattr(global_step_module, "_global_step", None)


def lines(writer):
    with open(writer.path) as f:
        return [json.loads(line) for line in f]


def test_scalar_lines_on_disk(tmp_path):
    writer = ek.summary.create_file_writer(str(tmp_path / "logs"))
    assert os.path.dirname(writer.path) == str(tmp_path / "logs")
    assert os.path.basename(writer.path).startswith("events.") and writer.path.endswith(".jsonl")
    with writer.as_default():
        assert ek.summary.scalar("loss", ek.constant(0.5), step=1)
        assert ek.summary.scalar("accuracy", 0.75, family="eval", step=1)
    records = lines(writer)
    assert [(r["kind"], r["tag"], r["step"], r["value"]) for r in records] == [
        ("scalar", "loss", 1, 0.5),
        ("scalar", "eval/accuracy", 1, 0.75),
    ]
    assert all(isinstance(r["wall_time"], float) for r in records)


def test_no_default_writer_means_no_output(tmp_path):
    writer = ek.summary.create_file_writer(str(tmp_path))
    assert ek.summary.scalar("loss", 1.0, step=0) is False
    assert lines(writer) == []


def test_queue_and_flush(tmp_path):
    writer = ek.summary.create_file_writer(str(tmp_path), max_queue=3)
    writer.set_as_default()
    try:
        ek.summary.scalar("a", 1.0, step=0)
        ek.summary.scalar("a", 2.0, step=1)
        assert lines(writer) == []  # still queued
        ek.summary.scalar("a", 3.0, step=2)
        assert [r["value"] for r in lines(writer)] == [1.0, 2.0, 3.0]  # the queue filled
        ek.summary.scalar("a", 4.0, step=3)
        ek.summary.flush()
        assert [r["value"] for r in lines(writer)][-1] == 4.0
    finally:
        ek.summary._writers.remove(writer)
    writer.close()
    with pytest.raises(FailedPreconditionError, match="is closed"):
        writer.write({"kind": "scalar"})


def test_record_every_n_global_steps(tmp_path, fresh_global_step):
    step = ek.train.get_or_create_global_step()
    writer = ek.summary.create_file_writer(str(tmp_path))
    w = ek.Variable(1.0)
    opt = ek.train.GradientDescentOptimizer(0.1)
    with writer.as_default():
        for _ in range(7):
            with ek.summary.record_summaries_every_n_global_steps(3, global_step=step):
                ek.summary.scalar("loss", float(w))  # step defaults to the global step
                opt.apply_gradients([(ek.constant(1.0), w)], global_step=step)
    assert [r["step"] for r in lines(writer)] == [0, 3, 6]


def test_always_and_never_record(tmp_path):
    writer = ek.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        with ek.summary.never_record_summaries():
            assert not ek.summary.should_record_summaries()
            assert ek.summary.scalar("x", 1.0, step=0) is False
            with ek.summary.always_record_summaries():
                assert ek.summary.scalar("x", 2.0, step=1)
    assert [r["value"] for r in lines(writer)] == [2.0]


def test_histogram_and_non_finite_values(tmp_path):
    writer = ek.summary.create_file_writer(str(tmp_path))
    values = np.array([0.0, 1.0, 1.0, 2.0, 3.0, np.inf], dtype=np.float32)
    with writer.as_default():
        ek.summary.histogram("w", ek.constant(values), step=5, buckets=3)
        ek.summary.scalar("loss", float("nan"), step=5)
    hist, loss = ek.summary.read_events(str(tmp_path))
    assert hist["kind"] == "histogram" and hist["step"] == 5
    assert hist["edges"] == [0.0, 1.0, 2.0, 3.0] and hist["counts"] == [1, 2, 2]
    assert (hist["min"], hist["max"], hist["count"]) == (0.0, "Infinity", 6)
    assert loss["value"] == "NaN"


def test_step_errors(tmp_path, fresh_global_step):
    writer = ek.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        with pytest.raises(InvalidArgumentError, match="no step given and no global step"):
            ek.summary.scalar("loss", 1.0)
        with pytest.raises(InvalidArgumentError, match=r"expected one number, got shape \(2,\)"):
            ek.summary.scalar("loss", ek.constant([1.0, 2.0]), step=0)


def test_read_events_of_several_writers(tmp_path):
    first = ek.summary.create_file_writer(str(tmp_path))
    second = ek.summary.create_file_writer(str(tmp_path))
    assert first.path != second.path
    for writer, value in ((first, 1.0), (second, 2.0)):
        with writer.as_default():
            ek.summary.scalar("loss", value, step=0)
    assert sorted(r["value"] for r in ek.summary.read_events(str(tmp_path))) == [1.0, 2.0]
    assert [r["value"] for r in ek.summary.read_events(second.path)] == [2.0]
