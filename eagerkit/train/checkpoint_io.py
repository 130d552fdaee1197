"""Checkpoint files on disk: what is written, how it is read back, and the state file.

A checkpoint ``<prefix>`` (e.g. ``/tmp/ckpt-1``) is two files:

* ``<prefix>.npz``: the arrays, as a numpy zip archive with members ``t0``, ``t1``, ...
* ``<prefix>.index.json``: ``{"format": "eagerkit-checkpoint", "version": 1,
  "data_file": "ckpt-1.npz", "data_sha256": "...", "entries": {key: {"array": "t0",
  "dtype": "float32", "shape": [2, 3]}, ...}}``, where a key is an attribute path such as
  ``model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE``.

Each file is written to a temporary file and renamed into place (``os.replace`` is atomic),
the data first and the index last, so a crash never leaves a half-written checkpoint that
looks complete. Reading never unpickles (``allow_pickle=False``) and checks the data file's
SHA-256, so a corrupt or truncated file is an error, not garbage in your variables.

The state file ``checkpoint`` in the same directory is JSON too: ``{"model_checkpoint_path":
"ckpt-2", "all_model_checkpoint_paths": ["ckpt-1", "ckpt-2"]}`` (paths relative to it).
"""

import hashlib
import json
import os
import tempfile
import zipfile

import numpy as np

from eagerkit.errors import DataLossError, InvalidArgumentError, NotFoundError

FORMAT, VERSION = "eagerkit-checkpoint", 1
STATE_FILE = "checkpoint"
_OP = "checkpoint"


def data_path(prefix):
    return f"{prefix}.npz"


def index_path(prefix):
    return f"{prefix}.index.json"


def write(prefix, arrays):
    """Write ``{key: numpy array}`` as the checkpoint ``prefix`` (atomically)."""
    directory = os.path.dirname(os.path.abspath(prefix))
    os.makedirs(directory, exist_ok=True)
    members = {f"t{i}": array for i, array in enumerate(arrays.values())}
    digest = _replace_atomically(data_path(prefix), lambda f: np.savez(f, **members))
    entries = {
        key: {"array": f"t{i}", "dtype": array.dtype.name, "shape": list(array.shape)}
        for i, (key, array) in enumerate(arrays.items())
    }
    index = {
        "format": FORMAT,
        "version": VERSION,
        "data_file": os.path.basename(data_path(prefix)),
        "data_sha256": digest,
        "entries": entries,
    }
    text = json.dumps(index, indent=1).encode()
    _replace_atomically(index_path(prefix), lambda f: f.write(text))


def read(prefix):
    """The checkpoint ``prefix`` as ``{key: numpy array}``, or a clear error (nothing half-read)."""
    index = _read_index(prefix)
    path = data_path(prefix)
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise NotFoundError(
            f"checkpoint {prefix!r}: the index exists but the data file {path} is missing; "
            "the checkpoint was only partly copied or deleted",
            op=_OP,
        ) from None
    digest = hashlib.sha256(raw).hexdigest()
    if digest != index["data_sha256"]:
        raise DataLossError(
            f"checkpoint {prefix!r}: the data file {path} is corrupt or truncated, or belongs to "
            f"another save ({len(raw)} bytes, SHA-256 {digest[:12]}... but the index expects "
            f"{index['data_sha256'][:12]}...). Restore an older checkpoint instead.",
            op=_OP,
        )
    try:
        with np.load(path, allow_pickle=False) as archive:
            return {
                key: _entry_array(archive, key, spec, prefix)
                for key, spec in index["entries"].items()
            }
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, KeyError) as error:
        if isinstance(error, DataLossError):
            raise
        raise DataLossError(
            f"checkpoint {prefix!r}: cannot read {path}: {error}", op=_OP
        ) from error


def _entry_array(archive, key, spec, prefix):
    array = archive[spec["array"]]
    if array.dtype.name != spec["dtype"] or list(array.shape) != spec["shape"]:
        raise DataLossError(
            f"checkpoint {prefix!r}: '{key}' holds {array.dtype.name}{list(array.shape)} but "
            f"the index says {spec['dtype']}{spec['shape']}; the files do not belong together",
            op=_OP,
        )
    return array


def _read_index(prefix):
    path = index_path(prefix)
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        directory = os.path.dirname(os.path.abspath(prefix))
        found = sorted(
            name[: -len(".index.json")]
            for name in _listdir(directory)
            if name.endswith(".index.json")
        )
        raise NotFoundError(
            f"checkpoint {prefix!r} not found: there is no {path}. Checkpoints in {directory}: "
            f"{found or 'none'}. Pass the path that save() returned, or "
            f"ek.train.latest_checkpoint({directory!r}).",
            op=_OP,
        ) from None
    try:
        index = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DataLossError(
            f"checkpoint {prefix!r}: the index {path} is corrupt or truncated ({error})", op=_OP
        ) from error
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        raise InvalidArgumentError(
            f"checkpoint {prefix!r}: {path} is not an eagerkit checkpoint index", op=_OP
        )
    if index.get("version") != VERSION:
        raise InvalidArgumentError(
            f"checkpoint {prefix!r} has format version {index.get('version')!r}; this eagerkit "
            f"reads version {VERSION}. Save it again with this version.",
            op=_OP,
        )
    return index


def remove(prefix):
    """Delete the two files of checkpoint ``prefix`` (those that exist)."""
    for path in (index_path(prefix), data_path(prefix)):
        if os.path.exists(path):
            os.remove(path)


# --- the state file -------------------------------------------------------------------------
def read_state(directory):
    """The state file of ``directory`` as a dict, or ``None`` when there is none."""
    path = os.path.join(directory, STATE_FILE)
    try:
        with open(path, "rb") as f:
            state = json.loads(f.read())
    except FileNotFoundError:
        return None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DataLossError(
            f"the checkpoint state file {path} is corrupt ({error})", op=_OP
        ) from error
    if not isinstance(state, dict) or "model_checkpoint_path" not in state:
        raise DataLossError(f"{path} is not a checkpoint state file", op=_OP)
    return state


def write_state(directory, prefixes):
    """Record ``prefixes`` (oldest first; the last is the latest) in ``directory``'s state file."""
    names = [os.path.relpath(p, directory) for p in prefixes]
    state = {"model_checkpoint_path": names[-1], "all_model_checkpoint_paths": names}
    text = json.dumps(state, indent=1).encode()
    _replace_atomically(os.path.join(directory, STATE_FILE), lambda f: f.write(text))


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
    state = read_state(checkpoint_dir)
    if state is None:
        return None
    prefix = os.path.join(checkpoint_dir, state["model_checkpoint_path"])
    return prefix if os.path.exists(index_path(prefix)) else None


def _replace_atomically(path, write_to):
    """Write through ``write_to(file)`` into a temporary file, then rename it to ``path``."""
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as f:
            write_to(f)
            f.flush()
            os.fsync(f.fileno())
        with open(temporary, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        os.replace(temporary, path)
    except BaseException:
        os.remove(temporary)
        raise
    return digest


def _listdir(directory):
    try:
        return os.listdir(directory)
    except FileNotFoundError:
        return []
