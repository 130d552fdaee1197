"""Watch what a student's function does, not only what it returns: which ops ran and on which
device, which gradient tapes recorded them, how often each tape gave gradients, whether two
tapes recorded at once (nested tapes).

``Observation`` is an execution callback (the engine calls it after every op, as
``enable_check_numerics`` is called) that also listens to every tape it sees recording, for
the duration of one call. Nothing is changed: the student's tapes work as they would.
"""

import contextlib
import dataclasses

from eagerkit import recording


@dataclasses.dataclass
class TapeSeen:
    """One GradientTape that recorded during the call."""

    tape: object
    persistent: bool
    gradient_calls: int = 0
    records: int = 0


@dataclasses.dataclass
class OpRun:
    name: str
    device: str
    dtype: str
    tapes: tuple  # indices into Observation.tapes of the tapes recording when it ran


class Observation:
    """What happened during ``with observation.watching(): fn(...)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> seen = Observation()
    >>> with seen.watching():
    ...     x = ek.constant(2.0)
    ...     with ek.GradientTape(persistent=True) as tape:
    ...         tape.watch(x)
    ...         y = x * x
    ...     _ = tape.gradient(y, x), tape.gradient(y, x)
    >>> [(t.persistent, t.gradient_calls) for t in seen.tapes], seen.op_names()
    ([(True, 2)], ['multiply'])
    """

    def __init__(self):
        self.tapes = []
        self.ops = []
        self.nested = False  # two tapes recorded the same op: one inside the other

    @contextlib.contextmanager
    def watching(self):
        recording.add_callback(self)
        try:
            yield self
        finally:
            recording.remove_callback(self)
            for seen in self.tapes:
                if self in seen.tape.listeners:
                    seen.tape.listeners.remove(self)
                seen.records = max(seen.records, len(seen.tape.records))

    def __call__(self, op, inputs, output):  # the execution callback: after every op
        indices = tuple(self._index(tape) for tape in recording.active_tapes)
        recording_it = tuple(i for i in indices if self._recorded(i, output))
        if len(recording_it) >= 2:
            self.nested = True
        name = getattr(op, "name", type(op).__name__)
        device = getattr(getattr(output, "_device", None), "name", "?")
        dtype = getattr(getattr(output, "dtype", None), "name", "?")
        self.ops.append(OpRun(name, device, dtype, recording_it))

    def _recorded(self, index, output):
        records = self.tapes[index].tape.records
        return bool(records) and records[-1].output is output

    def _index(self, tape):
        for i, seen in enumerate(self.tapes):
            if seen.tape is tape:
                return i
        tape.listeners.append(self)  # to hear its gradient() calls
        self.tapes.append(TapeSeen(tape, bool(tape._persistent)))
        return len(self.tapes) - 1

    # --- as a tape listener ----------------------------------------------------------------
    def on_record(self, tape, record):
        pass

    def on_backward(self, tape, step):
        pass

    def on_gradient(self, tape, targets, sources, grads):
        for seen in self.tapes:
            if seen.tape is tape:
                seen.gradient_calls += 1
                seen.records = max(seen.records, len(tape.records))

    # --- questions a check asks ------------------------------------------------------------
    def op_names(self):
        return [run.name for run in self.ops]

    def devices_of(self, name):
        """The devices where ops called ``name`` ran."""
        return sorted({run.device for run in self.ops if run.name == name})

    def used_tapes(self):
        """The tapes that recorded something and gave at least one gradient."""
        return [seen for seen in self.tapes if seen.gradient_calls]


def recorded_ops(fn, args):
    """The ops a tape records while ``fn(*args)`` runs with its float arguments watched
    (custom gradients included, which no execution callback hears)."""
    from eagerkit.tape import GradientTape
    from eagerkit.tensor import Tensor

    with GradientTape() as tape:
        tape.watch([a for a in args if isinstance(a, Tensor) and a.dtype.is_floating])
        fn(*args)
    return [record.op for record in tape.records]


class CallsTo:
    """Counts calls to a public eagerkit function (a composite such as
    ``ek.reduce_logsumexp``, whose ops look like anyone's) while the block runs, by wrapping
    it where students reach it: ``ek.NAME`` and ``ek.math.NAME``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> with CallsTo("reduce_logsumexp") as calls:
    ...     _ = ek.math.reduce_logsumexp(ek.constant([1.0, 2.0]))
    >>> calls.count
    1
    """

    def __init__(self, name):
        import eagerkit
        from eagerkit import math

        self.name, self.count = name, 0
        self._homes = [home for home in (eagerkit, math) if hasattr(home, name)]

    def __enter__(self):
        self._originals = [getattr(home, self.name) for home in self._homes]
        original = self._originals[0]

        def counted(*args, **kwargs):
            self.count += 1
            return original(*args, **kwargs)

        for home in self._homes:
            setattr(home, self.name, counted)
        return self

    def __exit__(self, *exc_info):
        for home, original in zip(self._homes, self._originals, strict=True):
            setattr(home, self.name, original)
