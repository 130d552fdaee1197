"""Checkpoint files on disk: what is written, in which order, and how it is read back.

A checkpoint ``<prefix>`` (e.g. ``/tmp/ckpt-1``) is two files:

* ``<prefix>.npz``: the arrays, as a numpy zip archive with members ``t0``, ``t1``, ...
* ``<prefix>.index.json``: ``{"format": "eagerkit-checkpoint", "version": 2,
  "data_file": "ckpt-1.npz", "data_sha256": "...", "entries": {key: {"array": "t0",
  "dtype": "float32", "shape": [2, 3]}, ...}, "index_sha256": "..."}``, where a key is an
  attribute path such as ``model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE``; a value saved
  once but reachable by other paths too adds ``"aliases": {other key: key}``
  (checkpoint_paths.py), an index without it reads as one without aliases.

Both files are checksummed: the data by ``data_sha256``, the index by ``index_sha256`` (over
the index's other fields, serialized canonically), so one flipped bit anywhere, say one that
would send Adam's ``m`` into ``v``, is an error, not a wrong restore. Reading never unpickles.

Saving over an existing checkpoint (a fresh ``Checkpoint`` writing ``ckpt-1`` again) must not
leave it unreadable if the process dies half-way, so a save goes in three atomic steps:

1. the new data goes to ``<prefix>.npz.new``;
2. the new index replaces the old one (it holds the new data's checksum);
3. ``<prefix>.npz.new`` is renamed to ``<prefix>.npz``.

Killed before 2, the old index still matches the old ``.npz``; killed between 2 and 3, the
index matches ``.npz.new``, which ``read`` then uses (and the next save finishes the rename).
"""

import hashlib
import io
import json
import os
import re
import zipfile

import numpy as np

from eagerkit.errors import DataLossError, InvalidArgumentError, NotFoundError
from eagerkit.train.atomic_files import clean_up, replace_atomically, sha256_of

FORMAT, VERSION = "eagerkit-checkpoint", 2
_OP = "checkpoint"
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


def data_path(prefix):
    return f"{prefix}.npz"


def pending_data_path(prefix):
    """Where the data of a save in progress waits until its index is in place."""
    return f"{prefix}.npz.new"


def index_path(prefix):
    return f"{prefix}.index.json"


def write(prefix, arrays, aliases=None):
    """Write ``{key: numpy array}`` (and ``{alias key: key}``) as checkpoint ``prefix``, safe
    against a kill at any step."""
    directory = os.path.dirname(os.path.abspath(prefix))
    os.makedirs(directory, exist_ok=True)
    finish_interrupted_saves(directory)
    members = {f"t{i}": array for i, array in enumerate(arrays.values())}
    pending = pending_data_path(prefix)
    digest = replace_atomically(pending, lambda f: np.savez(f, **members))
    index = {
        "format": FORMAT,
        "version": VERSION,
        "data_file": os.path.basename(data_path(prefix)),
        "data_sha256": digest,
        "entries": {
            key: {"array": f"t{i}", "dtype": array.dtype.name, "shape": list(array.shape)}
            for i, (key, array) in enumerate(arrays.items())
        },
    }
    if aliases:
        index["aliases"] = dict(aliases)
    index["index_sha256"] = _index_digest(index)
    text = json.dumps(index, indent=1).encode()
    try:
        replace_atomically(index_path(prefix), lambda f: f.write(text))
    except BaseException:
        os.remove(pending)  # the old checkpoint (if any) is untouched
        raise
    os.replace(pending, data_path(prefix))


def finish_interrupted_saves(directory):
    """Clean up after saves that were killed: finish the last rename or drop their files."""
    clean_up(directory)
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".npz.new"):
            continue
        prefix = os.path.join(directory, name[: -len(".npz.new")])
        pending = pending_data_path(prefix)
        try:
            wanted = _read_index(prefix)["data_sha256"]
        except (DataLossError, InvalidArgumentError, NotFoundError):
            wanted = None
        if wanted is not None and sha256_of(pending) == wanted:
            os.replace(pending, data_path(prefix))  # killed between steps 2 and 3
        else:
            os.remove(pending)  # killed before step 2: the old checkpoint stands


def read(prefix):
    """The checkpoint ``prefix`` as ``{key: numpy array}``, or a clear error (nothing half-read)."""
    return read_with_aliases(prefix)[0]


def read_with_aliases(prefix):
    """``({key: numpy array}, {alias key: key})`` of checkpoint ``prefix``."""
    index = _read_index(prefix)
    aliases = index.get("aliases", {})
    path = data_path(prefix)
    raw = _data_matching(prefix, index["data_sha256"])
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as archive:
            arrays = {
                key: _entry_array(archive, key, spec, prefix)
                for key, spec in index["entries"].items()
            }
            return arrays, aliases
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, KeyError) as error:
        if isinstance(error, DataLossError):
            raise
        raise DataLossError(f"checkpoint {prefix!r}: cannot read {path}: {error}", op=_OP) from None


def _data_matching(prefix, wanted):
    """The bytes of the data file whose SHA-256 the index names (``.npz``, else ``.npz.new``)."""
    path = data_path(prefix)
    found = {}
    for candidate in (path, pending_data_path(prefix)):
        try:
            with open(candidate, "rb") as f:
                raw = f.read()
        except FileNotFoundError:
            continue
        digest = hashlib.sha256(raw).hexdigest()
        if digest == wanted:
            return raw
        found.setdefault("size", len(raw))
        found.setdefault("digest", digest)
    if not found:
        raise NotFoundError(
            f"checkpoint {prefix!r}: the index exists but the data file {path} is missing; "
            "the checkpoint was only partly copied or deleted",
            op=_OP,
        )
    raise DataLossError(
        f"checkpoint {prefix!r}: the data file {path} is corrupt or truncated, or belongs to "
        f"another save ({found['size']} bytes, SHA-256 {found['digest'][:12]}... but the index "
        f"expects {wanted[:12]}...). Restore an older checkpoint instead.",
        op=_OP,
    )


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
    except IsADirectoryError:
        raise InvalidArgumentError(
            f"checkpoint {prefix!r}: {path} is a directory; pass the prefix save() returned",
            op=_OP,
        ) from None
    try:
        index = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DataLossError(
            f"checkpoint {prefix!r}: the index {path} is corrupt or truncated ({error})", op=_OP
        ) from None
    if not isinstance(index, dict):
        raise InvalidArgumentError(
            f"checkpoint {prefix!r}: {path} is not an eagerkit checkpoint index", op=_OP
        )
    if "index_sha256" in index and index["index_sha256"] != _index_digest(index):
        raise DataLossError(
            f"checkpoint {prefix!r}: the index {path} is corrupt (its checksum does not match "
            "its contents: a changed byte could send a value into the wrong variable). "
            "Restore an older checkpoint instead.",
            op=_OP,
        )
    if index.get("format") != FORMAT:
        raise InvalidArgumentError(
            f"checkpoint {prefix!r}: {path} is not an eagerkit checkpoint index", op=_OP
        )
    if index.get("version") != VERSION:
        raise InvalidArgumentError(
            f"checkpoint {prefix!r} has format version {index.get('version')!r}; this eagerkit "
            f"reads version {VERSION}. Save it again with this version.",
            op=_OP,
        )
    _check_index_layout(index, prefix, path)
    return index


def _index_digest(index):
    """SHA-256 of the index without its own checksum, serialized one canonical way."""
    body = {k: v for k, v in index.items() if k != "index_sha256"}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(canonical).hexdigest()


def _check_index_layout(index, prefix, path):
    """An index whose checksum matches can still be malformed (written by another tool)."""
    entries = index.get("entries")
    problems = [] if "index_sha256" in index else ["it has no index_sha256 checksum"]
    if not (isinstance(index.get("data_sha256"), str) and _SHA256.match(index["data_sha256"])):
        problems.append("data_sha256 is not a SHA-256 hex digest")
    if not isinstance(entries, dict):
        problems.append("entries is not an object")
    else:
        for key, spec in entries.items():
            if not (
                isinstance(spec, dict)
                and isinstance(spec.get("array"), str)
                and isinstance(spec.get("dtype"), str)
                and isinstance(spec.get("shape"), list)
                and all(type(n) is int and n >= 0 for n in spec["shape"])
            ):
                problems.append(f"entry {key!r} is not {{array, dtype, shape}}: {spec!r}")
                break
    aliases = index.get("aliases", {})
    if not isinstance(aliases, dict) or not all(
        isinstance(alias, str)
        and isinstance(key, str)
        and isinstance(entries, dict)
        and key in entries
        for alias, key in aliases.items()
    ):
        problems.append("aliases is not an object naming entries")
    if problems:
        raise DataLossError(
            f"checkpoint {prefix!r}: the index {path} is malformed: {'; '.join(problems)}",
            op=_OP,
        )


def files(prefix):
    """Every file a checkpoint ``prefix`` may have on disk (a save in progress included)."""
    return [index_path(prefix), data_path(prefix), pending_data_path(prefix)]


def remove(prefix):
    """Delete the files of checkpoint ``prefix`` (those that exist)."""
    for path in files(prefix):
        if os.path.exists(path):
            os.remove(path)


def _listdir(directory):
    try:
        return os.listdir(directory)
    except FileNotFoundError:
        return []
