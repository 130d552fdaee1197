"""The Keras training API's bad-argument errors name the argument (its value, shape or
type) and the fix, and a failed call changes nothing (issue 18; the surface walk fuzzes the
same calls, these pin one case of each cause)."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

x, y = np.ones([4, 3], np.float32), np.zeros([4, 2], np.float32)


def _model():
    model = ek.keras.Sequential([ek.keras.layers.Dense(2, name="d")])
    model.compile(optimizer="sgd", loss="mse")
    model(ek.ones([4, 3]))
    return model


CASES = {
    "train_on_batch, a scalar x": (
        lambda m: m.train_on_batch(ek.constant(1.5), y),
        r"x must hold arrays of numbers with a first \(sample\) axis, got float32\[\]; .*x\[None\]",
    ),
    "predict_on_batch, no samples": (
        lambda m: m.predict_on_batch(np.zeros([0, 3])),
        r"the batch is empty .*; give at least one sample",
    ),
    "test_on_batch, no y": (lambda m: m.test_on_batch(x), r"Target data is missing .*: pass y"),
    "set_weights, not a list": (
        lambda m: m.set_weights(np.float32),
        r"with weights np.float32, not a list, .*expecting 2 weights .*Pass a list of that many",
    ),
    "set_weights, a wrong shape": (
        lambda m: m.set_weights([1.5, 2]),
        r"set_weights: Layer weight shape \(3, 2\) .*shape \(\).*Pass arrays of the shapes",
    ),
    "predict, no samples": (
        lambda m: m.predict(np.zeros([0, 3]), verbose=0),
        r"the input is empty \(0 samples.*pass at least one sample \(e.g. x\[:1\]\)",
    ),
    "get_layer, neither name nor index": (
        lambda m: m.get_layer(),
        r"get_layer: give the layer's name= \(one of \['d'\]\) or its index=",
    ),
    "load_weights, by_name": (
        lambda m: m.load_weights("w", by_name=True),
        r"so drop by_name=True and skip_mismatch=False",
    ),
    "build, an input for a shape": (
        lambda m: m.build(ek.constant(["a", "b"])),
        r"input_shape must be a shape, .*got string\[2\]; pass the shape of an input",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_bad_argument_is_named_with_the_fix_and_changes_nothing(case):
    call, message = CASES[case]
    model = _model()
    before = [w.copy() for w in model.get_weights()]
    with pytest.raises((InvalidArgumentError, ek.errors.UnimplementedError), match=message):
        call(model)
    assert all(np.array_equal(a, b) for a, b in zip(before, model.get_weights(), strict=True))
    assert int(model.optimizer.iterations) == 0


@pytest.mark.parametrize("y_pred", [None, {"a": 1.0}, ["a", "b"]])
def test_compute_loss_refuses_what_is_no_output_before_the_loss_learns_from_it(y_pred):
    model = _model()
    with pytest.raises(InvalidArgumentError, match="y_pred must be the model's outputs"):
        model.compute_loss(x, y, y_pred)
    # The compiled loss was not built for the bad structure: a real output still fits it.
    assert float(model.compute_loss(x, y, ek.zeros([4, 2]))) == 0.0


@pytest.mark.parametrize(
    "call",
    [
        lambda: ek.keras.models.model_from_config({}, custom_objects=np.float32(1.5)),
        lambda: ek.keras.utils.get_registered_object("x", custom_objects=[1, 2]),
        lambda: ek.keras.layers.deserialize({}, custom_objects="abc"),
    ],
)
def test_custom_objects_must_be_a_dict(call):
    with pytest.raises(InvalidArgumentError, match=r"custom_objects must be a dict .*pass e.g."):
        call()


def test_progbar_values_are_checked_before_any_is_counted():
    bar = ek.keras.utils.Progbar(3, verbose=0)
    bar.update(1, [("loss", 1.0)])
    with pytest.raises(InvalidArgumentError, match=r"values must be \(name, number\) pairs"):
        bar.update(2, [("loss", 2.0), ("acc", [1.0, 2.0])])
    assert bar.final_line(1) == "1/3 - loss: 1.0000"  # the good pair before it was not counted


@pytest.mark.parametrize("convert", [int, float])
def test_a_string_tensor_is_not_parsed_by_int_or_float(convert):
    with pytest.raises(TypeError, match=r"holds text \(string\).*ek.strings.to_number"):
        convert(ek.constant("3"))


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: ek.keras.callbacks.EarlyStopping(min_delta=[1, 2]), "min_delta must be a number"),
        (
            lambda: ek.keras.layers.InputLayer.from_config([]),
            r"config must be the dict get_config\(\) returns, got list of 0",
        ),
        (
            lambda: ek.keras.models.model_from_json("abc"),
            r"json_string is not JSON .*model.to_json\(\)",
        ),
        (
            lambda: ek.keras.utils.serialize_keras_object(np.float32),
            "^serialize_keras_object: cannot write",
        ),
        (
            lambda: ek.keras.utils.serialize_keras_object(lambda v: v),
            "^serialize_keras_object: cannot write the function .* a lambda has no name",
        ),
        (  # int(nan) said "cannot convert float NaN to integer"
            lambda: ek.keras.utils.Progbar(4, width=float("nan")),
            "^Progbar: width must be a whole number of characters >= 1, got nan",
        ),
        (lambda: ek.keras.utils.Progbar(4, width=2.5), "width must be a whole number.* 2.5"),
        (lambda: ek.keras.utils.Progbar(b"4"), "target must be a whole number of steps or None"),
        (  # getattr(callback, None) said "attribute name must be string, not 'NoneType'"
            lambda: ek.keras.callbacks.CallbackList([]).call(None),
            r"hook must be the name of a callback method \(a str, e.g. 'on_epoch_end'\), got None",
        ),
        (  # a layer object is callable but has no name to register (a raw AttributeError)
            lambda: ek.keras.utils.register_keras_serializable()(ek.keras.layers.Dense(2)),
            "registers classes and functions, got a Dense object; put @register",
        ),
    ],
)
def test_keras_utilities_name_the_argument_and_the_fix(make, message):
    with pytest.raises(InvalidArgumentError, match=message):
        make()


@pytest.mark.parametrize("step", ["train_step", "test_step", "predict_step"])
def test_a_step_called_directly_leads_with_the_call_and_a_fit_with_the_fit(step):
    model = ek.keras.Sequential([ek.keras.Input((3,)), ek.keras.layers.Dense(2)])
    model.compile(optimizer="sgd", loss="mse")
    wide = np.ones([4, 5], np.float32)
    # The model's input check names its layer; the user's call comes first all the same.
    shapes = r"expected shape=\(None, 3\), found shape=\(4, 5\)"
    with pytest.raises(
        InvalidArgumentError, match=rf"^Sequential\.{step}\(tuple of 2\): .*{shapes}"
    ):
        getattr(model, step)((wide, y))
    with pytest.raises(
        InvalidArgumentError, match=rf"^Sequential\.fit\(ndarray float32\[4, 5\].*{shapes}"
    ):
        model.fit(wide, y, verbose=0)
