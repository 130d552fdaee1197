"""``load_model`` runs no code from the file, even from one its author sealed correctly.

The checksums catch damage, not intent: whoever crafts a file can compute them too. So
each save below is re-sealed as an attacker would, and names code to run the way Keras'
formats can (a class path, a function by module, a Lambda's marshalled bytecode, a
pickled array). Every one is refused, and the code named never runs: each one's payload
would write a file, and no file appears.
"""

import base64
import hashlib
import io
import json
import os
import zipfile

import numpy as np
import pytest

from eagerkit import keras
from eagerkit.errors import DataLossError
from eagerkit.keras import model_files

PWNED = "pwned.txt"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


class Payload:
    """Unpickling this writes ``pwned.txt`` (what a pickled array in a Keras .h5 can do)."""

    def __reduce__(self):
        return (open, (PWNED, "w"))


def saved_members():
    model = keras.Sequential([keras.Input(shape=[2]), keras.layers.Dense(2, activation="relu")])
    model.compile("adam", "mse", metrics=["mae"])
    model.save("good.keras")
    with zipfile.ZipFile("good.keras") as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def resealed(description):
    """The description with its checksum recomputed, as a forger would."""
    description["sha256"] = model_files._digest(description)
    return json.dumps(description).encode()


def write(name, members):
    with zipfile.ZipFile(name, "w") as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    return name


CODE_IN_THE_CONFIG = {
    "a class path": lambda d: d["model"]["config"]["layers"][1].update(
        {"class_name": "builtins.open", "config": {"file": PWNED, "mode": "w"}}
    ),
    "a Keras 3 module reference": lambda d: d["model"]["config"]["layers"][1].update(
        {"module": "builtins", "class_name": "open", "config": {"file": PWNED, "mode": "w"}}
    ),
    "an activation by module": lambda d: d["model"]["config"]["layers"][1]["config"].update(
        {"activation": {"module": "os", "class_name": "function", "config": "system"}}
    ),
    "a Lambda layer's bytecode": lambda d: d["model"]["config"]["layers"].append(
        {
            "class_name": "Lambda",
            "config": {
                "name": "evil",
                "function": [base64.b64encode(b"\xe3\x00marshalled code").decode(), None, None],
                "function_type": "lambda",
            },
        }
    ),
    "a loss by dotted name": lambda d: d["compile"].update({"loss": "os.system"}),
    "a metric by builtin name": lambda d: d["compile"].update({"metrics": ["eval"]}),
    "an optimizer class path": lambda d: d["compile"].update(
        {"optimizer": {"class_name": "subprocess.Popen", "config": {"args": ["true"]}}}
    ),
}


@pytest.mark.parametrize("how", list(CODE_IN_THE_CONFIG))
def test_a_config_that_names_code_is_refused_and_runs_nothing(how):
    members = saved_members()
    description = json.loads(members["keras_model.json"])
    CODE_IN_THE_CONFIG[how](description)
    path = write("crafted.keras", {**members, "keras_model.json": resealed(description)})
    named = r"^load_model\('crafted.keras'\): .*(Unknown|Could not interpret|must be a name)"
    with pytest.raises(ValueError, match=named):
        keras.models.load_model(path)
    assert not os.path.exists(PWNED)


def test_a_pickled_array_in_the_weights_is_refused_unread():
    members = saved_members()
    index = json.loads(members["variables/variables.index.json"])
    with np.load(io.BytesIO(members["variables/variables.npz"])) as archive:
        arrays = dict(archive)
    arrays["t2"] = np.array([Payload()], dtype=object)
    data = io.BytesIO()
    np.savez(data, **arrays)  # allow_pickle is numpy's default when writing
    index["data_sha256"] = hashlib.sha256(data.getvalue()).hexdigest()
    body = {k: v for k, v in index.items() if k != "index_sha256"}
    index["index_sha256"] = hashlib.sha256(
        json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    crafted = {
        **members,
        "variables/variables.npz": data.getvalue(),
        "variables/variables.index.json": json.dumps(index).encode(),
    }
    with pytest.raises(DataLossError, match="cannot read"):
        keras.models.load_model(write("pickled.keras", crafted))
    assert not os.path.exists(PWNED)
