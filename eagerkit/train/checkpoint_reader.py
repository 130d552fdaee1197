"""Reading one value out of a checkpoint without building the model: TF's
``tf.train.load_checkpoint`` (a reader) and ``tf.train.load_variable``.

Keys are the paths ``ek.train.list_variables`` lists, such as
``net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE``; values come back as numpy arrays, as TF's do.
"""

import os

from eagerkit import dtypes
from eagerkit.errors import NotFoundError
from eagerkit.train import checkpoint_io, checkpoint_state


class CheckpointReader:
    """The saved values of one checkpoint, by key (what ``load_checkpoint`` returns).

    Examples
    --------
    >>> import eagerkit as ek, os, tempfile
    >>> checkpoint = ek.train.Checkpoint(w=ek.Variable([1.0, 2.0]))
    >>> path = checkpoint.write(os.path.join(tempfile.mkdtemp(), "weights"))
    >>> reader = ek.train.load_checkpoint(path)
    >>> reader.get_variable_to_shape_map()["w/.ATTRIBUTES/VARIABLE_VALUE"]
    [2]
    >>> reader.get_variable_to_dtype_map()["w/.ATTRIBUTES/VARIABLE_VALUE"]
    ek.float32
    >>> reader.get_tensor("w/.ATTRIBUTES/VARIABLE_VALUE")
    array([1., 2.], dtype=float32)
    """

    def __init__(self, path):
        self._path = path
        self._arrays = checkpoint_io.read(path)  # checks the checksums, as a restore would

    def has_tensor(self, key):
        """Whether the checkpoint holds a value under ``key``."""
        return key in self._arrays

    def get_tensor(self, key):
        """The value saved under ``key``, a numpy array (NotFoundError names the keys)."""
        if key not in self._arrays:
            shown = ", ".join(sorted(self._arrays))
            raise NotFoundError(
                f"get_tensor: the checkpoint {self._path!r} has no key {key!r}; its keys are "
                f"{shown}; pass one of them (ek.train.list_variables lists them with their shapes)",
                op="get_tensor",
            )
        return self._arrays[key].copy()  # the caller may change it; the reader keeps its own

    def get_variable_to_shape_map(self):
        """``{key: shape as a list}`` for every saved value."""
        return {key: list(array.shape) for key, array in self._arrays.items()}

    def get_variable_to_dtype_map(self):
        """``{key: ek dtype}`` for every saved value."""
        return {key: dtypes.as_dtype(array.dtype) for key, array in self._arrays.items()}


def load_checkpoint(ckpt_dir_or_file):
    """A ``CheckpointReader`` for a checkpoint path, or for a directory's latest checkpoint."""
    return CheckpointReader(_checkpoint_path(ckpt_dir_or_file, "load_checkpoint"))


def load_variable(ckpt_dir_or_file, name):
    """The value saved under ``name`` (a key as ``list_variables`` gives it), a numpy array.

    Examples
    --------
    >>> import eagerkit as ek, os, tempfile
    >>> directory = tempfile.mkdtemp()
    >>> _ = ek.train.Checkpoint(step=ek.Variable(7)).save(os.path.join(directory, "ckpt"))
    >>> ek.train.load_variable(directory, "step/.ATTRIBUTES/VARIABLE_VALUE")
    array(7, dtype=int32)
    """
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def _checkpoint_path(ckpt_dir_or_file, call):
    path = os.fspath(ckpt_dir_or_file)
    if not os.path.isdir(path):
        return path
    latest = checkpoint_state.latest_checkpoint(path)
    if latest is None:
        raise NotFoundError(
            f"{call}: the directory {path!r} has no checkpoint state file; pass a checkpoint "
            "path (what save() or write() returned)",
            op=call,
        )
    return latest
