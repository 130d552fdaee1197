"""Iterator: one pass over a Dataset, with a position (TF1's ``tfe.Iterator``).

``for x in dataset`` makes one behind the scenes; ``ek.Iterator(dataset)`` is the TF 1.5
spelling from the CS20 lecture-4 code (``for x_i, y_i in tfe.Iterator(dataset)``).

Inside ``ek.function``, ``next(iterator)`` on an iterator made outside it is a graph node
that takes the next element at every call, as TF's ``IteratorGetNext`` (the tf.function
guide's ``good_consume_next``): the trace looks ahead at the elements it needs for their
shapes and dtypes and keeps them for the calls, so the first call still gets them; past the
end it raises OutOfRangeError, as TF's. A ``for`` loop over such an iterator ends where the
iterator does: the trace is unrolled over the elements left, and a later call replays it only
while the iterator holds exactly that many (else it traces again: a loop over an exhausted
iterator runs zero times, as TF's loop does). An iterator made inside the trace (``for x in
dataset`` in the function) is read while tracing, as before: its elements are the trace's
constants.
"""

import weakref

import numpy as np

from eagerkit import recording
from eagerkit.data import structure
from eagerkit.data.steps import Failed
from eagerkit.errors import OutOfRangeError
from eagerkit.graph.graph_ops import GraphOp
from eagerkit.tensor import Tensor


class Iterator:
    """A Python iterator over the elements of ``dataset``, from the start.

    Examples
    --------
    >>> import eagerkit as ek
    >>> it = ek.Iterator(ek.data.Dataset.range(2))
    >>> it.get_next()
    <ek.Tensor: shape=(), dtype=int64, numpy=0>
    >>> next(it)
    <ek.Tensor: shape=(), dtype=int64, numpy=1>
    >>> it.get_next()
    Traceback (most recent call last):
    ...
    eagerkit.errors.OutOfRangeError: End of sequence: the dataset has no more elements ...
    """

    def __init__(self, dataset):
        from eagerkit.data.dataset import Dataset

        if not isinstance(dataset, Dataset):
            raise TypeError(
                f"Iterator expects an ek.data.Dataset, got {type(dataset).__name__}; make one "
                "with ek.data.Dataset.from_tensor_slices(...)"
            )
        self._dataset = dataset
        self._elements = dataset._make_iterator()
        self._taken_count = 0  # the position a checkpoint saves
        self._looked_ahead = []  # elements traces looked at, to be taken first (graph replays)
        self._made_in_trace = bool(recording.graph_tracers)  # then read while tracing

    def __iter__(self):
        if recording.graph_tracers and not self._made_in_trace:
            return _LoopReading(self)  # a for loop in a trace: it ends at the iterator's end
        return self

    def __next__(self):
        if recording.graph_tracers and not self._made_in_trace:  # a node, run at each call
            return _traced_next(self)
        return self._take()

    def _take(self):
        element = self._looked_ahead.pop(0) if self._looked_ahead else next(self._elements)
        self._taken_count += 1
        if type(element) is Failed:  # an element's error; the next call goes on after it
            raise element.error
        return element

    # --- checkpointing: ek.train.Checkpoint(iterator=it) saves and restores the position -----
    def _checkpoint_dependencies(self):
        return []  # no variables inside; the position is saved by _checkpoint_state

    def _checkpoint_state(self):
        """The position: how many elements were taken (TF saves its buffers; eagerkit replays
        the dataset up to here, so a shuffle resumes in the same order only if it is seeded)."""
        return np.asarray(self._taken_count, dtype=np.int64)

    def _restore_checkpoint_state(self, position):
        """Go back (or forward) to ``position`` elements taken: restart and skip that many."""
        self._elements = self._dataset._make_iterator()
        self._looked_ahead = []
        self._taken_count = 0
        for _ in range(int(position)):
            try:
                next(self._elements)
            except StopIteration:
                break
            self._taken_count += 1

    def _holds_exactly(self, count):
        """Whether exactly ``count`` elements are left (read ahead, to be taken later)."""
        while len(self._looked_ahead) <= count:
            try:
                self._looked_ahead.append(next(self._elements))
            except StopIteration:
                break
        return len(self._looked_ahead) == count

    def next(self):
        """The next element (``StopIteration`` at the end, like ``next(iterator)``)."""
        return self.__next__()

    def get_next(self):
        """The next element; at the end ``OutOfRangeError``, as TF's ``get_next()`` raises.

        An element whose making failed (its ``map`` function raised) raises that error;
        the iterator then goes on with the next element, as TF's does.
        """
        try:
            return self.__next__()
        except StopIteration:
            raise _end() from None


def _end():
    return OutOfRangeError(
        "End of sequence: the dataset has no more elements (use .repeat() to read it again, "
        "or make a new iterator)",
        op="IteratorGetNext",
    )


def _taken(iterator):
    """The next element, untraced (a graph's replay, or its trace looking ahead)."""
    try:
        return iterator._take()
    except StopIteration:
        raise _end() from None


def _next_forward(xp, iterator):
    """The replay's kernel: the next element's arrays (OutOfRangeError at the end, as TF)."""
    return tuple(leaf._data for leaf in structure.flatten(_taken(iterator)))


def _next_call(iterator):
    return structure.flatten(_taken(iterator))


# Stateful (each run takes another element) and an effect (it takes one even if unused).
ITERATOR_NEXT = GraphOp("iterator_next", _next_forward, _next_call, stateful=True, effects=True)


# How many elements each trace has read from each iterator: the trace's k-th next() looks
# at the k-th element not yet taken (a loop in the trace must not see one element forever).
_reads = weakref.WeakKeyDictionary()  # tracer -> {id(iterator): count}


class _LoopReading:
    """``for x in iterator`` inside a trace: each step is a traced ``next``, and the loop
    ends where the iterator does (an explicit ``next`` there raises OutOfRangeError)."""

    def __init__(self, iterator):
        self._iterator = iterator

    def __iter__(self):
        return self

    def __next__(self):
        return _traced_next(self._iterator, in_loop=True)


def _traced_next(iterator, in_loop=False):
    """Record ``next(iterator)``; the trace gets the values of the element this node will
    take at the first call, which stays in the iterator until then."""
    tracer = recording.graph_tracers[-1]
    counts = _reads.setdefault(tracer, {})
    position = counts.get(id(iterator), 0)
    while len(iterator._looked_ahead) <= position:
        try:
            iterator._looked_ahead.append(next(iterator._elements))
        except StopIteration:
            if not in_loop:  # next(iterator) past the end: TF's IteratorGetNext error
                raise _end() from None
            # The loop ends here, after `position` reads: a later call replays this trace
            # only for an iterator holding that many (else it traces again, so a loop over
            # an exhausted iterator runs zero times, as TF's does)
            tracer.add_guard(lambda: iterator._holds_exactly(position))
            raise
    element = iterator._looked_ahead[position]
    if type(element) is Failed:
        raise element.error
    counts[id(iterator)] = position + 1
    leaves = [Tensor(leaf._data, leaf._device) for leaf in structure.flatten(element)]
    tracer.record_graph_op(ITERATOR_NEXT, [], {"iterator": iterator}, leaves)
    return structure.pack(element, leaves)
