"""Valid calls of ``ek.train`` (checkpoints, the global step, L-BFGS) and ``ek.summary``.

Calls that write files write them into the test's scratch directory (the working
directory while the surface is walked).
"""

import os

import eagerkit as ek

from .declare import call, fresh, fresh_arguments
from .values import F3, variable

_counter = [0]


def _directory():
    """A new directory in the scratch directory, for one call's files."""
    _counter[0] += 1
    path = f"calls-{os.getpid()}-{_counter[0]}"
    os.makedirs(path)
    return path


def _checkpoint():
    return ek.train.Checkpoint(v=variable())


def _saved():
    """The path of a checkpoint holding one variable v = [[1, 2], [3, 4]]."""
    return _checkpoint().save(os.path.join(_directory(), "ckpt"))


def _status():
    return _checkpoint().restore(_saved())


def _lbfgs_problem():
    x = ek.Variable([0.0, 0.0], dtype=ek.float64)
    return lambda: ek.reduce_sum((x - [3.0, -1.0]) ** 2), [x]


def _values_of(path):
    return [name for name, _ in ek.train.list_variables(path)]


class _Lazy:
    """An object that creates its variable late, as a layer does on its first call."""

    def __init__(self):
        self.w = ek.Variable(0.0)


CALLS = {
    "ek.Checkpoint": call(v=fresh(variable)),
    "ek.Checkpoint.save": call(fresh(lambda: os.path.join(_directory(), "ckpt"))),
    "ek.Checkpoint.write": call(fresh(lambda: os.path.join(_directory(), "ckpt"))),
    "ek.Checkpoint.restore": call(fresh(_saved), repeatable=False),
    "ek.Checkpoint.read": call(fresh(_saved), repeatable=False),
    "ek.train.CheckpointManager": call(fresh(_checkpoint), fresh(_directory), max_to_keep=2),
    "ek.train.CheckpointManager.save": call(repeatable=False),
    "ek.train.LoadStatus": call("ckpt-1", fresh(_checkpoint), set(), {}),
    "ek.train.LoadStatus.assert_consumed": call(on=_status),
    "ek.train.LoadStatus.assert_existing_objects_matched": call(on=_status),
    "ek.train.LoadStatus.expect_partial": call(on=_status),
    "ek.train.LoadStatus.__repr__": call(on=_status, repeatable=False),
    "ek.train.LBFGSResult": call(True, 3, 4, 0.0, 0.0, [1.0, 0.0]),
    "ek.train.LBFGSResult.__repr__": call(check=lambda r: r.startswith("LBFGSResult(")),
    "ek.train.LBFGSResult.__getnewargs__": call(),
    "ek.train.lbfgs_minimize": call(
        fresh_arguments(_lbfgs_problem), check=lambda r: r.converged and abs(r.loss) < 1e-9
    ),
    "ek.train.latest_checkpoint": call(
        fresh(lambda: os.path.dirname(_saved())), check=lambda r: r.endswith("ckpt-1")
    ),
    "ek.train.list_variables": call(
        fresh(_saved), check=lambda r: ("v/.ATTRIBUTES/VARIABLE_VALUE", [2, 2]) in r
    ),
    "ek.train.load_variable": call(
        fresh(_saved),
        "v/.ATTRIBUTES/VARIABLE_VALUE",
        check=lambda r: r.tolist() == [[1, 2], [3, 4]],
    ),
    "ek.train.load_checkpoint": call(fresh(_saved)),
    "ek.train.CheckpointReader": call(fresh(_saved)),
    "ek.train.CheckpointReader.get_tensor": call(
        "v/.ATTRIBUTES/VARIABLE_VALUE", check=lambda r: r.shape == (2, 2)
    ),
    "ek.train.CheckpointReader.has_tensor": call("v/.ATTRIBUTES/VARIABLE_VALUE", check=bool),
    "ek.train.CheckpointReader.get_variable_to_shape_map": call(
        check=lambda r: r["v/.ATTRIBUTES/VARIABLE_VALUE"] == [2, 2]
    ),
    "ek.train.CheckpointReader.get_variable_to_dtype_map": call(
        check=lambda r: r["v/.ATTRIBUTES/VARIABLE_VALUE"] == ek.float32
    ),
    "ek.Checkpoint.__setattr__": call("extra", fresh(variable), fixed=(0,)),
    "ek.train.restore_deferred": call(fresh(_Lazy)),
    "ek.train.get_global_step": call(),
    "ek.train.get_or_create_global_step": call(repeatable=False),
    # summaries
    "ek.summary.SummaryWriter": call(fresh(_directory)),
    "ek.summary.SummaryWriter.as_default": call(),
    "ek.summary.SummaryWriter.set_as_default": call(),
    "ek.summary.SummaryWriter.write": call({"kind": "scalar", "name": "loss", "value": 1.0}),
    "ek.summary.SummaryWriter.flush": call(),
    "ek.summary.SummaryWriter.close": call(),
    "ek.summary.SummaryWriter.__repr__": call(repeatable=False),
    "ek.summary.create_file_writer": call(fresh(_directory), repeatable=False),
    "ek.summary.always_record_summaries": call(),
    "ek.summary.never_record_summaries": call(),
    "ek.summary.record_summaries_every_n_global_steps": call(10),
    "ek.summary.should_record_summaries": call(),
    "ek.summary.scalar": call("loss", 1.5, step=1),
    "ek.summary.histogram": call("weights", F3, step=1),
    "ek.summary.flush": call(),
    "ek.summary.read_events": call(fresh(_directory), check=lambda r: r == []),
}
