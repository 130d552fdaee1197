"""How long does a TapeView take to lay out a tape? Target: 300 records well under 1 s.

For each tape of the test corpus (tests/tape_corpus.py: lesson 02's tapes, an MLP and a
CNN step, a 20-step RNN unrolled by hand, lesson 15's char-RNN on one step and on a
24-character window, a 300-record chain whose input feeds every step, a random tape of 300
records), ROUNDS times, tapes in turn so a busy neighbour slows all alike:

- *layout*: every folding state the view prepares for the browser (``Layouts.prepared``:
  folding, the layered layout, routing), done once per view;
- *publish*: what the view does when it is made or shown (the graph model, the fold
  groups and the layout);
- *after gradient*: what ``tape.gradient`` costs the view: the sweep's steps and labels
  written into the same geometry (no new layout);
- *tracking*: the cost per recorded op of noting its line (origins.Tracker), which a
  notebook pays for tapes opened in its cells.

Reported: medians of CPU time and of wall clock, and the machine's load average.
Run: ``OMP_NUM_THREADS=1 .venv/bin/python benchmarks/tape_layout.py``.
"""

import os
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "tests"))

from eagerkit.widgets.common.origins import Tracker  # noqa: E402
from eagerkit.widgets.tape_view.drawing import Layouts  # noqa: E402
from tape_corpus import CORPUS  # noqa: E402

import eagerkit as ek  # noqa: E402

ROUNDS = 5
TAPES = [
    "lesson02_fan_out",
    "mlp_step",
    "cnn_step",
    "hand_unrolled_rnn",
    "char_rnn_one_step",
    "char_rnn_window",
    "chain_with_skip_edges",
    "tape_of_300_records",
]


def timed(action):
    """Seconds of wall clock and of this process's CPU: on a shared, loaded machine the
    wall clock counts the neighbours' work too, the CPU time only ours."""
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    return time.perf_counter() - wall, time.process_time() - cpu


def relayout(view):
    view._layout = None  # forget the layout: publishing lays out again
    view._publish()


def tracking_cost(records=2000):
    """Seconds per recorded op with a Tracker listening, minus without."""
    x = ek.constant(0.5)

    def record(listen):
        tape = ek.GradientTape()
        if listen:
            Tracker.on(tape)
        with tape:
            tape.watch(x)
            h = x
            for _ in range(records):
                h = h * 1.0001
        return tape

    plain = statistics.median(timed(lambda: record(False))[1] for _ in range(ROUNDS))
    noted = statistics.median(timed(lambda: record(True))[1] for _ in range(ROUNDS))
    return (noted - plain) / records


def main():
    views = {name: CORPUS[name]() for name in TAPES}
    times = {name: {"layout": [], "publish": [], "after gradient": []} for name in TAPES}
    for _ in range(ROUNDS):
        for name, view in views.items():
            times[name]["layout"].append(timed(lambda v=view: Layouts(v.graph).prepared()))
            times[name]["publish"].append(timed(lambda v=view: relayout(v)))
            times[name]["after gradient"].append(timed(view._publish))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; medians of {ROUNDS}")
    print("ms of CPU time (wall clock in brackets)")
    print(
        f"{'tape':24} {'records':>7} {'states':>6} "
        f"{'layout':>16} {'publish':>16} {'after gradient':>16}"
    )
    for name, view in views.items():
        cells = []
        for kind in ("layout", "publish", "after gradient"):
            wall = statistics.median(w for w, _ in times[name][kind]) * 1e3
            cpu = statistics.median(c for _, c in times[name][kind]) * 1e3
            cells.append(f"{cpu:7.1f} ({wall:6.1f})")
        print(
            f"{name:24} {len(view.graph['forward']):7d} {len(view.drawing['states']):6d} "
            + " ".join(cells)
        )
    print(
        f"noting each record's line (a notebook's tapes): {tracking_cost() * 1e6:.1f} µs CPU per op"
    )


if __name__ == "__main__":
    main()
