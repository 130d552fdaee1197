"""Checkpoint details that TF 2's object-based checkpoints have (checkpoint_paths.py,
list_wrapper.py): one variable reached by two paths is saved once and restored through
either; a list filled after it was assigned is tracked and an append restores; ``write``
leaves ``save_counter`` alone, ``save`` moves it, a restore brings it back; both return the
path prefix as a string.
"""

import json
import os
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.train import checkpoint_io

VALUES = st.lists(st.floats(-100, 100, width=32), min_size=6, max_size=6)


def built_dense(values=None):
    layer = ek.keras.layers.Dense(2)
    layer(ek.ones([1, 3]))
    if values is not None:
        layer.kernel.assign(np.reshape(values, (3, 2)).astype("float32"))
    return layer


@settings(max_examples=10, deadline=None)
@given(values=VALUES)
def test_a_variable_reached_two_ways_is_saved_once(tmp_path_factory, values):
    layer = built_dense(values)
    path = ek.train.Checkpoint(a=layer, b=layer.kernel).write(
        str(tmp_path_factory.mktemp("ckpt") / "ckpt")
    )
    names = [name for name, _ in ek.train.list_variables(path)]
    assert names == [
        "a/bias/.ATTRIBUTES/VARIABLE_VALUE",
        "b/.ATTRIBUTES/VARIABLE_VALUE",  # the shortest path: b, not a/kernel
        "save_counter/.ATTRIBUTES/VARIABLE_VALUE",
    ]
    with np.load(f"{path}.npz") as data:
        assert len(data.files) == 3  # one array for the kernel
    with open(f"{path}.index.json") as f:
        index = json.load(f)
    assert index["aliases"] == {
        "a/kernel/.ATTRIBUTES/VARIABLE_VALUE": "b/.ATTRIBUTES/VARIABLE_VALUE"
    }


@settings(max_examples=10, deadline=None)
@given(values=VALUES)
def test_it_is_restored_through_either_path(tmp_path_factory, values):
    layer = built_dense(values)
    path = ek.train.Checkpoint(a=layer, b=layer.kernel).write(
        str(tmp_path_factory.mktemp("ckpt") / "ckpt")
    )
    expected = layer.kernel.numpy()
    built = built_dense()
    ek.train.Checkpoint(a=built).read(path).assert_consumed()  # only a/kernel here
    np.testing.assert_array_equal(built.kernel.numpy(), expected)
    lazy = ek.keras.layers.Dense(2)
    status = ek.train.Checkpoint(a=lazy).read(path)  # no kernel yet: it waits for one
    lazy(ek.ones([1, 3]))
    np.testing.assert_array_equal(lazy.kernel.numpy(), expected)
    status.assert_consumed()
    alone = ek.Variable(np.zeros((3, 2), "float32"))
    ek.train.Checkpoint(b=alone).read(path)
    np.testing.assert_array_equal(alone.numpy(), expected)
    both, other = built_dense(), ek.Variable(np.zeros((3, 2), "float32"))
    ek.train.Checkpoint(a=both, b=other).read(path)  # two objects now: both get the value
    np.testing.assert_array_equal(both.kernel.numpy(), expected)
    np.testing.assert_array_equal(other.numpy(), expected)


def test_a_mismatch_through_the_second_path_changes_nothing(tmp_path):
    layer = built_dense(np.arange(6.0))
    path = ek.train.Checkpoint(a=layer, b=layer.kernel).write(str(tmp_path / "ckpt"))
    wide = ek.keras.layers.Dense(5)
    wide(ek.ones([1, 3]))
    before = [v.numpy() for v in wide.weights]
    with pytest.raises(ValueError, match=r"b/\.ATTRIBUTES/VARIABLE_VALUE: saved float32 shape"):
        ek.train.Checkpoint(a=wide).read(path)
    for kept, now in zip(before, wide.weights, strict=True):
        np.testing.assert_array_equal(kept, now.numpy())


def test_a_checkpoint_without_aliases_reads_as_before(tmp_path):
    prefix = str(tmp_path / "old")
    checkpoint_io.write(prefix, {"v/.ATTRIBUTES/VARIABLE_VALUE": np.float32(4.0)})
    with open(f"{prefix}.index.json") as f:
        assert "aliases" not in json.load(f)  # the files an earlier eagerkit wrote
    v = ek.Variable(0.0)
    ek.train.Checkpoint(v=v).read(prefix).assert_consumed()
    assert float(v) == 4.0


def test_aliases_naming_no_entry_are_refused(tmp_path):
    prefix = str(tmp_path / "bad")
    checkpoint_io.write(
        prefix, {"v/.ATTRIBUTES/VARIABLE_VALUE": np.float32(4.0)}, {"w/x": "nowhere"}
    )
    v = ek.Variable(0.0)
    with pytest.raises(ek.errors.DataLossError, match="aliases is not an object naming entries"):
        ek.train.Checkpoint(v=v).read(prefix)
    assert float(v) == 0.0


def test_a_list_given_to_a_checkpoint_restores_on_append(tmp_path):
    saved = ek.train.Checkpoint()
    saved.listed = [ek.Variable(1.0)]
    saved.listed.append(ek.Variable(2.0))  # appended after assignment: saved too
    path = saved.save(str(tmp_path / "ckpt"))
    restore = ek.train.Checkpoint()
    status = restore.restore(path)  # no listed yet
    restore.listed = []
    assert repr(restore.listed) == "ListWrapper([])" and restore.listed == []
    first, second = ek.Variable(0.0), ek.Variable(0.0)
    restore.listed.append(first)
    assert (float(first), float(second)) == (1.0, 0.0)
    restore.listed.append(second)
    assert float(second) == 2.0
    status.assert_consumed()


def test_the_wrapper_is_the_users_list(tmp_path):
    items = [ek.Variable(3.0)]
    checkpoint = ek.train.Checkpoint(listed=items)
    items.append(ek.Variable(4.0))  # through the user's own name: the checkpoint sees it
    assert len(checkpoint.listed) == 2 and checkpoint.listed[1] is items[1]
    path = checkpoint.write(str(tmp_path / "ckpt"))
    assert [name for name, _ in ek.train.list_variables(path)][:2] == [
        "listed/0/.ATTRIBUTES/VARIABLE_VALUE",
        "listed/1/.ATTRIBUTES/VARIABLE_VALUE",
    ]


class Appending(ek.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.listed = []

    def build(self, input_shape):
        self.listed.append(self.add_weight(shape=[2], initializer="zeros", name="w"))

    def call(self, inputs):
        return inputs * self.listed[0]


def test_a_weight_a_layer_appends_to_its_list_in_build_is_restored(tmp_path):
    layer = Appending()
    layer(ek.ones([1, 2]))
    layer.listed[0].assign([5.0, 6.0])
    path = ek.train.Checkpoint(layer=layer).write(str(tmp_path / "ckpt"))
    fresh = Appending()
    status = ek.train.Checkpoint(layer=fresh).read(path)  # before the build
    fresh(ek.ones([1, 2]))
    assert fresh.listed[0].numpy().tolist() == [5.0, 6.0]
    status.assert_consumed()


@pytest.mark.parametrize("as_path", [str, pathlib.Path])
def test_write_keeps_the_counter_save_moves_it_and_a_restore_brings_it_back(tmp_path, as_path):
    checkpoint = ek.train.Checkpoint(v=ek.Variable(1.0))
    written = checkpoint.write(as_path(tmp_path / "weights"))
    assert written == str(tmp_path / "weights") and int(checkpoint.save_counter) == 0
    first = checkpoint.save(as_path(tmp_path / "ckpt"))
    second = checkpoint.save(as_path(tmp_path / "ckpt"))
    assert (first, second) == (str(tmp_path / "ckpt-1"), str(tmp_path / "ckpt-2"))
    assert int(checkpoint.save_counter) == 2
    checkpoint.write(str(tmp_path / "later"))
    assert int(checkpoint.save_counter) == 2
    other = ek.train.Checkpoint(v=ek.Variable(0.0))
    other.restore(first)
    assert int(other.save_counter) == 1  # saved with the first save's number
    assert other.save(str(tmp_path / "again")) == str(tmp_path / "again-2")
    other.read(written)
    assert int(other.save_counter) == 0  # written before any save
    assert sorted(os.listdir(tmp_path))[:2] == ["again-2.index.json", "again-2.npz"]
