"""What a piece of code keeps alive, in bytes: the tape-memory figure of the benchmarks."""

import gc
import tracemalloc


def held_bytes(build):
    """Bytes allocated by ``build()`` and still held by what it returns (tracemalloc), and
    that result (kept alive until the caller lets it go)."""
    gc.collect()  # garbage from earlier work must not count
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    kept = build()
    held = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return held, kept
