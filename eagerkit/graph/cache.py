"""Keeping traces: a bounded cache, and TF's warning when a function keeps retracing.

Every new input signature (a new shape, a new Python value) makes a new trace. Kept
forever, a function called with a new shape at every step would grow without end, so an
``ek.function`` keeps its most recently used traces only (``TraceCache``), and says, as TF
does, when it retraces so often that something is probably wrong (``RetracingDetector``).
"""

import collections
import operator
import warnings

MAX_TRACES = 64  # traces one ek.function keeps; the least recently used goes first
_LAST_USED = operator.attrgetter("last_used")


class TraceCache:
    """A dict of at most ``limit`` traces that forgets the least recently used one.

    Each entry (a ConcreteFunction) carries ``last_used``, the number of the call that last
    used it: the function writes it at every call (one attribute, no reordering, so the
    fast path stays fast), and the rare eviction looks for the smallest.

    Examples
    --------
    >>> class Trace:
    ...     last_used = 0
    >>> cache, a, b, c = TraceCache(limit=2), Trace(), Trace(), Trace()
    >>> cache.put("a", a, now=1); cache.put("b", b, now=2)
    >>> cache.get("a", now=3) is a  # "a" is now the most recently used
    True
    >>> cache.put("c", c, now=4)  # full: "b" goes
    >>> cache.get("b", now=5) is None, len(cache)
    (True, 2)
    """

    def __init__(self, limit=MAX_TRACES):
        self.limit = limit
        self.entries = {}

    def get(self, key, now):
        """The entry for ``key`` (marked used at call ``now``), or None."""
        entry = self.entries.get(key)
        if entry is not None:
            entry.last_used = now
        return entry

    def put(self, key, entry, now):
        """Keep ``entry`` under ``key``, forgetting the least recently used beyond the limit."""
        entry.last_used = now
        self.entries[key] = entry
        while len(self.entries) > self.limit:
            oldest = min(self.entries.values(), key=_LAST_USED)
            for key in [key for key, entry in self.entries.items() if entry is oldest]:
                del self.entries[key]

    def values(self):
        """The distinct entries, least recently used first."""
        found = {id(e): e for e in self.entries.values()}
        return sorted(found.values(), key=lambda e: e.last_used)

    def in_trace_order(self):
        """The distinct entries in the order they were put (TF lists traces so)."""
        return list({id(e): e for e in self.entries.values()}.values())

    def clear(self):
        self.entries.clear()

    def __len__(self):
        return len(self.entries)


class RetracingWarning(UserWarning):
    """An ek.function traced again and again: its arguments keep changing signature."""


THRESHOLD = 5  # TF warns when 5 traces happen ...
HISTORY = 10  # ... within this many calls


class RetracingDetector:
    """Notes which calls of one function traced; warns once, in TF's words, when 5 of its
    last calls (at most 10 back) all traced."""

    def __init__(self, name):
        self.name = name
        self._trace_calls = collections.deque(maxlen=THRESHOLD)
        self.warned = False

    def traced(self, call_number):
        """Call ``call_number`` of the function traced; warn when traces come too often."""
        self._trace_calls.append(call_number)
        # max/min, not last/first: a recursive function finishes its inner traces first.
        window = max(self._trace_calls) - min(self._trace_calls) + 1
        if len(self._trace_calls) == THRESHOLD and window <= HISTORY and not self.warned:
            self.warned = True
            warnings.warn(retracing_message(THRESHOLD, window, self.name), RetracingWarning, 4)


def retracing_message(traces, calls, name):
    """TF's retracing warning, for ``traces`` traces in the last ``calls`` calls."""
    return (
        f"{traces} out of the last {calls} calls to <function {name}> triggered tf.function "
        "retracing. Tracing is expensive and the excessive number of tracings could be due "
        "to (1) creating @tf.function repeatedly in a loop, (2) passing tensors with "
        "different shapes, (3) passing Python objects instead of tensors. For (1), please "
        "define your @tf.function outside of the loop. For (2), @tf.function has "
        "reduce_retracing=True option that can avoid unnecessary retracing. For (3), please "
        "refer to https://www.tensorflow.org/guide/function#controlling_retracing and "
        "https://www.tensorflow.org/api_docs/python/tf/function for  more details."
    )
