"""Big host arrays used again: a memory pool for the CPU, as cupy keeps one for the GPU.

Why: glibc hands a big freed block back to the system, and the next array of that size
gets fresh pages, each zeroed by the kernel on its first write (a page fault). An eager
training step makes and frees the same big arrays every step (a layer's output, its
gradient), so it pays those faults every step: at the full digits batch, an MLP step made
350-1,200 faults per step and spent a third of its time in them (benchmarks/idiomatic.py
prints the faults per step of each contender). numpy by hand dodges most of them by
writing in place; eagerkit cannot, as a tape keeps every intermediate value.

How: the pool keeps every array it hands out, and an array is free again once nothing but
the pool holds it: ``sys.getrefcount`` then says what it says of an array only the pool
holds (counted once at import, with the same steps, as each Python counts its own
temporary references). Anything that can still read the array holds a reference: the
Tensor made with it, a view of it (a view holds its base), a user's numpy name for it
(``np.asarray(tensor)`` is the array itself; ``Tensor.numpy()`` a copy), a memoryview. So
a reused array is one nobody can read any more, and the kernels write every element of it.

The kernels that ask are those of a dense layer's big arrays: 2-D ``matmul``, ``bias_add``,
``relu`` and relu's gradient. Plain ``+``, ``-`` and ``*`` do not: their check would cost
every small op a few percent (a chain of (10,) ops, ``x * w + b``), and the one big array
each makes per layer is reused by glibc's heap without faults once the others stay here
(an MLP step at the full digits batch: about 0 faults per step either way). Only plain
numpy arrays (not the simulated GPU's) of at least ``MIN_BYTES`` are pooled; smaller ones
come from glibc's heap without faults. The pool holds at most ``LIMIT_BYTES`` in all:
when a new array would pass it, the free ones are let go first, and past that the array
is made as usual and not kept.

A weak reference (``weakref.ref(np.asarray(t))``) holds nothing but would still reach a free
array, which the pool keeps alive: such an array is never handed out again (``release``
lets it go, and the weak reference then dies, as it would have without the pool). A raw
address (``array.ctypes.data``) outlives its array, with the pool or without.

What a user sees: memory freed with ``del`` stays in the process, up to ``LIMIT_BYTES``,
until a new array would pass the limit or ``release()`` is called.

One thread at a time (the GIL): an array being handed out is still held by the loop's own
name, so a second caller sees it taken. The byte count is not guarded against threads that
interleave; at worst an array leaves the pool early, and no value changes.

Examples
--------
>>> import numpy as np
>>> a = empty((512, 256), np.float64)  # 1 MiB: from the pool
>>> address = a.ctypes.data
>>> del a  # nothing holds it now but the pool
>>> empty((512, 256), np.float64).ctypes.data == address  # the same memory, again
True
"""

from sys import getrefcount
from weakref import getweakrefcount

import numpy as np

MIN_BYTES = 1 << 18  # 256 KiB: numpy's own threshold for reusing a temporary in place
LIMIT_BYTES = 1 << 26  # 64 MiB held at most, free or in use (see release)

_buckets = {}  # (shape, dtype) -> the arrays of that shape and dtype handed out
_held = 0  # bytes of every array in the buckets


def _count_of_a_free_array():
    """What ``getrefcount`` says, in ``empty``'s loop, of an array only the pool holds."""
    bucket = [np.empty(0)]
    for array in bucket:
        return getrefcount(array)


FREE = _count_of_a_free_array()


def empty(shape, dtype):
    """An uninitialised C-ordered numpy array nobody else holds, from the pool when big.

    ``shape`` is a tuple of ints, ``dtype`` a numpy dtype. The caller writes every element.
    """
    dtype = np.dtype(dtype)
    nbytes = dtype.itemsize
    for n in shape:
        nbytes *= n
    if nbytes < MIN_BYTES:
        return np.empty(shape, dtype)
    global _held
    key = (shape, dtype)
    for array in _buckets.get(key, ()):
        # Free: the same steps as _count_of_a_free_array; and no weak reference reaches it
        # (one would read the new values where, without the pool, it would find it dead).
        if getrefcount(array) == FREE and not getweakrefcount(array):
            return array
    array = np.empty(shape, dtype)
    if _held + nbytes > LIMIT_BYTES:
        release()  # make room: let go of every free array
    if _held + nbytes <= LIMIT_BYTES:
        _buckets.setdefault(key, []).append(array)
        _held += nbytes
    return array


def like(x):
    """``empty(x.shape, x.dtype)`` for a numpy array ``x``, or None for any other array (the
    kernel then makes its result as usual)."""
    if type(x) is not np.ndarray or x.nbytes < MIN_BYTES:
        return None
    return empty(x.shape, x.dtype)


def elementwise_output(x, y):
    """An array for ``ufunc(x, y, out=...)`` of two float numpy arrays of one dtype, where
    one of them has the result's shape (the other broadcasts into it: ``x @ w + b``), or
    None when the kernel should make its result as usual."""
    if type(x) is not np.ndarray or type(y) is not np.ndarray:
        return None
    big = x if x.size >= y.size else y
    if big.nbytes < MIN_BYTES or x.dtype is not y.dtype or x.dtype.kind not in "fc":
        return None  # small, or of two dtypes, or ints and bools (some ufuncs change those)
    if x.shape != y.shape and np.broadcast_shapes(x.shape, y.shape) != big.shape:
        return None
    return empty(big.shape, big.dtype)


def matmul_output(a, b):
    """An array for ``matmul(a, b, out=...)`` of two float numpy matrices of one dtype whose
    sides fit, or None when the kernel should make its result as usual."""
    if a.ndim != 2 or b.ndim != 2 or a.shape[0] * b.shape[1] * a.itemsize < MIN_BYTES:
        return None  # first the test that turns most products away: a small result
    if type(a) is not np.ndarray or type(b) is not np.ndarray or a.dtype is not b.dtype:
        return None
    if a.shape[1] != b.shape[0] or a.dtype.kind not in "fc":
        return None
    return empty((a.shape[0], b.shape[1]), a.dtype)


# --- a gradient lent to the kernel that reads it last ----------------------------------------
# numpy by hand writes ``(d @ w.T) * mask`` into the product's own memory (it reuses a
# temporary nobody else holds), so relu's gradient touches no third big array. The reverse
# sweep does the same: a gradient it passes to a one-input VJP, that it alone holds, is lent
# (``lent``) for that call, and a kernel that knows it reads it last (relu's gradient,
# ops/nn.py) may write its result into it. On (1437, 128) float32 (the full digits batch)
# relu's gradient took 70 us written into the product's memory, still in the cache, against
# 93 us into a third array, and benchmarks/idiomatic.py's MLP step ran 3 to 4% faster.


# The array lent for the VJP running now, or None (fast_sweep.py sets it). Threads: another
# thread's sweep may set it meanwhile; a kernel writes into its own ``g`` only when ``g is
# lent``, so at worst a lend is missed, and no kernel ever writes into another's array.
lent = None


def lendable(array):
    """Whether ``array``, a local name of the caller's, is held by nothing else but the pool:
    no Tensor, no view, no user, no other gradient holds it, so nobody can read it again.

    Only a pooled array can be: the pool's own reference is the one that ``getrefcount``
    finds beyond the caller's, and a pooled array is nobody's view.
    """
    if type(array) is not np.ndarray or array.nbytes < MIN_BYTES:
        return False
    if getrefcount(array) != LENDABLE:  # the same steps as _count_of_a_lendable_array
        return False
    for pooled in _buckets.get((array.shape, array.dtype), ()):
        if pooled is array:
            return True
    return False


def _count_of_a_lendable_array():
    """What ``getrefcount`` says in ``lendable`` of an array its caller and the pool alone
    hold: the pool's bucket, the caller's name, ``lendable``'s argument (here ``_counted``'s)."""
    bucket = [np.empty(0)]
    array = bucket[0]
    return _counted(array)


def _counted(array):
    return getrefcount(array)


LENDABLE = _count_of_a_lendable_array()


def release():
    """Let go of every free array (those in use stay in the pool)."""
    global _held
    for key, bucket in list(_buckets.items()):
        in_use = []
        for array in bucket:
            if getrefcount(array) == FREE:  # the same steps as _count_of_a_free_array
                _held -= array.nbytes
            else:
                in_use.append(array)
        if in_use:
            _buckets[key] = in_use
        else:
            del _buckets[key]


def held_bytes():
    """Bytes held by the pool: its free arrays and those in use."""
    return _held
