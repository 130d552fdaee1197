"""Discretization: numbers into bins between boundaries (bucketizing), given or learned.

``Discretization(bin_boundaries=[0., 1., 2.])`` puts ``x < 0`` in bin 0, ``0 <= x < 1`` in
bin 1, ``1 <= x < 2`` in bin 2 and ``x >= 2`` in bin 3. With ``num_bins`` instead,
``adapt(data)`` picks boundaries that put about as many values in each bin: the
``k / num_bins`` quantiles, where the i-th smallest of n values sits at fraction
``(i + 1) / n`` and fractions between are interpolated (Keras' rule).

As Keras 3, ``adapt`` keeps an approximate summary of the data whose error in rank is about
``epsilon`` (quantile_summary.py): up to ``1 / epsilon`` values the quantiles are exact,
beyond they are approximate, and a smaller ``epsilon`` keeps more values (closer quantiles,
more memory).
"""

import numpy as np

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers import quantile_summary
from eagerkit.keras.layers.adapt_statistics import batches_of
from eagerkit.keras.layers.base import Layer
from eagerkit.keras.layers.category_outputs import (
    check_dense,
    checked_mode,
    count_argument,
    encode,
    host_array,
)
from eagerkit.py_function import py_function
from eagerkit.tensor import Tensor, convert_to_tensor


class Discretization(Layer):
    """Each number's bin: how many boundaries are <= it.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = [[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.3, 0.0]]
    >>> ek.keras.layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])(x).numpy()
    array([[0, 2, 3, 1],
           [1, 3, 2, 1]])
    >>> learned = ek.keras.layers.Discretization(num_bins=4, epsilon=0.01)
    >>> learned.adapt(x)
    >>> [round(b, 4) for b in learned.bin_boundaries]
    [0.0, 0.5, 1.3]
    >>> learned(x).numpy()
    array([[0, 2, 3, 2],
           [1, 3, 3, 1]])
    """

    _built_at_init = True  # no weights of its own: Keras 3 builds it in the constructor

    _autocast = False  # compared as they are: an int64 input stays exact

    def __init__(
        self,
        bin_boundaries=None,
        num_bins=None,
        epsilon=0.01,
        output_mode="int",
        sparse=False,
        **kwargs,
    ):
        output_mode = checked_mode(output_mode, "Discretization")
        check_dense(sparse, "Discretization")
        if (bin_boundaries is None) == (num_bins is None):
            raise InvalidArgumentError(
                "Discretization: give exactly one of bin_boundaries= (the boundaries) and "
                f"num_bins= (then adapt(data)), got bin_boundaries={bin_boundaries!r:.40} "
                f"and num_bins={num_bins!r:.40}",
                op="Discretization",
            )
        if num_bins is not None:
            num_bins = count_argument(num_bins, "num_bins", "Discretization", 1)
        epsilon = _checked_epsilon(epsilon)
        super().__init__(**kwargs)
        if bin_boundaries is not None:
            bin_boundaries = _sorted_boundaries(bin_boundaries, "Discretization")
            num_bins = len(bin_boundaries) + 1
        self.bin_boundaries, self.num_bins = bin_boundaries, num_bins
        self.input_bin_boundaries = bin_boundaries  # given ones: adapt may not replace them
        self.epsilon, self.output_mode, self.sparse = epsilon, output_mode, False

    def adapt(self, data, steps=None):
        """Learn ``num_bins - 1`` boundaries from ``data`` (an array, a tensor, or an
        ``ek.data.Dataset`` of batches). A failed adapt changes nothing."""
        call = "Discretization.adapt"
        if self.input_bin_boundaries is not None:
            raise InvalidArgumentError(
                f"{call}: layer '{self.name}' was made with bin_boundaries=, which adapt "
                "would replace; make it with num_bins= instead to learn them, e.g. "
                "Discretization(num_bins=4).adapt(data)",
                op=call,
            )
        summary = quantile_summary.empty()
        for batch in batches_of(data, call, steps):
            values = batch if isinstance(batch, Tensor) else convert_to_tensor(batch)
            if not (values.dtype.is_floating or values.dtype.is_integer):
                raise InvalidArgumentError(
                    f"{call}: the data must be numbers, got {values.dtype.name}; hash or "
                    "look up text with Hashing or StringLookup instead",
                    op=call,
                )
            if values.shape.num_elements():
                summary = quantile_summary.summarized(values.numpy(), self.epsilon, summary)
        if summary.shape[1] == 0:
            raise InvalidArgumentError(
                f"{call}: the data holds no values to learn boundaries from; pass the "
                "training values, e.g. layer.adapt(x_train)",
                op=call,
            )
        boundaries = quantile_summary.boundaries(summary, self.num_bins)
        self.bin_boundaries = [float(b) for b in boundaries]

    def call(self, inputs):
        inputs = convert_to_tensor(inputs)  # call() itself may get an array
        if not (inputs.dtype.is_floating or inputs.dtype.is_integer):
            raise InvalidArgumentError(
                f"Discretization: layer '{self.name}' bins numbers, got {inputs.dtype.name} "
                "inputs; hash or look up text with Hashing or StringLookup instead",
                op="Discretization",
            )
        out = dtypes.int64 if self.output_mode == "int" else self.dtype
        return py_function(self._binned, [inputs], out)

    def _binned(self, inputs):
        if self.bin_boundaries is None:
            raise InvalidArgumentError(
                f"Discretization: layer '{self.name}' has no bin boundaries yet; call "
                "adapt(data) first, or make it with bin_boundaries=",
                op="Discretization",
            )
        bins = np.digitize(host_array(inputs), self.bin_boundaries).astype(np.int64)
        out = np.int64 if self.output_mode == "int" else self.dtype.as_numpy_dtype
        depth = len(self.bin_boundaries) + 1
        return encode(bins, self.output_mode, depth, out, None, "Discretization")

    def get_config(self):
        return {
            **super().get_config(),
            "bin_boundaries": self.bin_boundaries,
            "num_bins": None if self.bin_boundaries is not None else self.num_bins,
            "epsilon": self.epsilon,
            "output_mode": self.output_mode,
            "sparse": self.sparse,
        }


def _sorted_boundaries(boundaries, call):
    values = np.asarray(boundaries.numpy() if isinstance(boundaries, Tensor) else boundaries)
    if values.ndim != 1 or values.dtype.kind not in "iuf" or np.any(np.diff(values) < 0):
        raise InvalidArgumentError(
            f"{call}: bin_boundaries must be a sorted list of numbers, got "
            f"{boundaries!r:.60}; e.g. bin_boundaries=[0.0, 1.0, 2.0]",
            op=call,
        )
    return [float(b) for b in values]


def _checked_epsilon(epsilon):
    """``epsilon`` as a float between 0 and 1, or a clear error (Keras 3 would divide by 0)."""
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float, np.floating)):
        raise InvalidArgumentError(
            f"Discretization: epsilon must be a number, got {epsilon!r:.40}; it is the error "
            "adapt allows in the quantiles, e.g. epsilon=0.01",
            op="Discretization",
        )
    if not 0 < epsilon < 1:
        raise InvalidArgumentError(
            f"Discretization: epsilon must be between 0 and 1, got {epsilon!r}; it is the "
            "error adapt allows in the quantiles (a fraction of the data), e.g. epsilon=0.01",
            op="Discretization",
        )
    return float(epsilon)
