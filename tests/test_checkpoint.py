"""Checkpoints: the seed example, files on disk, round trips with optimizer slots, deferred
restore, CheckpointManager, cross-device restore, and corrupt files that change nothing."""

import json
import os

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import DataLossError, InvalidArgumentError, NotFoundError
from eagerkit.train import global_step as global_step_module


def test_seed_003_checkpoint_example(tmp_path):
    x = ek.Variable(10.0)
    y = ek.Variable(5.0)
    checkpoint = ek.Checkpoint(x=x, y=y)
    x.assign(2.0)
    save_path = checkpoint.save(str(tmp_path / "ckpt"))
    x.assign(11.0)
    assert 16.0 == (x + y).numpy()
    checkpoint.restore(save_path)
    assert 7.0 == (x + y).numpy()
    assert save_path == str(tmp_path / "ckpt-1")


def test_files_on_disk_and_state(tmp_path):
    w = ek.Variable([[1.0, 2.0]], name="w")
    checkpoint = ek.train.Checkpoint(w=w)
    first = checkpoint.save(tmp_path / "ckpt")
    second = checkpoint.save(tmp_path / "ckpt")
    assert (first, second) == (f"{tmp_path}/ckpt-1", f"{tmp_path}/ckpt-2")
    names = sorted(os.listdir(tmp_path))
    assert names == ["checkpoint", "ckpt-1.index.json", "ckpt-1.npz", "ckpt-2.index.json",
                     "ckpt-2.npz"]  # no temporary files left behind
    state = json.loads((tmp_path / "checkpoint").read_text())
    assert state == {"model_checkpoint_path": "ckpt-2",
                     "all_model_checkpoint_paths": ["ckpt-1", "ckpt-2"]}
    assert ek.train.latest_checkpoint(str(tmp_path)) == second
    index = json.loads((tmp_path / "ckpt-2.index.json").read_text())
    assert index["format"] == "eagerkit-checkpoint" and index["version"] == 1
    assert sorted(index["entries"]) == ["save_counter/.ATTRIBUTES/VARIABLE_VALUE",
                                        "w/.ATTRIBUTES/VARIABLE_VALUE"]
    spec = index["entries"]["w/.ATTRIBUTES/VARIABLE_VALUE"]
    with np.load(tmp_path / "ckpt-2.npz", allow_pickle=False) as archive:
        np.testing.assert_array_equal(archive[spec["array"]], [[1.0, 2.0]])
        assert archive[spec["array"]].dtype == np.float32


def test_restore_brings_back_the_save_counter(tmp_path):
    checkpoint = ek.train.Checkpoint(w=ek.Variable(1.0))
    first = checkpoint.save(tmp_path / "ckpt")
    checkpoint.save(tmp_path / "ckpt")
    checkpoint.restore(first)
    assert int(checkpoint.save_counter) == 1
    assert checkpoint.save(tmp_path / "ckpt").endswith("ckpt-2")


class SeedModel:
    """Seed 003's plain-object model: Variables as attributes are enough to be saved."""

    def __init__(self):
        self.W = ek.Variable([5.0, -1.0], name="weight")
        self.B = ek.Variable(10.0, name="bias")

    def loss(self, x, y):
        return ek.reduce_mean((ek.reduce_sum(x * self.W, axis=1) + self.B - y) ** 2)


def train(model, optimizer, steps, step_counter):
    x = ek.constant([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])
    y = ek.constant([1.0, 2.0, 3.0])
    grad = ek.implicit_gradients(model.loss)
    for _ in range(steps):
        optimizer.apply_gradients(grad(x, y), global_step=step_counter)


@pytest.mark.parametrize(
    "make_optimizer",
    [lambda: ek.train.AdamOptimizer(0.1), lambda: ek.train.RMSPropOptimizer(0.1, momentum=0.5),
     lambda: ek.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True)],
    ids=["adam", "rmsprop", "momentum"],
)
def test_round_trip_with_optimizer_slots_resumes_training_exactly(tmp_path, make_optimizer):
    model, optimizer, step = SeedModel(), make_optimizer(), ek.Variable(0, dtype=ek.int64)
    checkpoint = ek.train.Checkpoint(model=model, optimizer=optimizer, step=step)
    train(model, optimizer, 3, step)
    path = checkpoint.save(tmp_path / "ckpt")
    train(model, optimizer, 2, step)
    expected = [model.W.numpy().copy(), model.B.numpy().copy()]

    fresh, fresh_optimizer = SeedModel(), make_optimizer()
    fresh_step = ek.Variable(0, dtype=ek.int64)
    restored = ek.train.Checkpoint(model=fresh, optimizer=fresh_optimizer, step=fresh_step)
    status = restored.restore(path)
    assert int(fresh_step) == 3 and int(fresh_optimizer.iterations) == 3
    train(fresh, fresh_optimizer, 2, fresh_step)  # the slots were waiting for their first use
    np.testing.assert_allclose(fresh.W.numpy(), expected[0], rtol=1e-6)
    np.testing.assert_allclose(fresh.B.numpy(), expected[1], rtol=1e-6)
    status.assert_consumed()


def test_slot_keys_follow_the_variable_paths(tmp_path):
    model, optimizer = SeedModel(), ek.train.AdamOptimizer(0.1)
    train(model, optimizer, 1, None)
    path = ek.train.Checkpoint(net=model, opt=optimizer).save(tmp_path / "ckpt")
    keys = json.loads(open(f"{path}.index.json").read())["entries"]
    assert "net/W/.OPTIMIZER_SLOT/opt/m" in keys and "net/B/.OPTIMIZER_SLOT/opt/v" in keys
    assert "opt/iter/.ATTRIBUTES/VARIABLE_VALUE" in keys


def test_keras_style_model_and_global_step(tmp_path, monkeypatch):
    monkeypatch.setattr(global_step_module, "_global_step", None)
    model = ek.Sequential([ek.layers.Dense(3), ek.layers.Dense(2)])
    model(ek.constant([[1.0, 2.0]]))
    step = ek.train.get_or_create_global_step()
    step.assign(41)
    checkpoint = ek.train.Checkpoint(model=model, global_step=step)
    path = checkpoint.save(tmp_path / "ckpt")
    saved = [v.numpy().copy() for v in model.variables]
    for v in model.variables:
        v.assign(ek.zeros_like(v))
    step.assign(0)
    checkpoint.restore(path).assert_consumed()
    for v, want in zip(model.variables, saved):
        np.testing.assert_array_equal(v.numpy(), want)
    assert int(step) == 41


class LazyLayer(ek.layers.Layer):
    """Makes its variable on the first call, like Dense, and asks for deferred values."""

    def build(self, input_shape):
        self.kernel = self.add_weight("kernel", [input_shape[-1], 2])
        ek.train.restore_deferred(self)

    def call(self, inputs):
        return ek.matmul(inputs, self.kernel)


def test_deferred_restore_for_variables_created_later(tmp_path):
    layer = LazyLayer()
    layer(ek.ones([1, 3]))
    optimizer = ek.train.MomentumOptimizer(0.1, 0.9)
    optimizer.apply_gradients([(ek.ones([3, 2]), layer.kernel)])
    path = ek.train.Checkpoint(layer=layer, optimizer=optimizer).save(tmp_path / "ckpt")

    fresh, fresh_optimizer = LazyLayer(), ek.train.MomentumOptimizer(0.1, 0.9)
    status = ek.train.Checkpoint(layer=fresh, optimizer=fresh_optimizer).restore(path)
    status.assert_existing_objects_matched()  # nothing that exists was left out
    with pytest.raises(AssertionError, match=r"layer/kernel/.ATTRIBUTES/VARIABLE_VALUE "
                       r"\(waiting for 'kernel' to be created\)"):
        status.assert_consumed()
    fresh(ek.ones([1, 3]))
    np.testing.assert_array_equal(fresh.kernel.numpy(), layer.kernel.numpy())
    np.testing.assert_array_equal(
        fresh_optimizer.get_slot(fresh.kernel, "momentum").numpy(), np.ones([3, 2])
    )
    status.assert_consumed()


def test_assert_consumed_reports_both_directions(tmp_path):
    path = ek.train.Checkpoint(a=ek.Variable(1.0)).save(tmp_path / "ckpt")
    status = ek.train.Checkpoint(a=ek.Variable(0.0), b=ek.Variable(2.0)).restore(path)
    with pytest.raises(AssertionError, match="got no value from the checkpoint .*: b$"):
        status.assert_consumed()
    assert status.expect_partial() is status
    none = ek.train.Checkpoint(a=ek.Variable(0.0)).restore(None)
    with pytest.raises(AssertionError, match=r"No checkpoint specified \(save_path=None\)"):
        none.assert_consumed()


def test_checkpoint_manager_keeps_the_newest(tmp_path):
    w = ek.Variable(0.0)
    manager = ek.train.CheckpointManager(ek.train.Checkpoint(w=w), str(tmp_path), max_to_keep=2)
    assert manager.latest_checkpoint is None
    for value in (1.0, 2.0, 3.0):
        w.assign(value)
        manager.save()
    assert manager.checkpoints == [f"{tmp_path}/ckpt-2", f"{tmp_path}/ckpt-3"]
    assert not (tmp_path / "ckpt-1.npz").exists() and not (tmp_path / "ckpt-1.index.json").exists()
    assert ek.train.latest_checkpoint(str(tmp_path)) == f"{tmp_path}/ckpt-3"
    again = ek.train.CheckpointManager(ek.train.Checkpoint(w=w), str(tmp_path), max_to_keep=2)
    assert again.checkpoints == manager.checkpoints
    again.checkpoint.restore(manager.checkpoints[0])
    assert float(w) == 2.0
    with pytest.raises(ValueError, match="max_to_keep must be >= 1 or None"):
        ek.train.CheckpointManager(ek.train.Checkpoint(w=w), str(tmp_path), max_to_keep=0)


def test_restore_across_devices(tmp_path):
    ek.devices.enable_simulated_gpu()
    with ek.device("/sim:0"):
        on_sim = ek.Variable([1.0, 2.0, 3.0])
    path = ek.train.Checkpoint(v=on_sim).save(tmp_path / "ckpt")
    on_cpu = ek.Variable([0.0, 0.0, 0.0])
    ek.train.Checkpoint(v=on_cpu).restore(path).assert_consumed()
    assert on_cpu.device == "/cpu:0"
    np.testing.assert_array_equal(on_cpu.numpy(), [1.0, 2.0, 3.0])
    on_cpu.assign([7.0, 8.0, 9.0])
    back = ek.train.Checkpoint(v=on_cpu).save(tmp_path / "other")
    ek.train.Checkpoint(v=on_sim).restore(back)
    assert on_sim.device == "/sim:0"
    np.testing.assert_array_equal(on_sim.numpy(), [7.0, 8.0, 9.0])
    assert float(ek.reduce_sum(on_sim)) == 24.0  # still usable on its device


def test_bad_roots_are_refused():
    with pytest.raises(TypeError, match="'x' is a Tensor, which is immutable"):
        ek.train.Checkpoint(x=ek.constant(1.0))
    with pytest.raises(TypeError, match="'lr' is a float"):
        ek.train.Checkpoint(lr=0.1)


# --- broken files change nothing ----------------------------------------------------------------
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
    with pytest.raises(InvalidArgumentError, match=r"a/.ATTRIBUTES/VARIABLE_VALUE: saved float32 "
                       r"shape \(2,\), the variable 'Variable:0' is float32 shape \(3,\)"):
        ek.train.Checkpoint(a=a, b=b).restore(path)
    assert float(b) == 9.0  # b matched, but nothing is assigned when anything fails
    c = ek.Variable(np.array(9.0))  # float64
    with pytest.raises(InvalidArgumentError, match="saved float32 shape \\(\\), the variable "
                       "'Variable:0' is float64"):
        ek.train.Checkpoint(a=ek.Variable([0.0, 0.0]), b=c).restore(path)
    assert float(c) == 9.0


def test_wrong_version_is_refused(saved):
    checkpoint, path, variables = saved
    index = json.loads(open(f"{path}.index.json").read())
    index["version"] = 99
    open(f"{path}.index.json", "w").write(json.dumps(index))
    with pytest.raises(InvalidArgumentError, match="format version 99; this eagerkit reads version 1"):
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
