"""Checkpoints that cannot load the wrong thing: a checksummed index, clear errors for a
malformed one, and saves that survive being killed at any write or rename."""

import json
import os

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import DataLossError, OpError
from eagerkit.train import atomic_files, checkpoint_io

W0 = np.array([1.0, -2.0], dtype=np.float32)


def trained(value):
    """A variable and an Adam optimizer after two steps, so that m and v differ."""
    w = ek.Variable(W0 * value, name="w")
    optimizer = ek.train.AdamOptimizer(0.1)
    for g in ([0.5, -1.0], [2.0, 0.25]):
        optimizer.apply_gradients([(ek.constant(np.float32(value) * np.array(g, np.float32)), w)])
    return ek.train.Checkpoint(w=w, optimizer=optimizer), w, optimizer


def state_of(checkpoint, w, optimizer):
    return [
        w.numpy().copy(),
        optimizer.get_slot(w, "m").numpy().copy(),
        optimizer.get_slot(w, "v").numpy().copy(),
        int(optimizer.iterations),
        int(checkpoint.save_counter),
    ]


def assert_same(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


def test_every_one_bit_flip_in_the_index_is_refused_and_changes_nothing(tmp_path):
    path = trained(1.0)[0].save(tmp_path / "ckpt")
    original = open(checkpoint_io.index_path(path), "rb").read()
    target = trained(3.0)  # the same structure in another state: it must stay so
    before = state_of(*target)
    for position in range(len(original)):
        flipped = bytearray(original)
        flipped[position] ^= 1 << (position % 8)
        open(checkpoint_io.index_path(path), "wb").write(bytes(flipped))
        with pytest.raises(OpError):
            target[0].restore(path)
    assert_same(state_of(*target), before)
    open(checkpoint_io.index_path(path), "wb").write(original)
    target[0].restore(path).assert_consumed()
    assert_same(state_of(*target), [*state_of(*trained(1.0))[:4], 1])


def test_swapping_m_and_v_in_the_index_is_detected(tmp_path):
    checkpoint, w, optimizer = trained(1.0)
    path = checkpoint.save(tmp_path / "ckpt")
    index = json.loads(open(checkpoint_io.index_path(path)).read())
    m_key, v_key = (k for k in index["entries"] if "OPTIMIZER_SLOT" in k)
    entries = index["entries"]
    entries[m_key]["array"], entries[v_key]["array"] = (
        entries[v_key]["array"],
        entries[m_key]["array"],
    )
    open(checkpoint_io.index_path(path), "w").write(json.dumps(index))
    with pytest.raises(DataLossError, match="its checksum does not match its contents"):
        trained(2.0)[0].restore(path)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda index: index.update(entries=[1, 2]), "entries is not an object"),
        (lambda index: index.update(data_sha256=None), "data_sha256 is not a SHA-256"),
        (
            lambda index: next(iter(index["entries"].values())).update(shape=[-1]),
            "is not {array, dtype, shape}",
        ),
        (lambda index: index.pop("index_sha256"), "it has no index_sha256 checksum"),
    ],
    ids=["entries-list", "no-data-digest", "negative-shape", "no-checksum"],
)
def test_a_malformed_but_valid_json_index_gives_a_clear_error(tmp_path, change, message):
    checkpoint, w, optimizer = trained(1.0)
    path = checkpoint.save(tmp_path / "ckpt")
    index = json.loads(open(checkpoint_io.index_path(path)).read())
    change(index)
    if "index_sha256" in index:  # a tool that writes a consistent but wrong index
        index["index_sha256"] = checkpoint_io._index_digest(index)
    open(checkpoint_io.index_path(path), "w").write(json.dumps(index))
    target = trained(2.0)
    before = state_of(*target)
    with pytest.raises(DataLossError, match=f"is malformed: .*{message}"):
        target[0].restore(path)
    assert_same(state_of(*target), before)


# --- killed saves -----------------------------------------------------------------------------
# A kill point is (function, n, when): the process dies on the n-th call of os.replace or
# os.fsync in a save, before or after the call runs. Together they cover every step.
SAVE_STEPS = 4  # renames in a save: data to .npz.new, index, .npz.new to .npz, state file
KILL_POINTS = [
    ("replace", n, when) for n in range(1, SAVE_STEPS + 1) for when in ("before", "after")
]
KILL_POINTS += [("fsync", n, "before") for n in (1, 2, 3)]  # a temporary file half-way


def save_and_die(directory, kill_point):
    """In a forked child: a fresh Checkpoint saves ``ckpt`` again and dies at ``kill_point``."""
    name, n, when = kill_point
    pid = os.fork()
    if pid:
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status)
    try:
        real = getattr(os, name)
        calls = []

        def dying(*args):
            calls.append(args)
            if len(calls) == n and when == "before":
                os._exit(9)
            result = real(*args)
            if len(calls) == n and when == "after":
                os._exit(9)
            return result

        setattr(os, name, dying)
        trained(2.0)[0].save(os.path.join(directory, "ckpt"))
        os._exit(0)  # the kill point was never reached
    finally:
        os._exit(1)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="kills a forked child")
@pytest.mark.parametrize("kill_point", KILL_POINTS, ids=lambda p: "-".join(map(str, p)))
def test_a_fresh_checkpoint_killed_while_overwriting_ckpt_1_leaves_it_restorable(
    tmp_path, kill_point
):
    old_path = trained(1.0)[0].save(tmp_path / "ckpt")
    assert save_and_die(str(tmp_path), kill_point) == 9
    latest = ek.train.latest_checkpoint(str(tmp_path))
    assert latest == old_path
    target = trained(5.0)
    target[0].restore(latest).assert_consumed()
    restored = state_of(*target)[:4]
    old, new = state_of(*trained(1.0))[:4], state_of(*trained(2.0))[:4]
    assert any(
        all(np.array_equal(x, y) for x, y in zip(restored, whole, strict=True))
        for whole in (old, new)
    ), "a restore must give the old checkpoint or the new one, never a mix"
    # The next save cleans up whatever the killed one left, and the directory is tidy again.
    trained(3.0)[0].save(tmp_path / "ckpt")
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "ckpt-1.index.json", "ckpt-1.npz"]


def test_only_temporary_files_of_dead_writers_are_removed(tmp_path):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)  # now a process id that no longer runs
    dead = tmp_path / f".tmp-{pid}-abc.part"
    ours = tmp_path / f".tmp-{os.getpid()}-abc.part"  # a write in progress in this process
    for path in (dead, ours):
        path.write_bytes(b"half a checkpoint")
    atomic_files.clean_up(str(tmp_path))
    assert not dead.exists() and ours.exists()
