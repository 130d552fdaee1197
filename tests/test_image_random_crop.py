"""ek.image.random_crop: windows of every rank at every offset (and only those), seeded as
ek.random, gradients back to the kept values, and errors that draw nothing."""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError


def test_each_window_is_a_slice_and_every_offset_occurs():
    value = np.arange(5 * 4 * 2, dtype=np.float32).reshape(5, 4, 2)
    seen = set()
    for _ in range(200):
        crop = ek.image.random_crop(value, [3, 2, 2]).numpy()
        top, left = np.argwhere(value == crop[0, 0, 0])[0][:2]
        np.testing.assert_array_equal(crop, value[top : top + 3, left : left + 2, :])
        seen.add((int(top), int(left)))
    assert seen == {(t, w) for t in range(3) for w in range(3)}  # 3 x 3 offsets, all drawn


def test_seeded_repeatable_and_full_size_is_the_value():
    value = ek.reshape(ek.range(100.0), [10, 10])
    ek.random.set_seed(3)
    first = [ek.image.random_crop(value, [4, 4], seed=7).numpy() for _ in range(3)]
    ek.random.set_seed(3)
    again = [ek.image.random_crop(value, [4, 4], seed=7).numpy() for _ in range(3)]
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(ek.image.random_crop(value, [10, 10]).numpy(), value.numpy())
    batch = ek.image.random_crop(ek.zeros([2, 6, 6, 3]), [2, 4, 4, 3])
    assert batch.shape == (2, 4, 4, 3)


def test_gradient_goes_to_the_kept_values():
    value = ek.Variable(np.arange(12, dtype=np.float32).reshape(3, 4))
    with ek.GradientTape() as tape:
        crop = ek.image.random_crop(value, [2, 2], seed=1)
        total = ek.reduce_sum(crop)
    grad = tape.gradient(total, value).numpy()
    assert grad.sum() == 4.0
    assert sorted(value.numpy()[grad == 1].tolist()) == sorted(crop.numpy().ravel().tolist())


def test_errors_draw_nothing():
    ek.random.set_seed(5)
    expected = ek.random.uniform([2], seed=9).numpy()
    ek.random.set_seed(5)
    with pytest.raises(InvalidArgumentError, match=r"random_crop: size \[4, 1\] is larger"):
        ek.image.random_crop(ek.zeros([3, 3]), [4, 1])
    with pytest.raises(InvalidArgumentError, match="size needs one entry per axis"):
        ek.image.random_crop(ek.zeros([3, 3]), [2])
    with pytest.raises(InvalidArgumentError, match="random_crop"):
        ek.image.random_crop(ek.zeros([3, 3]), [2, -1])
    np.testing.assert_array_equal(ek.random.uniform([2], seed=9).numpy(), expected)
