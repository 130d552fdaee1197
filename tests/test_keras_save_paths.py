"""Which paths ``model.save`` takes: Keras 3's rules (keras/src/saving/saving_api.py).

A whole model is one ``.keras`` file; ``zipped=False`` writes a folder (and then the path
must not end in ``.keras``); any other path, and the ``save_format`` Keras 3 removed, is a
``ValueError`` that names the path and the fix, raised before anything is written.
"""

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eagerkit import keras
from eagerkit.errors import InvalidArgumentError

NAMES = st.text("abcxyz_-.0123456789", min_size=1, max_size=12).filter(
    lambda name: not name.lower().endswith((".keras", ".h5", ".hdf5")) and name not in (".", "..")
)


def small_model():
    model = keras.Sequential([keras.Input(shape=[3]), keras.layers.Dense(2)])
    model.compile(optimizer="adam", loss="mse")
    return model


def everything_under(folder):
    return sorted(
        os.path.relpath(os.path.join(root, name), folder)
        for root, dirs, files in os.walk(folder)
        for name in dirs + files
    )


@settings(max_examples=25, deadline=None)
@given(name=NAMES, in_a_new_folder=st.booleans())
def test_a_path_without_the_keras_extension_is_refused_and_nothing_is_written(
    tmp_path_factory, name, in_a_new_folder
):
    folder = tmp_path_factory.mktemp("save")
    path = os.path.join(folder, "new", name) if in_a_new_folder else os.path.join(folder, name)
    model = small_model()
    before = model.get_weights()
    with pytest.raises(InvalidArgumentError) as refused:
        model.save(path)
    message = str(refused.value)
    assert isinstance(refused.value, ValueError)  # the type Keras 3 raises
    assert message.startswith("save: invalid filepath extension for saving")
    assert repr(path) in message and ".keras" in message and "zipped=False" in message
    assert everything_under(folder) == []  # not even the parent folder
    for kept, now in zip(before, model.get_weights(), strict=True):
        np.testing.assert_array_equal(kept, now)


def test_the_fix_the_message_names_works(tmp_path):
    model = small_model()
    with pytest.raises(ValueError, match=r"e\.g\. model\.save\('my_model\.keras'\)"):
        model.save(tmp_path / "my_model")
    model.save(tmp_path / "my_model.keras")
    x = np.arange(6, dtype="float32").reshape(2, 3)
    again = keras.models.load_model(tmp_path / "my_model.keras")
    np.testing.assert_array_equal(again.predict(x, verbose=0), model.predict(x, verbose=0))
    assert os.listdir(tmp_path) == ["my_model.keras"]


def test_zipped_false_writes_a_folder_that_loads(tmp_path):
    model = small_model()
    model.save(tmp_path / "my_model", zipped=False)
    assert sorted(os.listdir(tmp_path / "my_model")) == ["keras_model.json", "variables"]
    x = np.ones((1, 3), dtype="float32")
    again = keras.models.load_model(tmp_path / "my_model")
    np.testing.assert_array_equal(again.predict(x, verbose=0), model.predict(x, verbose=0))
    keras.models.save_model(model, tmp_path / "other", zipped=False)  # the function form too
    assert sorted(os.listdir(tmp_path)) == ["my_model", "other"]


@pytest.mark.parametrize(
    ("path", "options", "message"),
    [
        ("m.keras", {"zipped": False}, r"zipped=False writes a folder, so filepath should not"),
        ("m", {"save_format": "tf"}, r"save_format argument is deprecated in Keras 3"),
        ("m", {"save_format": "keras", "zipped": False}, r"save_format argument is deprecated"),
        ("m", {"zipped": "yes"}, r"zipped must be True, False or None, got 'yes'"),
        ("m", {"zipped": True}, r"invalid filepath extension for saving, got filepath='/.*/m'"),
        ("m.keras.bak", {}, r"invalid filepath extension for saving"),
    ],
)
def test_what_keras_3_refuses_is_refused_before_writing(tmp_path, path, options, message):
    model = small_model()
    with pytest.raises(ValueError, match=message):
        model.save(tmp_path / path, **options)
    with pytest.raises(ValueError, match=message):
        keras.models.save_model(model, tmp_path / path, **options)
    assert os.listdir(tmp_path) == []


def test_a_keras_path_takes_the_old_save_format_argument(tmp_path):
    model = small_model()
    model.save(tmp_path / "m.keras", save_format="keras")  # Keras 3 warns and saves
    assert os.listdir(tmp_path) == ["m.keras"]


def test_model_checkpoint_wants_a_keras_path_when_it_saves_the_model(tmp_path):
    with pytest.raises(ValueError, match=r"ModelCheckpoint: the filepath provided must end in"):
        keras.callbacks.ModelCheckpoint(str(tmp_path / "model-{epoch}"))
    model = small_model()
    save = keras.callbacks.ModelCheckpoint(str(tmp_path / "model-{epoch}.keras"))
    x, y = np.ones((4, 3), dtype="float32"), np.zeros((4, 2), dtype="float32")
    model.fit(x, y, epochs=2, verbose=0, callbacks=[save])
    assert sorted(os.listdir(tmp_path)) == ["model-1.keras", "model-2.keras"]
    weights_only = keras.callbacks.ModelCheckpoint(str(tmp_path / "w"), save_weights_only=True)
    model.fit(x, y, epochs=1, verbose=0, callbacks=[weights_only])  # a TF-style checkpoint
    assert {"w.npz", "w.index.json"} <= set(os.listdir(tmp_path))
