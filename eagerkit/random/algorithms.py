"""``ek.random.Algorithm`` and the Philox state a ``Generator`` keeps in a Variable.

TF's generators hold their whole state in a ``tf.Variable``: for Philox three int64 words,
``[counter_low, counter_high, key]``. The key says which stream, the 128-bit counter how far
along it a generator is; each draw moves the counter on. eagerkit keeps the same three
words and draws with numpy's Philox (``np.random.Philox``) at that key and counter, so the
state is all there is: save it, restore it or assign it, and the same numbers follow (the
numbers themselves are numpy's Philox, not TF's bits).
"""

import enum

import numpy as np

from eagerkit.arguments import whole_number
from eagerkit.errors import InvalidArgumentError

STATE_SIZE = 3  # [counter_low, counter_high, key], as TF's Philox


class _Numbered(enum.EnumMeta):
    """``Algorithm(value)`` refuses what is not a whole number before the Enum's lookup
    (which compares an array with each value and fails in numpy's words)."""

    def __call__(cls, value, *args, **kwargs):
        whole = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
        if not args and not kwargs and not whole and not isinstance(value, cls):
            cls._missing_(value)
        return super().__call__(value, *args, **kwargs)


class Algorithm(enum.Enum, metaclass=_Numbered):
    """The random-number algorithms TF names; eagerkit draws with Philox.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.random.Algorithm.PHILOX.value
    1
    """

    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3

    @classmethod
    def _missing_(cls, value):  # Algorithm(7): a ValueError that says what exists
        raise InvalidArgumentError(
            f"random.Algorithm: no algorithm numbered {type(value).__name__} {value!r:.40}; "
            "use 1 (PHILOX), 2 (THREEFRY) or 3 (AUTO_SELECT)",
            op="random.Algorithm",
        )


_NAMES = {"philox": Algorithm.PHILOX, "threefry": Algorithm.THREEFRY}
_NAMES["auto_select"] = Algorithm.AUTO_SELECT


def algorithm(alg, op):
    """``alg`` (None, a name, an ``Algorithm`` or its number) as the Algorithm eagerkit runs:
    Philox. ThreeFry is refused: TF has it on XLA devices (TPUs) only, which eagerkit has not."""
    if alg is None:
        return Algorithm.PHILOX
    chosen = None
    if isinstance(alg, Algorithm):
        chosen = alg
    elif isinstance(alg, str):
        chosen = _NAMES.get(alg.lower())
    elif isinstance(alg, (int, np.integer)) and not isinstance(alg, bool):
        chosen = next((a for a in Algorithm if a.value == alg), None)
    if chosen is None:
        raise InvalidArgumentError(
            f"{op}: unknown algorithm alg={alg!r}; use 'philox' (or ek.random.Algorithm.PHILOX, "
            "'auto_select', None)",
            op=op,
        )
    if chosen is Algorithm.THREEFRY:
        raise InvalidArgumentError(
            f"{op}: alg={alg!r}: ThreeFry runs on XLA devices (TPUs) in TF, and eagerkit has "
            "none; use alg='philox', which TF has on every device",
            op=op,
        )
    return Algorithm.PHILOX


def key_from_seed(words):
    """One 64-bit key from seed words: numpy's SeedSequence spreads nearby seeds apart, so
    ``from_seed(1)`` and ``from_seed(2)`` get unrelated streams. ``None``: from the OS."""
    return int(np.random.SeedSequence(words).generate_state(1, np.uint64)[0])


def state_words(state, op):
    """A state argument (list, array or tensor of 3 integers) as three ints mod 2**64."""
    if hasattr(state, "numpy"):
        state = state.numpy()
    words = state.tolist() if isinstance(state, np.ndarray) else state
    if not isinstance(words, (list, tuple)) or len(words) != STATE_SIZE:
        raise InvalidArgumentError(
            f"{op}: a Philox state is {STATE_SIZE} integers [counter_low, counter_high, key], "
            f"got {type(state).__name__} {state!r:.60}; pass e.g. [0, 0, 7] (what "
            "g.state.numpy() holds)",
            op=op,
        )
    return [whole_number(w, "each state word", op) % 2**64 for w in words]


def as_int64(words):
    """Three ints mod 2**64 as the int64 array a state Variable holds (the same bits)."""
    return np.array([w % 2**64 for w in words], dtype=np.uint64).view(np.int64)


def philox_at(words):
    """numpy's generator at state words ``[counter_low, counter_high, key]``."""
    low, high, key = (int(w) % 2**64 for w in words)
    return np.random.Generator(np.random.Philox(counter=[low, high, 0, 0], key=[key, 0]))


def words_after(generator, key):
    """The state words of ``generator`` (from ``philox_at``) after it drew: its counter."""
    counter = generator.bit_generator.state["state"]["counter"]
    return [int(counter[0]), int(counter[1]), key]
