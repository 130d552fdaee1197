"""The state file ``checkpoint``: which checkpoints a directory holds, and which is the latest.

It is JSON, like TF's text proto in spirit: ``{"model_checkpoint_path": "ckpt-2",
"all_model_checkpoint_paths": ["ckpt-1", "ckpt-2"]}`` (paths relative to the directory),
written atomically after the checkpoint it names.
"""

import json
import os

from eagerkit.errors import DataLossError, NotFoundError
from eagerkit.train import checkpoint_io
from eagerkit.train.atomic_files import replace_atomically

STATE_FILE = "checkpoint"


def read_state(directory):
    """The state file of ``directory`` as a dict, or ``None`` when there is none."""
    path = os.path.join(directory, STATE_FILE)
    try:
        with open(path, "rb") as f:
            state = json.loads(f.read())
    except (FileNotFoundError, NotADirectoryError):  # no directory, so no state file yet
        return None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DataLossError(
            f"the checkpoint state file {path} is corrupt ({error})", op="checkpoint"
        ) from None
    paths = state.get("all_model_checkpoint_paths") if isinstance(state, dict) else None
    if (
        not isinstance(paths, list)
        or not all(isinstance(p, str) for p in paths)
        or not isinstance(state.get("model_checkpoint_path"), str)
    ):
        raise DataLossError(
            f"{path} is not a checkpoint state file (it needs model_checkpoint_path and a "
            "list all_model_checkpoint_paths); delete it and save again",
            op="checkpoint",
        )
    return state


def write_state(directory, prefixes):
    """Record ``prefixes`` (oldest first; the last is the latest) in ``directory``'s state file."""
    names = [os.path.relpath(p, directory) for p in prefixes]
    state = {"model_checkpoint_path": names[-1], "all_model_checkpoint_paths": names}
    text = json.dumps(state, indent=1).encode()
    replace_atomically(os.path.join(directory, STATE_FILE), lambda f: f.write(text))


def state_prefixes(directory):
    """The checkpoint prefixes listed in ``directory``'s state file (full paths)."""
    state = read_state(directory)
    if state is None:
        return []
    return [os.path.join(directory, name) for name in state["all_model_checkpoint_paths"]]


def latest_checkpoint(checkpoint_dir):
    """The prefix of the newest checkpoint in ``checkpoint_dir``, or ``None``.

    Examples
    --------
    >>> import eagerkit as ek, tempfile
    >>> directory = tempfile.mkdtemp()
    >>> ek.train.latest_checkpoint(directory) is None
    True
    >>> path = ek.train.Checkpoint(w=ek.Variable(1.0)).save(directory + "/ckpt")
    >>> ek.train.latest_checkpoint(directory) == path
    True
    """
    state = read_state(os.fspath(checkpoint_dir))
    if state is None:
        return None
    prefix = os.path.join(checkpoint_dir, state["model_checkpoint_path"])
    return prefix if os.path.exists(checkpoint_io.index_path(prefix)) else None


def list_variables(ckpt_dir_or_file):
    """``[(key, shape), ...]`` sorted by key: what a checkpoint (or a directory's latest) holds.

    Examples
    --------
    >>> import eagerkit as ek, os, tempfile
    >>> checkpoint = ek.train.Checkpoint(w=ek.Variable(ek.zeros([2, 3])))
    >>> path = checkpoint.write(os.path.join(tempfile.mkdtemp(), "weights"))
    >>> ek.train.list_variables(path)
    [('save_counter/.ATTRIBUTES/VARIABLE_VALUE', []), ('w/.ATTRIBUTES/VARIABLE_VALUE', [2, 3])]
    """
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = latest_checkpoint(path)
        if latest is None:
            raise NotFoundError(
                f"list_variables: the directory {path!r} has no checkpoint state file; pass a "
                "checkpoint path (what save() or write() returned)",
                op="list_variables",
            )
        path = latest
    arrays = checkpoint_io.read(path)  # checks the checksums, as a restore would
    return sorted((key, list(array.shape)) for key, array in arrays.items())
