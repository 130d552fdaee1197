"""Summaries: scalars and histograms logged during training, as JSON lines on disk.

``tf.contrib.summary``'s eager API: make a writer, make it the default, and call
``scalar``/``histogram`` inside the training loop. Each writer appends to its own file
``<logdir>/events.<unix time>.<pid>.<n>.jsonl``, one JSON object per line::

    {"kind": "scalar", "tag": "loss", "step": 3, "wall_time": 1700000000.25, "value": 0.5}
    {"kind": "histogram", "tag": "w", "step": 3, "wall_time": ..., "edges": [e0, ..., eK],
     "counts": [c1, ..., cK], "min": ..., "max": ..., "sum": ..., "count": N}

Non-finite values are written as the strings ``"NaN"``, ``"Infinity"``, ``"-Infinity"``
(JSON has no numbers for them). ``read_events(logdir)`` reads the lines back, and the loss
curve widgets read the same files.

Recording policy: a summary is written when a default writer is set and the policy says
so. Unlike TF 1.x, whose default policy records nothing, eagerkit records by default (as
TF 2 does); ``record_summaries_every_n_global_steps(n)`` and ``never_record_summaries()``
narrow it.

Examples
--------
>>> import eagerkit as ek, tempfile
>>> writer = ek.summary.create_file_writer(tempfile.mkdtemp())
>>> with writer.as_default():
...     for step in range(3):
...         _ = ek.summary.scalar("loss", 1.0 / (step + 1), step=step)
>>> [(e["step"], round(e["value"], 3)) for e in ek.summary.read_events(writer.logdir)]
[(0, 1.0), (1, 0.5), (2, 0.333)]
"""

import contextlib
import glob
import itertools
import json
import math
import os
import time

import numpy as np

from eagerkit import limits
from eagerkit.arguments import positive, whole_number
from eagerkit.errors import FailedPreconditionError, InvalidArgumentError
from eagerkit.tensor import Tensor
from eagerkit.train.checks import number

_writers = []  # the default writer is the last one
_policies = []  # zero-argument callables; the last one decides (none: always record)
_file_numbers = itertools.count()
_MAX_BUCKETS = 100_000


class SummaryWriter:
    """Appends summary lines to one ``.jsonl`` file in ``logdir``; see the module docstring."""

    def __init__(self, logdir, max_queue=10, flush_millis=120_000):
        self.logdir = os.fspath(logdir)
        # Check every argument before the first file is made: a failed call leaves no files.
        self.max_queue = max(whole_number(max_queue, "max_queue", "create_file_writer"), 1)
        self.flush_seconds = number(flush_millis, "flush_millis", "create_file_writer") / 1000
        os.makedirs(self.logdir, exist_ok=True)
        name = f"events.{int(time.time())}.{os.getpid()}.{next(_file_numbers)}.jsonl"
        self.path = os.path.join(self.logdir, name)
        open(self.path, "a").close()  # the file exists from the start, even if empty
        self._queue = []
        self._last_flush = time.monotonic()
        self.closed = False

    @contextlib.contextmanager
    def as_default(self):
        """Make this the writer that ``scalar`` and ``histogram`` use inside the block."""
        _writers.append(self)
        try:
            yield self
        finally:
            _writers.pop()  # blocks nest, so ours is the last one
            if not self.closed:
                self.flush()

    def set_as_default(self):
        """Make this the default writer from now on."""
        _writers.append(self)

    def write(self, record):
        """Queue one record (a dict); it reaches the file on ``flush`` or when the queue fills."""
        if self.closed:
            raise FailedPreconditionError(
                f"summary writer for {self.logdir} is closed; create a new one with "
                "ek.summary.create_file_writer(logdir)",
                op="summary",
            )
        self._queue.append(json.dumps(record, allow_nan=False))
        if len(self._queue) >= self.max_queue or (
            time.monotonic() - self._last_flush >= self.flush_seconds
        ):
            try:
                self.flush()
            except BaseException:
                self._queue.pop()  # the call failed: the record is not logged later either
                raise

    def flush(self):
        """Append the queued lines to the file (all of them, or, if writing fails, none)."""
        if self._queue:
            text = "".join(line + "\n" for line in self._queue)
            length = os.path.getsize(self.path) if os.path.exists(self.path) else 0
            try:
                with open(self.path, "a") as f:
                    f.write(text)
            except BaseException:  # a full disk: take back a partly written line
                if os.path.exists(self.path) and os.path.getsize(self.path) > length:
                    os.truncate(self.path, length)
                raise
            self._queue.clear()
        self._last_flush = time.monotonic()

    def close(self):
        """Flush and stop accepting summaries."""
        if not self.closed:
            self.flush()
            self.closed = True

    def __repr__(self):
        return f"<ek.summary.SummaryWriter {self.path!r}>"


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None, name=None):
    """A ``SummaryWriter`` for ``logdir`` (created if missing): up to ``max_queue`` (10) lines
    wait in memory, at most ``flush_millis`` (2 minutes)."""
    return SummaryWriter(
        logdir,
        max_queue=10 if max_queue is None else max_queue,
        flush_millis=120_000 if flush_millis is None else flush_millis,
    )


# --- recording policy -----------------------------------------------------------------------
@contextlib.contextmanager
def _policy(decide):
    _policies.append(decide)
    try:
        yield
    finally:
        _policies.pop()


def always_record_summaries():
    """Inside this block, every summary call is written."""
    return _policy(lambda: True)


def never_record_summaries():
    """Inside this block, summary calls write nothing."""
    return _policy(lambda: False)


def record_summaries_every_n_global_steps(n, global_step=None):
    """Inside this block, write only when ``global_step`` (default: the global step) % n == 0.

    The step is read at each summary call, so training steps taken inside the block count.
    """
    n = positive(n, "n", "record_summaries_every_n_global_steps")
    if global_step is None:
        from eagerkit.train.global_step import get_or_create_global_step

        global_step = get_or_create_global_step()
    return _policy(lambda: int(global_step) % int(n) == 0)


def should_record_summaries():
    """True when a default writer is set and the policy records now."""
    return bool(_writers) and (not _policies or _policies[-1]())


# --- summary calls ----------------------------------------------------------------------------
def scalar(name, tensor, family=None, step=None):
    """Write a scalar ``tensor`` (a number or one-element tensor); True when written."""
    if not should_record_summaries():
        return False
    values = _host(tensor, "scalar")
    if values.size != 1:
        raise InvalidArgumentError(
            f"summary.scalar('{name}'): expected one number, got shape {values.shape}; "
            "reduce it first (ek.reduce_mean) or log it with ek.summary.histogram",
            op="summary.scalar",
        )
    record = _header("scalar", name, family, step)
    record["value"] = _number(values.reshape(()).item())
    _writers[-1].write(record)
    return True


def histogram(name, tensor, family=None, step=None, buckets=30):
    """Write the distribution of ``tensor``'s values in ``buckets`` equal-width bins."""
    buckets = limits.check_count(  # checked even when not recording: 2.5 buckets is a mistake
        positive(buckets, "buckets", "summary.histogram"),
        _MAX_BUCKETS,
        "buckets",
        "summary.histogram",
        "each bucket is written to the file as text",
    )
    if not should_record_summaries():
        return False
    values = _host(tensor, "histogram").astype(np.float64).ravel()
    finite = values[np.isfinite(values)]
    counts, edges = np.histogram(finite, bins=buckets) if finite.size else ([], [])
    record = _header("histogram", name, family, step)
    record.update(
        edges=[_number(e) for e in edges],
        counts=[int(c) for c in counts],
        min=_number(values.min()) if values.size else None,
        max=_number(values.max()) if values.size else None,
        sum=_number(values.sum()),
        count=int(values.size),
    )
    _writers[-1].write(record)
    return True


def flush(writer=None):
    """Flush ``writer`` (default: the default writer)."""
    writer = writer or (_writers[-1] if _writers else None)
    if writer is not None:
        writer.flush()


def read_events(path):
    """The records in a ``.jsonl`` file, or in every one in a directory (oldest file first)."""
    path = os.fspath(path)
    files = sorted(glob.glob(os.path.join(path, "*.jsonl"))) if os.path.isdir(path) else [path]
    records = []
    for file in files:
        with open(file) as f:
            records.extend(json.loads(line) for line in f if line.strip())
    return records


def _header(kind, name, family, step):
    tag = f"{family}/{name}" if family else str(name)
    return {"kind": kind, "tag": tag, "step": _step(step, tag), "wall_time": time.time()}


def _step(step, tag):
    if step is None:
        from eagerkit.train.global_step import get_global_step

        step = get_global_step()
        if step is None:
            raise InvalidArgumentError(
                f"summary '{tag}': no step given and no global step exists; pass step=... "
                "or create one with ek.train.get_or_create_global_step()",
                op="summary",
            )
    return whole_number(step, "step", f"summary '{tag}'")  # 1.5 is refused, not logged as 1


def _host(tensor, what):
    if isinstance(tensor, Tensor):
        return np.asarray(tensor.numpy())
    return np.asarray(tensor, dtype=np.float64)


def _number(value):
    """A JSON-safe number: non-finite values become the strings JS's ``Number()`` reads."""
    value = float(value)
    if math.isfinite(value):
        return value
    return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")


# What this namespace exports (to ``import *`` and to the error boundary, namespaces.py);
# the helpers it imports or keeps for itself stay out.
__all__ = [
    "SummaryWriter",
    "create_file_writer",
    "always_record_summaries",
    "never_record_summaries",
    "record_summaries_every_n_global_steps",
    "should_record_summaries",
    "scalar",
    "histogram",
    "flush",
    "read_events",
]
