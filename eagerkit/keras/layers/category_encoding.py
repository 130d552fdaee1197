"""CategoryEncoding: integer ids (0 to ``num_tokens - 1``) as one-hot, multi-hot or counts.

Where the ids are already small integers (or come from ``Hashing``), the layer encodes
them without a vocabulary: ``CategoryEncoding(num_tokens=4, output_mode="one_hot")``.
"""

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
from eagerkit.py_function import py_function
from eagerkit.tensor import convert_to_tensor


class CategoryEncoding(Layer):
    """Encode integer ids in ``[0, num_tokens)``: ``one_hot``, ``multi_hot`` or ``count``.

    ``one_hot`` gives one row per id (a last axis of size 1 is replaced); ``multi_hot``
    and ``count`` one row per sample (the last axis): which ids it holds, or how often
    (``count_weights``, shaped like the inputs, weights each occurrence). An id outside
    the range is an error.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.layers.CategoryEncoding(num_tokens=4, output_mode="one_hot")([3, 2, 0, 1])
    <ek.Tensor: shape=(4, 4), dtype=float32, numpy=
    array([[0., 0., 0., 1.],
           [0., 0., 1., 0.],
           [1., 0., 0., 0.],
           [0., 1., 0., 0.]], dtype=float32)>
    >>> counts = ek.keras.layers.CategoryEncoding(num_tokens=4, output_mode="count")
    >>> counts([[0, 1], [0, 0]], count_weights=[[0.1, 0.2], [0.1, 0.1]]).numpy()
    array([[0.1, 0.2, 0. , 0. ],
           [0.2, 0. , 0. , 0. ]], dtype=float32)
    """

    _built_at_init = True  # no weights of its own: Keras 3 builds it in the constructor

    _autocast = False  # ids are integers: a float is refused, never cast

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        modes = ("one_hot", "multi_hot", "count")
        output_mode = checked_mode(output_mode, "CategoryEncoding", modes)
        check_dense(sparse, "CategoryEncoding")
        hint = "; if it is not known beforehand, use IntegerLookup"
        num_tokens = count_argument(num_tokens, "num_tokens", "CategoryEncoding", 1, hint)
        super().__init__(**kwargs)
        self.num_tokens, self.output_mode, self.sparse = int(num_tokens), output_mode, False

    def call(self, inputs, count_weights=None):
        inputs = convert_to_tensor(inputs)  # call() itself may get an array
        if not inputs.dtype.is_integer:
            raise InvalidArgumentError(
                f"CategoryEncoding: layer '{self.name}' encodes integer ids, got "
                f"{inputs.dtype.name} inputs; cast them, e.g. ek.cast(x, ek.int64), or look "
                "strings up with StringLookup first",
                op="CategoryEncoding",
            )
        given = [inputs]
        if count_weights is not None:
            if self.output_mode != "count":
                raise InvalidArgumentError(
                    f"CategoryEncoding: count_weights only weights output_mode='count', "
                    f"but this layer's is {self.output_mode!r}; leave count_weights out",
                    op="CategoryEncoding",
                )
            given.append(convert_to_tensor(count_weights, dtype=dtypes.float64))
        return py_function(self._encoded, given, self.dtype)

    def _encoded(self, inputs, count_weights=None):
        ids = host_array(inputs)
        outside = (ids < 0) | (ids >= self.num_tokens)
        if outside.any():
            raise InvalidArgumentError(
                f"CategoryEncoding: layer '{self.name}' takes ids in [0, {self.num_tokens}) "
                f"(num_tokens={self.num_tokens}), got {sorted(set(ids[outside].tolist()))[:5]}; "
                "make num_tokens larger than the largest id, or map the ids with "
                "IntegerLookup",
                op="CategoryEncoding",
            )
        weights = None
        if count_weights is not None:
            weights = host_array(count_weights)
            if weights.shape != ids.shape:
                raise InvalidArgumentError(
                    f"CategoryEncoding: count_weights (shape {list(weights.shape)}) must "
                    f"have the inputs' shape {list(ids.shape)}: one weight per id",
                    op="CategoryEncoding",
                )
        dtype = self.dtype.as_numpy_dtype
        return encode(ids, self.output_mode, self.num_tokens, dtype, weights, "CategoryEncoding")

    def get_config(self):
        return {
            **super().get_config(),
            "num_tokens": self.num_tokens,
            "output_mode": self.output_mode,
            "sparse": self.sparse,
        }
