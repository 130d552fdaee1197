"""Hashing: values (strings or integers) into ``num_bins`` bins, with no vocabulary.

Keras' "hashing trick" for a feature with too many values to list::

    hasher = ek.keras.layers.Hashing(num_bins=64, salt=1337)
    encoder = ek.keras.layers.CategoryEncoding(num_tokens=64, output_mode="multi_hot")
    encoded = encoder(hasher(data))

**eagerkit's bins are not TF's.** TF hashes with FarmHash Fingerprint64, or with keyed
SipHash when given a ``salt``; eagerkit uses BLAKE2b (keyed by the salt), see
``token_hash.py``. Each value still always lands in the same bin, so a model trains and
predicts the same way, but bin numbers copied from TF, or a model trained in TF, do not
carry over.
"""

import numbers

import numpy as np

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers.base import Layer
from eagerkit.keras.layers.category_outputs import (
    check_dense,
    checked_mode,
    count_argument,
    encode,
    host_array,
)
from eagerkit.keras.layers.token_hash import as_text, hash_buckets, salt_key
from eagerkit.py_function import py_function
from eagerkit.tensor import convert_to_tensor


class Hashing(Layer):
    """Each value's bin in ``[0, num_bins)`` from a hash of its text.

    Integers (and floats, first made whole, as in TF) are hashed as their decimal text,
    so ``7`` and ``"7"`` share a bin. ``mask_value`` gets bin 0 of its own; the others then
    share bins 1 to ``num_bins - 1``. ``salt`` (an int or a pair of ints) keys the hash.
    ``output_mode`` may also encode the bins (``one_hot``, ``multi_hot``, ``count``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> hasher = ek.keras.layers.Hashing(num_bins=3)
    >>> bins = hasher([["A"], ["B"], ["C"], ["A"]]).numpy()
    >>> bins.shape, bins.dtype.name, bool(bins[0, 0] == bins[3, 0])
    ((4, 1), 'int64', True)
    >>> masked = ek.keras.layers.Hashing(num_bins=3, mask_value="")
    >>> int(masked(["", "A"])[0])
    0
    """

    _built_at_init = True  # no weights of its own: Keras 3 builds it in the constructor

    _autocast = False  # the values are hashed as they are

    def __init__(
        self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False, **kwargs
    ):
        output_mode = checked_mode(output_mode, "Hashing")
        check_dense(sparse, "Hashing")
        num_bins = count_argument(num_bins, "num_bins", "Hashing", 1)
        if num_bins < 1 or (num_bins < 2 and mask_value is not None):
            raise InvalidArgumentError(
                f"Hashing: num_bins={num_bins} leaves no bin for the values (mask_value "
                "takes bin 0 for itself); give num_bins > 1",
                op="Hashing",
            )
        ok_salt = salt is None or _is_int(salt) or _is_pair(salt)
        if not ok_salt:
            raise InvalidArgumentError(
                f"Hashing: salt must be an int or a pair of ints, got {salt!r:.40}",
                op="Hashing",
            )
        super().__init__(**kwargs)
        self.num_bins, self.mask_value, self.output_mode = int(num_bins), mask_value, output_mode
        self.salt = (
            [int(s) for s in salt] if _is_pair(salt) else salt if salt is None else int(salt)
        )
        self.sparse = False
        self._key = salt_key(salt)

    def call(self, inputs):
        inputs = convert_to_tensor(inputs)  # call() itself may get an array
        if inputs.dtype.is_complex:
            raise InvalidArgumentError(
                f"Hashing: layer '{self.name}' hashes strings, integers or floats, got "
                f"{inputs.dtype.name} inputs; pass the real part, e.g. ek.math.real(x)",
                op="Hashing",
            )
        out = dtypes.int64 if self.output_mode == "int" else self.dtype
        return py_function(self._binned, [inputs], out)

    def _binned(self, inputs):
        values = host_array(inputs)
        bins = self.num_bins - (self.mask_value is not None)  # bin 0 is the mask's
        found = hash_buckets(as_text(values), bins, self._key)
        if self.mask_value is not None:
            found = np.where(values == _raw(self.mask_value), 0, found + 1)
        out = np.int64 if self.output_mode == "int" else self.dtype.as_numpy_dtype
        return encode(found, self.output_mode, self.num_bins, out, None, "Hashing")

    def get_config(self):
        return {
            **super().get_config(),
            "num_bins": self.num_bins,
            "mask_value": self.mask_value,
            "salt": self.salt,
            "output_mode": self.output_mode,
            "sparse": self.sparse,
        }


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_pair(salt):
    return isinstance(salt, (list, tuple)) and len(salt) == 2 and all(map(_is_int, salt))


def _raw(value):
    """A mask value as the inputs hold it: text as bytes."""
    return value.encode("utf-8") if isinstance(value, str) else value
