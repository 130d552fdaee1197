"""Deferred restore survives failed first calls: the values wait for the next build.

A checkpoint restored into a model that is not built yet keeps its values pending until the
layers make their variables. A first call that fails (a wrong input size, a later layer that
raises) takes its build back; it used to take the pending values with it, so the model then
trained from random weights while ``assert_consumed()`` still listed them as waiting.
"""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError


class Flaky(ek.layers.Layer):
    """A layer whose call raises while ``fail`` is set (a bug in the user's model code)."""

    fail = True

    def call(self, inputs):
        if Flaky.fail:
            raise ValueError("the model code raised")
        return inputs


def trained(tmp_path):
    model = ek.Sequential([ek.layers.Dense(3), ek.layers.Dense(2)])
    optimizer = ek.train.AdamOptimizer(0.1)
    x = ek.constant([[1.0, -2.0, 0.5, 3.0]])
    with ek.GradientTape() as tape:
        loss = ek.reduce_sum(model(x) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
    path = ek.train.Checkpoint(model=model, optimizer=optimizer).save(tmp_path / "ckpt")
    return model, optimizer, path


def pending(status):
    return dict(status._unconsumed), set(status._matched)


def test_two_failed_builds_then_a_good_one_restores_everything(tmp_path):
    model, optimizer, path = trained(tmp_path)
    fresh = ek.Sequential([ek.layers.Dense(3), ek.layers.Dense(2)])
    fresh_optimizer = ek.train.AdamOptimizer(0.1)
    status = ek.train.Checkpoint(model=fresh, optimizer=fresh_optimizer).restore(path)
    before = pending(status)
    for features in (5, 6):  # the wrong input size: the saved kernel does not fit
        with pytest.raises(InvalidArgumentError, match=r"saved float32 shape \(4, 3\)"):
            fresh(ek.ones([1, features]))
        assert pending(status) == before
        assert fresh.variables == [] and not fresh.built
    fresh(ek.ones([1, 4]))
    status.assert_consumed()
    for got, want in zip(fresh.variables, model.variables, strict=True):
        np.testing.assert_array_equal(got.numpy(), want.numpy())
    for variable, want in zip(fresh.trainable_variables, model.trainable_variables, strict=True):
        for slot in ("m", "v"):
            np.testing.assert_array_equal(
                fresh_optimizer.get_slot(variable, slot).numpy(),
                optimizer.get_slot(want, slot).numpy(),
            )


def test_a_call_that_fails_after_the_restore_puts_the_values_back_in_wait(tmp_path):
    model, _, path = trained(tmp_path)
    fresh = ek.Sequential([ek.layers.Dense(3), ek.layers.Dense(2), Flaky()])
    fresh_optimizer = ek.train.AdamOptimizer(0.1)
    status = ek.train.Checkpoint(model=fresh, optimizer=fresh_optimizer).restore(path)
    before = pending(status)
    Flaky.fail = True
    try:
        with pytest.raises(ValueError, match="the model code raised"):
            fresh(ek.ones([1, 4]))  # both Dense layers built and restored, then Flaky raised
    finally:
        Flaky.fail = False
    assert pending(status) == before
    assert fresh_optimizer._pending_slot_values == {}  # no slot waits for a discarded variable
    assert fresh.variables == []
    fresh(ek.ones([1, 4]))
    status.assert_consumed()
    for got, want in zip(fresh.variables, model.variables, strict=True):
        np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_a_layer_outside_a_model_keeps_its_pending_value_after_a_failed_call(tmp_path):
    saved = ek.layers.Dense(2)
    saved(ek.ones([1, 3]))
    saved.kernel.assign(ek.fill([3, 2], 7.0))
    path = ek.train.Checkpoint(layer=saved).save(tmp_path / "ckpt")
    fresh = ek.layers.Dense(2)
    status = ek.train.Checkpoint(layer=fresh).restore(path)
    with pytest.raises(InvalidArgumentError):
        fresh(ek.ones([1, 4]))
    with pytest.raises(AssertionError, match=r"kernel/.* \(waiting for 'kernel' to be created\)"):
        status.assert_consumed()
    fresh(ek.ones([1, 3]))
    status.assert_consumed()
    assert fresh.kernel.numpy().tolist() == [[7.0, 7.0]] * 3
