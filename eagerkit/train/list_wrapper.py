"""ListWrapper: a list given to a ``Checkpoint``, watched so that an append restores, as in TF.

``checkpoint.listed = []`` keeps the user's list inside a ``ListWrapper`` (the same list, not a
copy: a change made through either name is seen by both). Saving walks its items as it walks a
list (``listed/0``, ``listed/1``, ...). What the wrapper adds is TF's delayed restore on append:
a value restored for ``listed/0`` before the list had an item 0 is assigned the moment a
variable is appended there (tracking.restore_deferred).

Examples
--------
>>> import eagerkit as ek, os, tempfile
>>> saved = ek.train.Checkpoint()
>>> saved.listed = [ek.Variable(1.0)]
>>> path = saved.write(os.path.join(tempfile.mkdtemp(), "ckpt"))
>>> restore = ek.train.Checkpoint()
>>> restore.listed = []
>>> restore.listed
ListWrapper([])
>>> _ = restore.read(path)
>>> v1 = ek.Variable(0.0)
>>> restore.listed.append(v1)  # the value waiting for listed/0 is assigned now
>>> float(v1)
1.0
"""

from collections.abc import MutableSequence

from eagerkit.train import tracking


class ListWrapper(MutableSequence):
    """A view of ``items`` (a list) whose changes assign values a restore left waiting."""

    def __init__(self, items):
        self._items = items  # the user's list itself

    def _checkpoint_dependencies(self):
        return [
            (str(i), item) for i, item in enumerate(self._items) if tracking._may_hold_state(item)
        ]

    def __getitem__(self, index):
        return self._items[index]

    def __setitem__(self, index, value):
        self._items[index] = value
        tracking.restore_deferred(self)

    def __delitem__(self, index):
        del self._items[index]

    def __len__(self):
        return len(self._items)

    def insert(self, index, value):
        self._items.insert(index, value)
        tracking.restore_deferred(self)

    def __eq__(self, other):
        return self._items == (other._items if isinstance(other, ListWrapper) else other)

    __hash__ = None  # mutable, as a list

    def __repr__(self):
        return f"ListWrapper({self._items!r})"


def wrapped(value):
    """``value`` in a ListWrapper if it is a plain list, else ``value`` itself."""
    return ListWrapper(value) if type(value) is list else value
