"""Bounded work: a size or count that would run for minutes, or need more memory than the
machine has, is refused before the work starts.

Whether numpy refuses an array larger than memory depends on the machine: where the kernel
overcommits memory (many cloud VMs) the allocation succeeds, and the process is killed
later, while filling it. So every op that makes a tensor whose size comes from an argument
(a shape, a count, a padding) calls ``check_tensor`` (or ``arguments.shape``) first, never
relying on numpy's ``MemoryError``. Work done one Python object at a time needs the same:
a list of 20 million generators, a gradient check of order 2**31, a batch that collects a
billion elements from a dataset that repeats forever run for minutes, or until memory runs
out, before anything fails; ``check_count`` says so first.

Examples
--------
>>> from eagerkit.limits import check_count
>>> check_count(10, 1000, "count", "split", "each is made in Python")
10
>>> check_count(10**9, 1000, "count", "split", "each is made in Python")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
eagerkit.errors.ResourceExhaustedError: split: count=1000000000 is more than 1,000: ...
"""

import math
import os

from eagerkit.errors import ResourceExhaustedError

# What one Tensor costs in memory beside its data: the Tensor object and numpy's array
# header (measured with sys.getsizeof on CPython 3.11: 56 + 112 bytes), rounded up.
TENSOR_OVERHEAD_BYTES = 200


def physical_memory():
    """This machine's memory in bytes, or None where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not a POSIX system
        return None


def check_count(count, limit, what, op, why):
    """``count``, or a ``ResourceExhaustedError`` when it is above ``limit``; ``why`` says
    what each one costs (and so why the limit exists)."""
    if count > limit:
        raise ResourceExhaustedError(
            f"{op}: {what}={count} is more than {limit:,}: {why}, so this would run for "
            "minutes or until memory runs out. Ask for fewer (in rounds, if you need more).",
            op=op,
        )
    return count


def check_memory(needed, what, op, fix):
    """Refuse work that would hold ``needed`` bytes at once when the machine has less."""
    total = physical_memory()
    if total is not None and needed > total:
        raise ResourceExhaustedError(
            f"{op}: {what} would hold about {_size(needed)} at once, more than this machine's "
            f"memory ({_size(total)}); {fix}",
            op=op,
        )


def check_tensor(shape, itemsize, op):
    """Refuse a new tensor of ``shape`` whose data would not fit in memory (numpy would
    allocate it, and the machine would swap or kill the process while filling it)."""
    check_memory(
        math.prod(shape) * itemsize,
        f"a tensor of shape {tuple(shape)}",
        op,
        "ask for a smaller shape",
    )


def _size(count):
    """A byte count for people: ``'1.5 GiB'``."""
    units = ("bytes", "KiB", "MiB", "GiB", "TiB")
    power = 0
    while count >= 1024 and power < len(units) - 1:
        count /= 1024
        power += 1
    return f"{count:.0f} bytes" if power == 0 else f"{count:.1f} {units[power]}"
