"""The 8x8 handwritten digits that scikit-learn ships: MNIST's small, offline cousin."""

import math

import numpy as np

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError

TEST_SIZE = 0.2
IMAGES = 1797


def load_digits(test_size=TEST_SIZE, seed=0):
    """The 1,797 digit images of scikit-learn, split into train and test sets.

    Returns ``(x_train, y_train), (x_test, y_test)``: images are float32 of shape
    ``(n, 8, 8)`` scaled to [0, 1] (the raw pixels are 0..16), labels int32 in 0..9. With the
    default ``test_size=0.2`` that is 1,437 training and 360 test images. The split is
    stratified (each digit in the same proportion in both parts) and fixed by ``seed``.
    Needs scikit-learn (``pip install 'eagerkit[lab]'``); no network.

    Examples
    --------
    >>> import eagerkit as ek
    >>> (x_train, y_train), (x_test, y_test) = ek.datasets.load_digits()
    >>> x_train.shape, x_train.dtype, y_train.dtype, x_test.shape
    ((1437, 8, 8), dtype('float32'), dtype('int32'), (360, 8, 8))
    >>> float(x_train.min()), float(x_train.max())
    (0.0, 1.0)
    """
    try:
        from sklearn.datasets import load_digits as sklearn_digits
        from sklearn.model_selection import train_test_split
    except ImportError as error:
        raise ImportError(
            "load_digits needs scikit-learn, which ships the digits: "
            "pip install 'eagerkit[lab]' (or pip install scikit-learn)"
        ) from error
    test_size = _checked_test_size(test_size)
    digits = sklearn_digits()
    images = (digits.images / 16.0).astype(np.float32)
    labels = digits.target.astype(np.int32)
    x_train, x_test, y_train, y_test = train_test_split(
        images, labels, test_size=test_size, random_state=seed, stratify=labels
    )
    return (x_train, y_train), (x_test, y_test)


def _checked_test_size(test_size):
    """scikit-learn's rule, said with the fix: a fraction in (0, 1) or a count of images."""
    fraction = isinstance(test_size, float) and 0 < test_size < 1
    count = isinstance(test_size, (int, np.integer)) and not isinstance(test_size, bool)
    images = math.ceil(test_size * IMAGES) if fraction else test_size if count else None
    if images is None or not 10 <= images <= IMAGES - 10:
        raise InvalidArgumentError(
            f"load_digits: test_size must be a fraction in (0, 1) or a number of test images "
            f"from 10 to 1787 (one per digit at least, on each side), got {describe(test_size)}; "
            "pass e.g. test_size=0.2",
            op="load_digits",
        )
    return float(test_size) if fraction else int(test_size)  # np.uint8: scikit-learn refuses
