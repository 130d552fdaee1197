"""The ``%%tape`` cell magic: run a cell under a tape and show what it recorded.

After ``%load_ext eagerkit.widgets``::

    %%tape y
    x = ek.constant(3.0)
    tape.watch(x)
    y = x * x

runs the cell inside a fresh persistent ``GradientTape`` named ``tape`` (so the cell can
``tape.watch``), then shows a TapeView. With a target name (``y`` above) it also takes
the gradient of that target w.r.t. everything the tape watched, so the reverse sweep can
be stepped through too. Later ``tape.gradient(...)`` calls update the same view.
"""

import sys

from eagerkit.tape import GradientTape

from ..common.origins import stop_tracking_new_tapes, track_new_tapes
from .view import TapeView


def tape_magic(line, cell):
    """``%%tape [target]``: record the cell on ``tape`` and show a TapeView of it."""
    from IPython import get_ipython
    from IPython.core.error import UsageError

    shell = get_ipython()
    target = line.strip()
    if target and not target.isidentifier():
        raise UsageError(f"%%tape takes at most one variable name (the target), got {line!r}")
    tape = GradientTape(persistent=True)
    shell.user_ns["tape"] = tape
    view = TapeView(tape, names=shell.user_ns)  # listening before the cell runs
    # Line 1 of the cell is "%%tape": the body starts on line 2. Cached as IPython caches
    # cells, the body's lines show in the view (and in tracebacks) as "cell In [n], line k".
    source = "\n" + shell.transform_cell(cell)
    code = compile(source, shell.compile.cache(source, _cell_number(shell)), "exec")
    with tape:
        exec(code, shell.user_ns)
    if target:
        if target not in shell.user_ns:
            raise UsageError(f"%%tape {target}: the cell did not define {target!r}")
        sources = list(tape._watched)
        if not sources:
            raise UsageError(
                f"%%tape {target}: the tape watched nothing; call tape.watch(x) in the cell "
                "or read a trainable ek.Variable"
            )
        tape.gradient(shell.user_ns[target], sources)
    return view


def _cell_number(shell):
    """The number IPython gave the cell running now (the n of its "In [n]")."""
    frame = sys._getframe(1)
    while frame is not None:  # up to the cell's own code, which IPython named
        named = shell.compile.format_code_name(frame.f_code.co_filename)
        if named is not None:
            return int(named[1].strip("In[]"))
        frame = frame.f_back
    return shell.execution_count


def load_ipython_extension(shell):
    """Register ``%%tape`` (``%load_ext eagerkit.widgets`` calls this), and note the lines
    of every tape opened in a cell from now on (origins.track_new_tapes)."""
    shell.register_magic_function(tape_magic, magic_kind="cell", magic_name="tape")
    track_new_tapes()


def unload_ipython_extension(shell):
    """Remove ``%%tape`` again, and stop noting the lines of new tapes."""
    shell.magics_manager.magics["cell"].pop("tape", None)
    stop_tracking_new_tapes()
