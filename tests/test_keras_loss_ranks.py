"""Labels of shape (batch,) beside predictions of shape (batch, 1), and the mirror image, given
to a Keras loss as Keras 3 takes them.

Keras 3's ``LossFunctionWrapper.call`` brings the pair to one rank
(``squeeze_or_expand_to_same_rank``) before every loss object's function, and so do the
functions ``mean_squared_error``, ``mean_absolute_error``, ``mean_absolute_percentage_error``,
``huber``, ``log_cosh`` and ``cosine_similarity``; the cross-entropies, the hinges,
``kl_divergence`` and ``poisson`` do not (Keras would broadcast the pair into a
(batch, batch) table: eagerkit refuses it and says what aligns it). Every loss class and
function of ``ek.keras.losses`` is enumerated here; shapes that truly differ still fail with
both shapes named, and ``fit`` trains on such labels.
"""

import inspect
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

losses = ek.keras.losses

# The functions Keras 3 aligns itself (each calls squeeze_or_expand_to_same_rank).
ALIGNING = {
    "mean_squared_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "huber",
    "mean_squared_logarithmic_error",
    "log_cosh",
    "cosine_similarity",
}
SPARSE = "sparse_categorical_crossentropy"  # squeezes labels (batch, 1) itself, as Keras


def loss_classes():
    """Every loss object class of ``ek.keras.losses`` (all of them wrap a function)."""
    return sorted(
        (
            value
            for value in vars(losses).values()
            if isinstance(value, type)
            and issubclass(value, losses.LossFunctionWrapper)
            and value is not losses.LossFunctionWrapper
        ),
        key=lambda cls: cls.__name__,
    )


def loss_functions():
    """Every loss function of ``ek.keras.losses`` (its first arguments ``y_true, y_pred``),
    each once, under the name it gives itself (``mse`` is ``mean_squared_error``)."""
    found = {}
    for value in vars(losses).values():
        if inspect.isfunction(value) and not value.__name__.startswith("_"):
            parameters = list(inspect.signature(value).parameters)
            if parameters[:2] == ["y_true", "y_pred"]:
                found[value.__name__] = value
    return [found[name] for name in sorted(found)]


CLASSES = loss_classes()
FUNCTIONS = loss_functions()


def test_the_enumeration_finds_every_loss():
    assert {cls.__name__ for cls in CLASSES} == {
        "MeanSquaredError",
        "MeanAbsoluteError",
        "MeanAbsolutePercentageError",
        "Huber",
        "MeanSquaredLogarithmicError",
        "BinaryCrossentropy",
        "BinaryFocalCrossentropy",
        "CategoricalCrossentropy",
        "SparseCategoricalCrossentropy",
        "KLDivergence",
        "Poisson",
        "LogCosh",
        "CosineSimilarity",
        "Hinge",
        "SquaredHinge",
        "CategoricalHinge",
    }
    assert {f.__name__ for f in FUNCTIONS} == ALIGNING | {
        "binary_crossentropy",
        "binary_focal_crossentropy",
        "categorical_crossentropy",
        SPARSE,
        "kl_divergence",
        "poisson",
        "hinge",
        "squared_hinge",
        "categorical_hinge",
    }


# Over one class a categorical cross-entropy is 0 whatever the values: Keras warns of it.
ONE_CLASS_WARNED = {"CategoricalCrossentropy", "SparseCategoricalCrossentropy"}
ONE_CLASS_WARNED |= {"categorical_crossentropy", SPARSE}


def warned(name, call, *args):
    """``call(*args)``, checking that it warns (a SyntaxWarning, as Keras) exactly where the
    predictions have one class and the loss is categorical."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call(*args)
    said = [str(w.message) for w in caught if issubclass(w.category, SyntaxWarning)]
    if name in ONE_CLASS_WARNED:
        assert said and all("one class, so every loss is 0" in text for text in said), said
        assert "categorical_crossentropy: y_pred has shape (" in said[0]
        where = {w.filename for w in caught if issubclass(w.category, SyntaxWarning)}
        assert where == {__file__}, where  # the user's line, past eagerkit's frames
    else:
        assert not said, said
    return result


def batch_values(batch, seed, sparse):
    """Labels (0/1; class 0 only where sparse, the predictions then having one class) and
    predictions in (0, 1), as float32 (the values every loss here takes)."""
    rng = np.random.default_rng(seed)
    labels = np.zeros(batch) if sparse else rng.integers(0, 2, batch)
    predictions = rng.choice([0.05, 0.3, 0.45, 0.55, 0.8, 0.95], batch)
    return labels.astype(np.float32), predictions.astype(np.float32)


def column(values):
    return values.reshape(-1, 1)


@settings(max_examples=15, deadline=None)
@given(batch=st.integers(1, 6), seed=st.integers(0, 2**16))
@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_every_loss_object_aligns_ranks_one_apart(cls, batch, seed):
    labels, predictions = batch_values(batch, seed, cls is losses.SparseCategoricalCrossentropy)
    name = cls.__name__
    for reduction in ("none", "sum_over_batch_size"):
        loss = cls(reduction=reduction)
        expected = warned(name, loss, column(labels), column(predictions)).numpy()
        assert expected.shape == ((batch,) if reduction == "none" else ())
        for y_true, y_pred in [
            (labels, column(predictions)),  # (batch,) beside (batch, 1)
            (column(labels), predictions),  # the mirror image
        ]:
            got = warned(name, loss, y_true, y_pred).numpy()
            np.testing.assert_allclose(got, expected, rtol=1e-6)


@settings(max_examples=15, deadline=None)
@given(batch=st.integers(1, 6), seed=st.integers(0, 2**16))
@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.__name__)
def test_loss_functions_align_where_keras_does(function, batch, seed):
    name = function.__name__
    labels, predictions = batch_values(batch, seed, name == SPARSE)
    expected = warned(name, function, column(labels), column(predictions)).numpy()
    assert expected.shape == (batch,)
    if name in ALIGNING:
        for y_true, y_pred in [(labels, column(predictions)), (column(labels), predictions)]:
            np.testing.assert_allclose(function(y_true, y_pred).numpy(), expected, rtol=1e-6)
    elif name == SPARSE:  # labels (batch,) beside one class: the usual sparse call
        got = warned(name, function, labels, column(predictions)).numpy()
        np.testing.assert_allclose(got, expected)
    else:  # Keras broadcasts these into (batch, batch); eagerkit refuses, and says why
        cls = {"kl_divergence": "KLDivergence"}.get(name) or name.title().replace("_", "")
        for y_true, y_pred, fix in [
            (labels, column(predictions), f"reshape y_true to {(batch, 1)}"),
            (column(labels), predictions, f"reshape y_true to {(batch,)}"),
        ]:
            with pytest.raises(InvalidArgumentError) as caught:
                function(y_true, y_pred)
            message = str(caught.value)
            assert f"{name}: y_true has shape {np.shape(y_true)}" in message
            assert f"but y_pred has shape {np.shape(y_pred)}; they must match" in message
            assert f"ek.keras.losses.{cls}() and fit align a last axis of 1" in message
            assert fix in message
            assert hasattr(losses, cls)  # the class the message names exists


def test_aligned_values_are_per_example_not_a_broadcast_table():
    """Worked by hand: errors 0, 0, 0, 1 (and |1|, 2 * 0.5 ** 2 / 2 for huber)."""
    y_true, y_pred = [1.0, 2.0, 3.0, 4.0], [[1.0], [2.0], [3.0], [5.0]]
    assert losses.mean_squared_error(y_true, y_pred).numpy().tolist() == [0, 0, 0, 1]
    assert float(losses.MeanSquaredError()(y_true, y_pred)) == 0.25
    assert float(losses.MeanAbsoluteError()(y_pred, y_true)) == 0.25
    assert float(losses.MeanAbsolutePercentageError()(y_true, y_pred)) == 6.25  # 100/4/4
    assert float(losses.Huber()(y_true, y_pred)) == 0.125  # 0.5 * 1 ** 2 / 4
    assert float(losses.Hinge()([1.0, 0.0], [[0.5], [0.2]])) == pytest.approx(0.85)  # .5, 1.2


def test_a_categorical_loss_over_one_class_warns_as_keras_and_is_zero():
    loss = losses.CategoricalCrossentropy()
    assert float(warned("CategoricalCrossentropy", loss, [1.0, 0.0], [[0.3], [0.6]])) < 1e-6
    two_classes = warned("two classes: no warning", loss, [[0.0, 1.0]], [[0.3, 0.7]])
    assert float(two_classes) == pytest.approx(-np.log(0.7), rel=1e-6)


SHAPES_THAT_DIFFER = [((4, 2), (4, 3)), ((4,), (4, 2)), ((4, 3), (4,)), ((4, 2, 1), (4, 3))]


@pytest.mark.parametrize("true_shape, pred_shape", SHAPES_THAT_DIFFER)
@pytest.mark.parametrize(
    "loss", [*CLASSES, *FUNCTIONS], ids=lambda v: getattr(v, "__name__", str(v))
)
def test_shapes_that_truly_differ_still_fail_naming_both(loss, true_shape, pred_shape):
    sparse = loss in (losses.SparseCategoricalCrossentropy, losses.sparse_categorical_crossentropy)
    if sparse:  # labels and predictions differ by design: class ids of a wrong shape here
        true_shape, pred_shape = (4, 2), (4, 3)
    call = loss() if isinstance(loss, type) else loss
    y_true = np.zeros(true_shape, np.float32)
    y_pred = np.full(pred_shape, 0.5, np.float32)
    with pytest.raises(InvalidArgumentError) as caught:
        call(y_true, y_pred)
    message = str(caught.value)
    if not sparse:
        aligns = isinstance(loss, type) or loss.__name__ in ALIGNING
        aligned_true = true_shape[:-1] if aligns and len(true_shape) == 3 else true_shape
        assert f"y_true has shape {aligned_true} but y_pred has shape {pred_shape}" in message
        assert "they must match" in message
        assert "align a last axis of 1" not in message  # aligning would not help here
    else:
        assert "y_true has shape (4, 2) but y_pred has shape (4, 3)" in message
        assert "pass one class id per row of y_pred (y_true of shape (4,))" in message


def test_a_loss_object_refuses_text_naming_it_a_losss_values():
    with pytest.raises(InvalidArgumentError, match=r"cannot use \['a', 'b'\] as a loss's values"):
        losses.MeanSquaredError()(["a", "b"], [[1.0], [2.0]])


def test_aligned_inside_ek_function_for_every_batch_size():
    loss = losses.MeanSquaredError()
    traced = ek.function(lambda t, p: loss(t, p), reduce_retracing=True)
    for batch in (3, 5, 2):
        labels, predictions = batch_values(batch, batch, False)
        expected = float(np.mean((labels - predictions) ** 2))
        got = float(traced(ek.constant(labels), ek.constant(column(predictions))))
        assert got == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize("loss", ["mse", losses.MeanSquaredError(), losses.Huber()])
def test_fit_trains_on_labels_of_shape_batch(loss):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype(np.float32)
    y = (x @ np.array([1.0, -2.0, 0.5], np.float32) + 0.3).astype(np.float32)  # shape (64,)
    ek.keras.utils.set_random_seed(1)
    model = ek.keras.Sequential([ek.keras.Input((3,)), ek.keras.layers.Dense(1)])
    model.compile(optimizer=ek.keras.optimizers.SGD(0.1), loss=loss)
    # 40 epochs: Huber's gradient is capped (at delta) far from the answer, so from some
    # starting weights it needs more than 20 to come within 0.05 (as the squared losses do)
    history = model.fit(x, y, epochs=40, batch_size=16, verbose=0)
    first, last = history.history["loss"][0], history.history["loss"][-1]
    assert last < 0.01 * first
    predictions = model.predict(x, verbose=0)
    assert predictions.shape == (64, 1)
    np.testing.assert_allclose(predictions[:, 0], y, atol=0.05)
