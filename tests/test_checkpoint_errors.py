"""Broken checkpoints: truncated, corrupt, mismatched or missing files raise a clear error
and change no variable; a failed save leaves no files and keeps the counter."""

import json
import os

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import DataLossError, InvalidArgumentError, NotFoundError
from eagerkit.train import checkpoint_io


@pytest.fixture
def saved(tmp_path):
    """A checkpoint of (a, b), after which the live variables moved on."""
    a, b = ek.Variable([1.0, 2.0]), ek.Variable(3.0)
    checkpoint = ek.train.Checkpoint(a=a, b=b)
    path = checkpoint.save(tmp_path / "ckpt")
    a.assign([-1.0, -2.0])
    b.assign(-3.0)
    return checkpoint, path, (a, b)


def assert_unchanged(checkpoint, variables):
    a, b = variables
    np.testing.assert_array_equal(a.numpy(), [-1.0, -2.0])
    assert float(b) == -3.0 and int(checkpoint.save_counter) == 1


def test_truncated_data_file(saved):
    checkpoint, path, variables = saved
    data = open(f"{path}.npz", "rb").read()
    open(f"{path}.npz", "wb").write(data[: len(data) // 2])
    with pytest.raises(DataLossError, match=r"ckpt-1.npz is corrupt or truncated"):
        checkpoint.restore(path)
    assert_unchanged(checkpoint, variables)


def test_flipped_byte_in_data_file(saved):
    checkpoint, path, variables = saved
    data = bytearray(open(f"{path}.npz", "rb").read())
    data[len(data) // 3] ^= 0xFF
    open(f"{path}.npz", "wb").write(bytes(data))
    with pytest.raises(DataLossError, match="SHA-256"):
        checkpoint.restore(path)
    assert_unchanged(checkpoint, variables)


def test_corrupt_index(saved):
    checkpoint, path, variables = saved
    text = open(f"{path}.index.json").read()
    open(f"{path}.index.json", "w").write(text[:-20])
    with pytest.raises(DataLossError, match=r"the index .*ckpt-1.index.json is corrupt or trunc"):
        checkpoint.restore(path)
    assert_unchanged(checkpoint, variables)


def test_index_and_data_from_different_saves(saved, tmp_path):
    checkpoint, path, variables = saved
    other = ek.train.Checkpoint(a=ek.Variable([5.0, 6.0]), b=ek.Variable(7.0))
    other_path = other.save(tmp_path / "other")
    os.replace(f"{other_path}.npz", f"{path}.npz")
    with pytest.raises(DataLossError, match="belongs to another save"):
        checkpoint.restore(path)
    assert_unchanged(checkpoint, variables)


def test_missing_checkpoint_lists_what_exists(saved, tmp_path):
    checkpoint, path, variables = saved
    with pytest.raises(NotFoundError, match=r"ckpt-7' not found.*Checkpoints in .*\['ckpt-1'\]"):
        checkpoint.restore(str(tmp_path / "ckpt-7"))
    os.remove(f"{path}.npz")
    with pytest.raises(NotFoundError, match="the data file .* is missing"):
        checkpoint.restore(path)
    assert_unchanged(checkpoint, variables)


def test_shape_and_dtype_mismatch_change_nothing(saved):
    _, path, _ = saved
    a, b = ek.Variable([9.0, 9.0, 9.0]), ek.Variable(9.0)
    with pytest.raises(
        InvalidArgumentError,
        match=r"a/.ATTRIBUTES/VARIABLE_VALUE: saved float32 "
        r"shape \(2,\), the variable 'Variable:0' is float32 shape \(3,\)",
    ):
        ek.train.Checkpoint(a=a, b=b).restore(path)
    assert float(b) == 9.0  # b matched, but nothing is assigned when anything fails
    c = ek.Variable(np.array(9.0))  # float64
    with pytest.raises(
        InvalidArgumentError,
        match="saved float32 shape \\(\\), the variable 'Variable:0' is float64",
    ):
        ek.train.Checkpoint(a=ek.Variable([0.0, 0.0]), b=c).restore(path)
    assert float(c) == 9.0


def test_wrong_version_is_refused(saved):
    checkpoint, path, variables = saved
    index = json.loads(open(f"{path}.index.json").read())
    index["version"] = 99
    index["index_sha256"] = checkpoint_io._index_digest(index)  # as a newer eagerkit would
    open(f"{path}.index.json", "w").write(json.dumps(index))
    with pytest.raises(
        InvalidArgumentError, match="format version 99; this eagerkit reads version 2"
    ):
        checkpoint.restore(path)
    assert_unchanged(checkpoint, variables)


def test_a_failed_save_leaves_no_files_and_keeps_the_counter(saved, monkeypatch, tmp_path):
    checkpoint, path, _ = saved

    def broken_savez(file, **arrays):
        file.write(b"partial")
        raise OSError("disk full")

    monkeypatch.setattr(np, "savez", broken_savez)
    with pytest.raises(OSError, match="disk full"):
        checkpoint.save(tmp_path / "ckpt")
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "ckpt-1.index.json", "ckpt-1.npz"]
    assert int(checkpoint.save_counter) == 1
    assert ek.train.latest_checkpoint(str(tmp_path)) == path
