"""A saved model on disk: a JSON description and a checksummed checkpoint, no code.

``model.save("my_model.keras")`` writes one zip archive of three files, as Keras 3 saves;
``model.save("my_model", zipped=False)`` writes them as a folder (the layout of TF's
SavedModel folder, which ``load_model`` also reads)::

    my_model/keras_model.json              the model's config, its compile() settings
    my_model/variables/variables.npz       the weights (and the optimizer's state) as an
    my_model/variables/variables.index.json  ek.train checkpoint, checksummed

Any other path is refused before anything is written, as Keras 3 refuses it. The JSON
carries the SHA-256 of its own content, as the checkpoint's index does: a damaged file is
an error, never a different model. Nothing is unpickled or evaluated when loading: the
JSON names classes from a fixed table (keras/serialization.py), the weights are arrays.

A save is written beside its destination and moved into place at the end, so an
interrupted save leaves the previous model whole.
"""

import hashlib
import json
import os
import shutil
import tempfile
import zipfile

import numpy as np

from eagerkit.errors import DataLossError, InvalidArgumentError, NotFoundError
from eagerkit.train.atomic_files import replace_atomically

FORMAT, VERSION = "eagerkit-keras-model", 1
DESCRIPTION = "keras_model.json"
WEIGHTS = os.path.join("variables", "variables")  # the checkpoint prefix inside a save
MEMBERS = (DESCRIPTION, f"{WEIGHTS}.npz", f"{WEIGHTS}.index.json")


def is_archive(path):
    return os.fspath(path).endswith(".keras")


def check_destination(path, zipped, save_format):
    """Refuse a ``model.save`` path that Keras 3 refuses: a zipped save needs a ``.keras``
    file name, a folder (``zipped=False``) must not have one; ``save_format`` is gone."""
    if zipped is not None and not isinstance(zipped, bool):
        raise InvalidArgumentError(
            f"save: zipped must be True, False or None, got {zipped!r:.40}; zipped=False "
            "writes a folder, True (a .keras path's default) one zip archive",
            op="save",
        )
    if save_format is not None and not is_archive(path):
        raise InvalidArgumentError(
            f"save: the save_format argument is deprecated in Keras 3 (got "
            f"save_format={save_format!r} and filepath={path!r}); remove it and pass a path "
            "that ends in .keras, e.g. model.save('my_model.keras')",
            op="save",
        )
    if zipped is False and is_archive(path):
        raise InvalidArgumentError(
            f"save: zipped=False writes a folder, so filepath should not end in .keras "
            f"(got {path!r}); drop zipped=False to write the .keras file, or drop the suffix",
            op="save",
        )
    if zipped is not False and not is_archive(path):
        stem = os.path.splitext(os.path.basename(path))[0] or "my_model"
        raise InvalidArgumentError(
            f"save: invalid filepath extension for saving, got filepath={path!r}. A whole "
            "model is saved as one file with a .keras extension (Keras 3's format), e.g. "
            f"model.save('{stem}.keras'); .h5 is legacy HDF5, which eagerkit does not write; "
            "zipped=False writes a folder instead. Nothing was written",
            op="save",
        )


def write(path, description, write_weights):
    """Save ``description`` (a JSON-able dict) and the weights (``write_weights(prefix)``)
    at ``path``: a folder, or a zip archive for a ``.keras`` path."""
    path = os.path.abspath(os.fspath(path))
    parent = os.path.dirname(path)
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(dir=parent, prefix=f".tmp-{os.getpid()}-", suffix=".part")
    try:
        text = json.dumps(_sealed(description), indent=1, default=_json_value)
        with open(os.path.join(staging, DESCRIPTION), "w", encoding="utf-8") as f:
            f.write(text)
        write_weights(os.path.join(staging, WEIGHTS))
        if is_archive(path):
            replace_atomically(path, lambda f: _zip(staging, f))
        else:
            _replace_folder(staging, path)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def read(path):
    """``(description, weights prefix, cleanup)`` of the save at ``path``; call
    ``cleanup()`` once the weights are read (an archive is unpacked to a scratch folder)."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise NotFoundError(
            f"No file or directory found at {path}: nothing was saved there (model.save(path) "
            "writes a folder, or a .keras file)",
            op="load_model",
        )
    if os.path.isdir(path):
        return _description(os.path.join(path, DESCRIPTION)), os.path.join(path, WEIGHTS), _nothing
    scratch = tempfile.mkdtemp(prefix="ek-load-model-")
    try:
        _unzip(path, scratch)
        return (
            _description(os.path.join(scratch, DESCRIPTION)),
            os.path.join(scratch, WEIGHTS),
            lambda: shutil.rmtree(scratch, ignore_errors=True),
        )
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise


def _nothing():
    pass


def _sealed(description):
    sealed = {"format": FORMAT, "version": VERSION, **description}
    sealed["sha256"] = _digest(sealed)
    return sealed


def _digest(description):
    body = {key: value for key, value in description.items() if key != "sha256"}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), default=_json_value)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _description(file):
    if not os.path.isfile(file):
        raise NotFoundError(
            f"{file} is missing: this is not a model saved by eagerkit's model.save",
            op="load_model",
        )
    try:
        with open(file, encoding="utf-8") as f:
            description = json.load(f)
    except (ValueError, UnicodeDecodeError) as error:
        raise DataLossError(f"{file} is damaged (not JSON: {error})", op="load_model") from None
    if not isinstance(description, dict) or description.get("format") != FORMAT:
        raise DataLossError(
            f"{file} is not an eagerkit model description (format {FORMAT!r})", op="load_model"
        )
    if description.get("version") != VERSION:
        raise InvalidArgumentError(
            f"{file} has version {description.get('version')!r}; this eagerkit reads version "
            f"{VERSION}. Save the model again with this version",
            op="load_model",
        )
    if description.get("sha256") != _digest(description):
        raise DataLossError(
            f"{file} is damaged: its checksum does not match its content (nothing was loaded)",
            op="load_model",
        )
    return description


def _zip(staging, file):
    with zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as archive:
        for member in MEMBERS:
            source = os.path.join(staging, member)
            if os.path.exists(source):
                archive.write(source, member.replace(os.sep, "/"))


def _unzip(path, scratch):
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            wanted = {member.replace(os.sep, "/") for member in MEMBERS}
            if DESCRIPTION not in names or not names <= wanted:
                raise DataLossError(
                    f"{path} is not a model saved by eagerkit (its members are "
                    f"{sorted(names)[:5]}, expected {sorted(wanted)})",
                    op="load_model",
                )
            for name in names:  # fixed names only: nothing can land outside the folder
                target = os.path.join(scratch, *name.split("/"))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with archive.open(name) as source, open(target, "wb") as out:
                    shutil.copyfileobj(source, out)
    except (zipfile.BadZipFile, OSError, EOFError) as error:
        if isinstance(error, DataLossError):
            raise
        raise DataLossError(
            f"{path} is damaged (not a readable zip: {error})", op="load_model"
        ) from None


def _replace_folder(staging, path):
    """Move the finished save to ``path``, replacing what was there."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise InvalidArgumentError(
            f"cannot save a model folder at {path}: a file is there", op="save"
        )
    old = None
    if os.path.isdir(path):
        old = f"{path}.old-{os.getpid()}"
        os.replace(path, old)
    os.replace(staging, path)  # the same parent folder: an atomic rename
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _json_value(value):
    """JSON for the numpy and eagerkit values configs may hold (Keras' encoder does too)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if hasattr(value, "numpy"):
        return np.asarray(value.numpy()).tolist()
    if hasattr(value, "as_numpy_dtype"):
        return value.name
    if hasattr(value, "as_list"):
        return value.as_list()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")
