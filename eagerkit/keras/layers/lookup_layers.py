"""``StringLookup`` and ``IntegerLookup``: tokens (text, or integer codes) to ids and back.

TF's structured-data tutorials turn each categorical column into numbers with them::

    lookup = ek.keras.layers.StringLookup(output_mode="one_hot")
    lookup.adapt(train_features["thal"])    # learns the vocabulary
    encoded = lookup(features["thal"])      # one row of 0s and a 1 per value

The two differ only in their tokens: ``bytes``/``str`` (kept as UTF-8 bytes, shown as
``str``) or Python ints; the shared work is in ``index_lookup.py``.
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers.index_lookup import IndexLookup
from eagerkit.keras.layers.token_hash import hash_buckets


class StringLookup(IndexLookup):
    """Strings to integer ids from a vocabulary (``invert=True``: ids back to strings).

    Parameters
    ----------
    max_tokens : the most ids in all (mask and OOV ids included), or None.
    num_oov_indices : how many ids tokens outside the vocabulary share (0: they are an
        error). With more than one, a hash picks one (BLAKE2b, not TF's FarmHash: which
        unknown token gets which OOV id differs from TF; see ``token_hash.py``).
    mask_token : a token for padding (id 0 in ``output_mode="int"``; dropped from the
        counting modes), or None.
    oov_token : how ``get_vocabulary`` and ``invert=True`` show an unknown token.
    vocabulary : the tokens, or the path of a file of them, one a line; or None and
        ``adapt(data)``.
    invert : map ids back to tokens.
    output_mode : ``"int"``, ``"one_hot"``, ``"multi_hot"`` or ``"count"``.
    pad_to_max_tokens : make the encodings ``max_tokens`` wide.
    sparse : only False (eagerkit's outputs are dense).
    encoding : the text encoding of the tokens: "utf-8".

    Examples
    --------
    >>> import eagerkit as ek
    >>> layer = ek.keras.layers.StringLookup(vocabulary=["a", "b", "c", "d"])
    >>> layer([["a", "c", "d"], ["d", "z", "b"]]).numpy()
    array([[1, 3, 4],
           [4, 0, 2]])
    >>> learned = ek.keras.layers.StringLookup()
    >>> learned.adapt([["a", "c", "d"], ["d", "z", "b"]])
    >>> learned.get_vocabulary()
    ['[UNK]', 'd', 'z', 'c', 'b', 'a']
    >>> back = ek.keras.layers.StringLookup(vocabulary=["a", "b"], invert=True)
    >>> back([2, 0, 1]).numpy()
    array([b'b', b'[UNK]', b'a'], dtype=object)
    """

    token_kind = "string"

    def __init__(
        self,
        max_tokens=None,
        num_oov_indices=1,
        mask_token=None,
        oov_token="[UNK]",
        vocabulary=None,
        idf_weights=None,
        invert=False,
        output_mode="int",
        pad_to_max_tokens=False,
        sparse=False,
        encoding="utf-8",
        **kwargs,
    ):
        for name, token in (("mask_token", mask_token), ("oov_token", oov_token)):
            if token is not None and not isinstance(token, (str, bytes)):
                raise InvalidArgumentError(
                    f"StringLookup: {name} must be a string, got {token!r:.40}; e.g. "
                    f"{name}={'' if name == 'mask_token' else '[UNK]'!r}",
                    op="StringLookup",
                )
        if idf_weights is not None or encoding.lower().replace("_", "-") != "utf-8":
            raise InvalidArgumentError(
                "StringLookup: eagerkit supports encoding='utf-8' and no idf_weights (no "
                f"'tf_idf' mode), got encoding={encoding!r:.20}, idf_weights="
                f"{idf_weights!r:.20}; remove both arguments (use output_mode='count')",
                op="StringLookup",
            )
        self.encoding = "utf-8"
        super().__init__(
            max_tokens, num_oov_indices, _text(mask_token), _text(oov_token), vocabulary,
            invert, output_mode, pad_to_max_tokens, sparse, **kwargs,
        )  # fmt: skip

    def _check_dtype(self, dtype, call, what):
        if dtype != dtypes.string:
            raise InvalidArgumentError(
                f"{call}: layer '{self.name}' looks up strings, but {what} are {dtype.name}; "
                "use IntegerLookup for integer codes, or ek.strings.as_string(x) to make "
                "them text",
                op=call,
            )

    def _key(self, token):
        return token.encode("utf-8") if isinstance(token, str) else bytes(token)

    def _shown(self, key):
        return key.decode("utf-8") if isinstance(key, bytes) else key

    def _raw(self, token):
        return self._key(token)

    def _mask_value(self):
        return self._key(self.mask_token)

    def _from_line(self, line):
        return line

    def _token_dtype(self):
        return dtypes.string

    def _oov_buckets(self, values):
        return hash_buckets(values, self.num_oov_indices)

    def get_config(self):
        return {**super().get_config(), "encoding": self.encoding}


class IntegerLookup(IndexLookup):
    """Integer codes to ids from a vocabulary (``invert=True``: ids back to codes).

    The arguments are ``StringLookup``'s, with integer tokens: ``oov_token`` defaults to
    -1 and ``mask_token`` (often 0) to None. With several OOV ids an unknown code goes to
    OOV id ``code % num_oov_indices``, as in Keras.

    Examples
    --------
    >>> import eagerkit as ek
    >>> layer = ek.keras.layers.IntegerLookup()
    >>> layer.adapt([[12, 1138, 42], [42, 1000, 36]])
    >>> layer.get_vocabulary()
    [-1, 42, 1138, 1000, 36, 12]
    >>> layer([[12, 1138, 42], [42, 1000, 7]]).numpy()
    array([[5, 2, 1],
           [1, 3, 0]])
    >>> ek.keras.layers.IntegerLookup(vocabulary=[12, 36], output_mode="multi_hot")(
    ...     [[12, 36, 36], [5, 5, 12]]
    ... ).numpy()
    array([[0., 1., 1.],
           [1., 1., 0.]], dtype=float32)
    """

    token_kind = "integer code"

    def __init__(
        self,
        max_tokens=None,
        num_oov_indices=1,
        mask_token=None,
        oov_token=-1,
        output_mode="int",
        pad_to_max_tokens=False,
        sparse=False,
        vocabulary=None,
        vocabulary_dtype="int64",
        idf_weights=None,
        invert=False,
        **kwargs,
    ):
        for name, token in (("mask_token", mask_token), ("oov_token", oov_token)):
            if token is not None and not isinstance(token, (int, np.integer)):
                raise InvalidArgumentError(
                    f"IntegerLookup: {name} must be an integer, got {token!r:.40}; e.g. "
                    f"{name}={0 if name == 'mask_token' else -1}",
                    op="IntegerLookup",
                )
        if vocabulary_dtype not in ("int64", "int32") or idf_weights is not None:
            raise InvalidArgumentError(
                "IntegerLookup: vocabulary_dtype must be 'int64' or 'int32', and eagerkit "
                f"takes no idf_weights (no 'tf_idf' mode), got vocabulary_dtype="
                f"{vocabulary_dtype!r:.20}, idf_weights={idf_weights!r:.20}; remove "
                "idf_weights (use output_mode='count')",
                op="IntegerLookup",
            )
        self.vocabulary_dtype = vocabulary_dtype
        mask_token = None if mask_token is None else int(mask_token)
        oov_token = None if oov_token is None else int(oov_token)
        super().__init__(
            max_tokens, num_oov_indices, mask_token, oov_token, vocabulary, invert,
            output_mode, pad_to_max_tokens, sparse, **kwargs,
        )  # fmt: skip

    def _check_dtype(self, dtype, call, what):
        if not dtype.is_integer:
            raise InvalidArgumentError(
                f"{call}: layer '{self.name}' looks up integer codes, but {what} are "
                f"{dtype.name}; use StringLookup for strings, or ek.cast(x, ek.int64) for "
                "whole numbers stored as floats",
                op=call,
            )

    def _key(self, token):
        return int(token)

    def _shown(self, key):
        return key

    def _raw(self, token):
        return int(token)

    def _mask_value(self):
        return self.mask_token

    def _from_line(self, line):
        return int(line)

    def _token_dtype(self):
        return dtypes.as_dtype(self.vocabulary_dtype)

    def _oov_buckets(self, values):
        return np.mod(values.astype(np.int64), self.num_oov_indices)

    def get_config(self):
        return {**super().get_config(), "vocabulary_dtype": self.vocabulary_dtype}


def _text(token):
    """A special token as ``str`` (Keras' ``get_vocabulary`` shows them so)."""
    return token.decode("utf-8") if isinstance(token, bytes) else token
