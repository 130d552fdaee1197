"""Checkpoint.write / read (TF2: no counter, no state file) and ek.train.list_variables."""

import os

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import DataLossError, NotFoundError


def test_write_uses_the_prefix_as_given_and_leaves_the_counter(tmp_path):
    v = ek.Variable([1.0, 2.0])
    checkpoint = ek.train.Checkpoint(v=v)
    path = checkpoint.write(tmp_path / "weights")
    assert path == str(tmp_path / "weights")
    assert int(checkpoint.save_counter) == 0
    assert sorted(os.listdir(tmp_path)) == ["weights.index.json", "weights.npz"]
    assert ek.train.latest_checkpoint(str(tmp_path)) is None  # no state file written
    v.assign([0.0, 0.0])
    checkpoint.read(path).assert_consumed()
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])


def test_write_overwrites_and_read_restores_the_last_write(tmp_path):
    v = ek.Variable(1.0)
    checkpoint = ek.train.Checkpoint(v=v)
    checkpoint.write(tmp_path / "w")
    v.assign(7.0)
    checkpoint.write(tmp_path / "w")
    v.assign(0.0)
    checkpoint.read(tmp_path / "w")
    assert float(v) == 7.0


def test_read_of_a_missing_path_names_it_and_keeps_values(tmp_path):
    v = ek.Variable(4.0)
    with pytest.raises(NotFoundError, match="not found"):
        ek.train.Checkpoint(v=v).read(tmp_path / "absent")
    assert float(v) == 4.0


def test_list_variables_gives_sorted_names_and_shapes(tmp_path):
    model = ek.keras.layers.Dense(3)
    model(ek.zeros([1, 2]))
    path = ek.train.Checkpoint(model=model).save(tmp_path / "ckpt")
    assert ek.train.list_variables(path) == [
        ("model/bias/.ATTRIBUTES/VARIABLE_VALUE", [3]),
        ("model/kernel/.ATTRIBUTES/VARIABLE_VALUE", [2, 3]),
        ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", []),
    ]
    assert ek.train.list_variables(str(tmp_path)) == ek.train.list_variables(path)


def test_list_variables_errors(tmp_path):
    with pytest.raises(NotFoundError, match="list_variables: the directory .* no checkpoint"):
        ek.train.list_variables(tmp_path)
    path = ek.train.Checkpoint(v=ek.Variable(1.0)).write(tmp_path / "w")
    with open(path + ".npz", "ab") as f:
        f.write(b"x")  # the checksum no longer matches
    with pytest.raises(DataLossError):
        ek.train.list_variables(path)
