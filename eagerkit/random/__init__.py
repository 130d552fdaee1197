"""``ek.random``: random numbers with TF2's seeds, the same on every device.

TF2 decides what an op draws from two seeds, and so does eagerkit:

- neither set: fresh numbers every run;
- ``ek.random.set_seed(s)`` only: one repeatable stream per device, restarted by set_seed;
- an op seed (``seed=7``): its own repeatable stream, so two calls with ``seed=7`` give two
  different draws (TF's "A1, A2"), and ``set_seed`` restarts it too;
- ``stateless_*`` ops (stateless.py) and ``Generator`` objects (generator.py, its state in a
  Variable) carry their state themselves: the same seed always gives the same numbers,
  whatever else ran.

Inside ``ek.function`` each draw of the graph has a stream of its own, as each random op of
a TF graph has (graph/draw_sites.py): with only the global seed set, every function starts
its own sequence (TF's "``f()`` and ``g()`` both give ``(A1, A2)``"); with an op seed, two
draws with ``seed=1`` both give A1, then both A2 at the next call; the trace's numbers are
the first call's; and the eager stream goes on as if the function had not drawn.

Numbers are drawn on the host by numpy's generator and copied to the device, so a lesson
prints the same values with or without a GPU. The TF1 names (``ek.random_normal``,
``ek.set_random_seed``, ...) are the same functions.

Examples
--------
>>> import eagerkit as ek
>>> ek.random.set_seed(0); a = ek.random.normal([2])
>>> ek.random.set_seed(0); b = ek.random.normal([2])
>>> bool(ek.reduce_all(a == b))
True
"""

import contextlib
import weakref

import numpy as np

from eagerkit import dtypes
from eagerkit.arguments import whole_number
from eagerkit.devices import current_device
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph import draw_sites
from eagerkit.graph.dynamic_ops import follows_inputs
from eagerkit.random import distributions
from eagerkit.random.algorithms import Algorithm
from eagerkit.random.generator import Generator, get_global_generator, set_global_generator
from eagerkit.random.stateless import (
    stateless_normal,
    stateless_truncated_normal,
    stateless_uniform,
)
from eagerkit.tensor import Tensor, convert_to_tensor

_streams = {}  # (device name, op seed or None) -> the host generator that op draws from
# A draw in ek.function: its site (graph/draw_sites.py) -> {device name: its generator}
_site_streams = weakref.WeakKeyDictionary()
_global_seed = [None]


def set_seed(seed):
    """Set the global seed: from here on, random ops give repeatable numbers.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.random.set_seed(3); first = ek.random.uniform([3], seed=1).numpy()
    >>> second = ek.random.uniform([3], seed=1).numpy()  # the same op seed: its next draw
    >>> ek.random.set_seed(3); again = ek.random.uniform([3], seed=1).numpy()
    >>> bool((first == again).all()), bool((first == second).all())
    (True, False)
    """
    _global_seed[0] = None if seed is None else whole_number(seed, "seed", "random.set_seed")
    _streams.clear()
    _site_streams.clear()  # each ek.function's draws start again too


def global_seed():
    """The global seed set by ``set_seed`` (None when unset); dataset shuffles read it."""
    return _global_seed[0]


@contextlib.contextmanager
def taking_back_draws():
    """Inside: if the block raises, the global streams are put back where they were.

    A layer's first call draws its initial weights, then may fail (an input it cannot
    take): the build is taken back, and with this so are the numbers it drew, so the next
    call draws what it would have drawn. Costs one state copy per stream, on entry.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.random.set_seed(1)
    >>> try:
    ...     with ek.random.taking_back_draws():
    ...         _ = ek.random.normal([2])
    ...         raise ValueError("the build failed")
    ... except ValueError:
    ...     pass
    >>> ek.random.set_seed(1); first = ek.random.normal([2])
    >>> ek.random.set_seed(1)
    >>> bool(ek.reduce_all(ek.random.normal([2]) == first))
    True
    """
    kept = {key: stream.bit_generator.state for key, stream in _streams.items()}
    try:
        yield
    except BaseException:
        for key in list(_streams):
            if key in kept:
                _streams[key].bit_generator.state = kept[key]
            else:
                del _streams[key]  # made inside the block: as if never drawn from
        raise


def _stream(seed, op):
    """The host generator for a draw under op seed ``seed`` on the current device: eagerly
    the one for ``seed``; in ``ek.function`` the one of the draw's site (draw_sites.py)."""
    if seed is not None:
        seed = whole_number(seed, "seed", op)
    site, tracing = draw_sites.current()
    if site is None:
        streams, key = _streams, (current_device().name, seed)
    elif tracing:  # streams the trace throws away: its numbers are the first call's
        streams, key = site.trace_streams, current_device().name
    else:
        streams, key = _site_streams.setdefault(site, {}), current_device().name
    if key not in streams:
        streams[key] = np.random.default_rng(_seeds(seed, site))
    return streams[key]


def _seeds(seed, site):
    """What a stream starts from: an op seed, with the global seed (0 when unset); no op
    seed, the global seed itself, or in ek.function its child number ``site.index`` (TF's
    op seed from the op's place in the graph); neither seed: the OS's entropy."""
    base = _global_seed[0]
    if seed is not None:
        return [base or 0, seed]
    if site is None or base is None:
        return base
    return np.random.SeedSequence(base, spawn_key=(site.index,))


@follows_inputs(draws=True)  # in ek.function: drawn at every call
def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Samples from a normal distribution (float32 unless told otherwise).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.random.normal([2, 3], seed=1).shape == (2, 3)
    True
    """
    return distributions.normal(
        lambda: _stream(seed, "random.normal"), shape, mean, stddev, dtype, "random.normal"
    )


@follows_inputs(draws=True)  # in ek.function: drawn at every call
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal samples, redrawn until each lies within two standard deviations of the mean.

    Examples
    --------
    >>> import eagerkit as ek
    >>> bool(ek.reduce_all(ek.abs(ek.random.truncated_normal([1000])) <= 2.0))
    True
    """
    op = "random.truncated_normal"
    return distributions.truncated_normal(lambda: _stream(seed, op), shape, mean, stddev, dtype, op)


@follows_inputs(draws=True)  # in ek.function: drawn at every call
def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Samples from [minval, maxval): floats (maxval defaults to 1) or integers.

    Integer dtypes need both bounds, as in TF.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.random.uniform([3], 0, 10, dtype=ek.int32, seed=1).dtype
    ek.int32
    """
    op = "random.uniform"
    return distributions.uniform(lambda: _stream(seed, op), shape, minval, maxval, dtype, op)


@follows_inputs(draws=True)  # in ek.function: drawn at every call
def categorical(logits, num_samples, dtype=dtypes.int64, seed=None, name=None):
    """For each row of ``logits`` ([batch, classes]), ``num_samples`` classes drawn with
    probabilities softmax(row): how a char-RNN samples its next character.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.random.categorical([[0.0, 20.0, 0.0]], 4, seed=1).numpy().tolist()  # almost surely 1
    [[1, 1, 1, 1]]
    """
    op = "random.categorical"
    return distributions.categorical(lambda: _stream(seed, op), logits, num_samples, dtype, op)


def shuffle(value, seed=None, name=None):
    """``value`` with its first axis randomly permuted.

    Examples
    --------
    >>> import eagerkit as ek
    >>> sorted(ek.random.shuffle([1, 2, 3, 4], seed=5).numpy().tolist())
    [1, 2, 3, 4]
    """
    from eagerkit.ops.indexing import gather

    value = convert_to_tensor(value)
    if value.ndim == 0:
        raise InvalidArgumentError(
            f"random.shuffle: value must have rank >= 1, got a scalar {value.numpy()!r}",
            op="random.shuffle",
        )
    return gather(value, _permutation(value, seed))


@follows_inputs(draws=True)  # a draw of its own: in ek.function a new order at every call
def _permutation(value, seed):
    """The order ``shuffle`` takes ``value``'s rows in (int64, on ``value``'s device)."""
    order = _stream(seed, "random.shuffle").permutation(value.shape[0])
    return Tensor(value._device.backend.asarray(order), value._device)


# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
__all__ = [
    "set_seed",
    "normal",
    "truncated_normal",
    "uniform",
    "categorical",
    "shuffle",
    "Algorithm",
    "Generator",
    "get_global_generator",
    "set_global_generator",
    "stateless_normal",
    "stateless_truncated_normal",
    "stateless_uniform",
]
