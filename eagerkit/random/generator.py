"""``ek.random.Generator``: random numbers whose state you hold, in a Variable, as TF's.

A ``Generator`` keeps its whole state in ``g.state``, an int64 ``Variable`` of three words
(algorithms.py: Philox's counter and key). Every draw reads it and moves the counter on, so:

- ``Generator.from_seed(1)`` always starts the same way, and nothing else (the global seed,
  other ops) moves it;
- a checkpoint saves and restores it like any variable: the stream goes on from there;
- inside ``ek.function`` a draw is a node that draws again, and moves the state, at every
  call (TF's rule for generators is the rule for variables); ``split`` makes its new
  generators once, while tracing, and moves the state past their keys then.

The stateless ops (stateless.py) keep no state at all.
"""

import numpy as np

from eagerkit import dtypes, limits, recording
from eagerkit.arguments import size
from eagerkit.device_scope import scope_on
from eagerkit.devices import get_device
from eagerkit.errors import InvalidArgumentError
from eagerkit.graph.dynamic_ops import follows_inputs
from eagerkit.graph.trace import outside_traces
from eagerkit.random import algorithms, distributions
from eagerkit.random.stateless import seed_words
from eagerkit.variables import Variable

# Making one Generator takes about 70 µs and 1 KiB (a Variable and its state), so 20
# million of them ran for half an hour: more than this many is refused at once.
_MAX_SPLIT = 100_000
_SPLIT_COST = "each generator takes about 70 µs and 1 KiB to make"


class Generator:
    """A random-number generator with its own state, like ``tf.random.Generator``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> g = ek.random.Generator.from_seed(1)
    >>> a = g.normal([3])
    >>> b = ek.random.Generator.from_seed(1).normal([3])
    >>> bool(ek.reduce_all(a == b)), bool(ek.reduce_all(g.normal([3]) == a))
    (True, False)
    >>> g.state.shape, g.state.dtype  # [counter_low, counter_high, key]
    (TensorShape([3]), ek.int64)
    """

    def __init__(self, copy_from=None, state=None, alg=None, seed=None):
        op = "random.Generator"
        algorithms.algorithm(alg, op)
        if copy_from is not None:
            if not isinstance(copy_from, Generator):
                raise InvalidArgumentError(
                    f"{op}: copy_from must be an ek.random.Generator, got "
                    f"{type(copy_from).__name__}",
                    op=op,
                )
            words = algorithms.state_words(copy_from.state, op)
        elif state is not None:
            words = algorithms.state_words(state, op)
        else:  # eagerkit's seed= (from_seed's words); neither: from the OS
            key_words = None if seed is None else seed_words(seed, op)
            words = [0, 0, algorithms.key_from_seed(key_words)]
        # The state stays on the host, where numpy draws; the numbers go to the current device.
        with scope_on(get_device("/cpu:0")):
            self._state_var = Variable(algorithms.as_int64(words), trainable=False, name="state")

    # --- making one -------------------------------------------------------------------------
    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator that starts from ``seed`` (a non-negative int, or a list of ints)."""
        op = "random.Generator.from_seed"
        algorithms.algorithm(alg, op)
        return cls(seed=seed_words(seed, op))

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from the operating system: different every run."""
        return cls(alg=alg)

    @classmethod
    def from_state(cls, state, alg):
        """A generator at ``state`` (three integers: counter low and high, key)."""
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        """A generator at ``key`` (an int) and ``counter`` (two ints)."""
        op = "random.Generator.from_key_counter"
        return cls(state=_key_counter_words(key, counter, op), alg=alg)

    # --- what it holds ----------------------------------------------------------------------
    @property
    def state(self):
        """The state Variable (int64, shape [3]): checkpoint it, read it, or ``reset`` it."""
        return self._state_var

    @property
    def algorithm(self):
        """The algorithm's number: 1, Philox (``ek.random.Algorithm.PHILOX.value``)."""
        return algorithms.Algorithm.PHILOX.value

    @property
    def key(self):
        """The key: which stream this generator draws from (an int64 scalar tensor)."""
        return self._state_var[-1]

    # --- starting again -----------------------------------------------------------------------
    def reset(self, state):
        """Go to ``state`` (three integers, as ``g.state`` holds)."""
        self._put(algorithms.state_words(state, "random.Generator.reset"))

    def reset_from_seed(self, seed):
        """Start again from ``seed``: the numbers ``from_seed(seed)`` gives."""
        words = seed_words(seed, "random.Generator.reset_from_seed")
        self._put([0, 0, algorithms.key_from_seed(words)])

    def reset_from_key_counter(self, key, counter):
        """Go to ``key`` and ``counter`` (two ints)."""
        self._put(_key_counter_words(key, counter, "random.Generator.reset_from_key_counter"))

    def _put(self, words):
        if recording.graph_tracers:  # a reset in ek.function: an assign, run at every call
            self._state_var.assign(algorithms.as_int64(words))
            return
        # Eagerly the generator's own write, not an assign op: in ek.function the draw node,
        # which runs the draw again at every call, is the one thing that moves the state.
        self._state_var._write(algorithms.as_int64(words), "random.Generator")

    def _draw(self, sample):
        """``sample(generator)`` from the current state, then the state moved past it. A call
        that fails (a bad argument, checked before drawing) leaves the state as it was."""
        words = self._state_var._data.view(np.uint64).tolist()
        generator = algorithms.philox_at(words)
        result = sample(generator)
        if not recording.graph_tracers:  # a trace only looks: its draw node moves the state
            self._put(algorithms.words_after(generator, words[2]))
        return result

    # --- new generators and seeds -----------------------------------------------------------
    def split(self, count=1):
        """``count`` new, independent generators (this one's stream moves on).

        Examples
        --------
        >>> import eagerkit as ek
        >>> left, right = ek.random.Generator.from_seed(0).split(2)
        >>> bool(ek.reduce_all(left.uniform([4]) == right.uniform([4])))
        False
        """
        op = "random.Generator.split"
        count = size(count, "count", op)
        limits.check_count(count, _MAX_SPLIT, "count", op, _SPLIT_COST)
        # In ek.function the new generators are made once, while tracing (as TF's, whose
        # start is lifted out of the graph): their keys are drawn then, eagerly, and this
        # one moves past them, so that its later draws never repeat the keys it gave away.
        with outside_traces():
            keys = self._draw(lambda g: _keys(g, count))
        return [Generator(state=[0, 0, int(key)]) for key in keys]

    # In ek.function: drawn at every call, used or not (the state moves, as in TF)
    @follows_inputs(draws=True, effects=True)
    def make_seeds(self, count=1):
        """Seeds for the stateless ops: an int64 tensor ``[2, count]``, one seed a column.

        Examples
        --------
        >>> import eagerkit as ek
        >>> seeds = ek.random.Generator.from_seed(1).make_seeds(3)
        >>> seeds.shape, ek.random.stateless_normal([2], seed=seeds[:, 0]).shape
        (TensorShape([2, 3]), TensorShape([2]))
        """
        count = size(count, "count", "random.Generator.make_seeds")
        return self._draw_with(distributions.full_int, [2, count], dtypes.int64, op="make_seeds")

    # --- the draws ----------------------------------------------------------------------------
    def _draw_with(self, distribution, *args, op):
        """``distribution(source, *args, op)``, drawn from this generator's state."""
        return self._draw(lambda g: distribution(g, *args, f"random.Generator.{op}"))

    @follows_inputs(draws=True, effects=True)
    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Samples from a normal distribution."""
        return self._draw_with(distributions.normal, shape, mean, stddev, dtype, op="normal")

    @follows_inputs(draws=True, effects=True)
    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Normal samples within two standard deviations of the mean."""
        draw = distributions.truncated_normal
        return self._draw_with(draw, shape, mean, stddev, dtype, op="truncated_normal")

    @follows_inputs(draws=True, effects=True)
    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Samples from [minval, maxval)."""
        return self._draw_with(distributions.uniform, shape, minval, maxval, dtype, op="uniform")

    @follows_inputs(draws=True, effects=True)
    def uniform_full_int(self, shape, dtype=dtypes.int64, name=None):
        """Integers over the whole range of ``dtype``, int32 or int64 (TF's default, uint64,
        is no eagerkit dtype: int64 holds the same 64 random bits).

        Examples
        --------
        >>> import eagerkit as ek
        >>> ek.random.Generator.from_seed(1).uniform_full_int([2], ek.int32).dtype
        ek.int32
        """
        return self._draw_with(distributions.full_int, shape, dtype, op="uniform_full_int")

    def __repr__(self):
        counter_low, counter_high, key = self._state_var._data.view(np.uint64).tolist()
        return f"<ek.random.Generator philox key={key} counter=[{counter_low}, {counter_high}]>"


def _keys(generator, count):
    """``count`` keys for new generators, drawn from ``generator`` (numpy's Philox)."""
    return generator.integers(0, 2**64, size=count, dtype=np.uint64)


def _key_counter_words(key, counter, op):
    if hasattr(counter, "numpy"):
        counter = counter.numpy()
    counter = counter.tolist() if hasattr(counter, "tolist") else counter
    if not isinstance(counter, (list, tuple)) or len(counter) != 2:
        raise InvalidArgumentError(
            f"{op}: a Philox counter is two integers [low, high], got "
            f"{type(counter).__name__} {counter!r:.60}; pass e.g. [0, 0] (a new stream)",
            op=op,
        )
    return algorithms.state_words([*counter, key], op)


_global_generator = [None]


def get_global_generator():
    """The generator ``ek.random`` code may share (made on first use, from the OS)."""
    if _global_generator[0] is None:
        _global_generator[0] = Generator.from_non_deterministic_state()
    return _global_generator[0]


def set_global_generator(generator):
    """Replace the shared generator (e.g. with ``Generator.from_seed(...)`` in a test)."""
    if not isinstance(generator, Generator):
        raise InvalidArgumentError(
            f"random.set_global_generator: expected an ek.random.Generator, got "
            f"{type(generator).__name__}",
            op="random.set_global_generator",
        )
    _global_generator[0] = generator
