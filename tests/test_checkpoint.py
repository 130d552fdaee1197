"""Checkpoints: the seed example, files on disk, round trips with optimizer slots, deferred
restore, CheckpointManager, cross-device restore, and corrupt files that change nothing."""

import json
import os

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.train import global_step as global_step_module

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"  # TF's full name
SIM = "/job:localhost/replica:0/task:0/device:SIM:0"  # TF's full name


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
    assert names == [
        "checkpoint",
        "ckpt-1.index.json",
        "ckpt-1.npz",
        "ckpt-2.index.json",
        "ckpt-2.npz",
    ]  # no temporary files left behind
    state = json.loads((tmp_path / "checkpoint").read_text())
    assert state == {
        "model_checkpoint_path": "ckpt-2",
        "all_model_checkpoint_paths": ["ckpt-1", "ckpt-2"],
    }
    assert ek.train.latest_checkpoint(str(tmp_path)) == second
    index = json.loads((tmp_path / "ckpt-2.index.json").read_text())
    assert index["format"] == "eagerkit-checkpoint" and index["version"] == 2
    assert sorted(index["entries"]) == [
        "save_counter/.ATTRIBUTES/VARIABLE_VALUE",
        "w/.ATTRIBUTES/VARIABLE_VALUE",
    ]
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
    [
        lambda: ek.train.AdamOptimizer(0.1),
        lambda: ek.train.RMSPropOptimizer(0.1, momentum=0.5),
        lambda: ek.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
    ],
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
    for v, want in zip(model.variables, saved, strict=True):
        np.testing.assert_array_equal(v.numpy(), want)
    assert int(step) == 41


def test_deferred_restore_for_layers_built_later(tmp_path):
    def make():
        model = ek.Sequential([ek.layers.Dense(4, activation="relu"), ek.layers.Dense(1)])
        return model, ek.train.AdamOptimizer(0.05)

    x, y = ek.constant([[1.0, 2.0], [3.0, -1.0]]), ek.constant([[1.0], [0.0]])

    def step(model, optimizer):
        with ek.GradientTape() as tape:
            loss = ek.reduce_mean((model(x) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))

    model, optimizer = make()
    for _ in range(2):
        step(model, optimizer)
    path = ek.train.Checkpoint(model=model, optimizer=optimizer).save(tmp_path / "ckpt")

    fresh, fresh_optimizer = make()  # not called yet: its layers have no variables
    status = ek.train.Checkpoint(model=fresh, optimizer=fresh_optimizer).restore(path)
    status.assert_existing_objects_matched()  # nothing that exists was left out
    with pytest.raises(
        AssertionError,
        match=r"model/_tracked_layers/0/kernel/.ATTRIBUTES/VARIABLE_VALUE "
        r"\(waiting for 'kernel' to be created\)",
    ):
        status.assert_consumed()
    fresh(x)  # builds the layers; the pending values (and Adam's slots) arrive now
    status.assert_consumed()
    for got, want in zip(fresh.variables, model.variables, strict=True):
        np.testing.assert_array_equal(got.numpy(), want.numpy())
    step(model, optimizer)
    step(fresh, fresh_optimizer)  # resumes exactly: same m, v and step count
    for got, want in zip(fresh.variables, model.variables, strict=True):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


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
    assert on_cpu.device == CPU
    np.testing.assert_array_equal(on_cpu.numpy(), [1.0, 2.0, 3.0])
    on_cpu.assign([7.0, 8.0, 9.0])
    back = ek.train.Checkpoint(v=on_cpu).save(tmp_path / "other")
    ek.train.Checkpoint(v=on_sim).restore(back)
    assert on_sim.device == SIM
    np.testing.assert_array_equal(on_sim.numpy(), [7.0, 8.0, 9.0])
    assert float(ek.reduce_sum(on_sim)) == 24.0  # still usable on its device


def test_bad_roots_are_refused():
    with pytest.raises(TypeError, match="'x' is a Tensor, which is immutable"):
        ek.train.Checkpoint(x=ek.constant(1.0))
    with pytest.raises(TypeError, match="'lr' is a float"):
        ek.train.Checkpoint(lr=0.1)
