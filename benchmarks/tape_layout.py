"""How long does a TapeView take to lay out a tape? Target: 300 records well under 1 s.

For each tape of the test corpus (tests/tape_corpus.py: lesson 02's tapes, f = c*c + c,
an MLP step, a CNN step, random tapes of 60 and 300 records), the view rebuilds what it
sends to the browser (``_publish``: the graph model, the layered layout, the routing, the
labels, and for a model every folding state), ROUNDS times, tapes in turn so a busy
neighbour slows all alike. Reported: the median, and the layout alone (grandalf ranks and
order, our coordinates, routing, labels) for the random tapes.

Run: ``.venv/bin/python benchmarks/tape_layout.py``.
"""

import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "tests"))

from eagerkit.widgets import TapeView  # noqa: E402
from eagerkit.widgets.tape_view.drawing import tape_drawing  # noqa: E402
from tape_corpus import CORPUS, random_tape  # noqa: E402

ROUNDS = 7


def random_view(records):
    tape, leaves, out = random_tape(records, seed=records)
    view = TapeView(tape)
    tape.gradient(out, leaves)
    return view


def main():
    views = {name: make() for name, make in CORPUS.items()}
    views["random_60_records"] = random_view(60)
    publish = {name: [] for name in views}
    layout = {name: [] for name in views if name.startswith(("random", "tape_of"))}
    for _ in range(ROUNDS):
        for name, view in views.items():
            started = time.perf_counter()
            view._publish()
            publish[name].append(time.perf_counter() - started)
            if name in layout:
                values = {e["id"]: 1.0 for e in view.graph["edges"]}  # labels on every edge
                started = time.perf_counter()
                tape_drawing(view.graph, values)
                layout[name].append(time.perf_counter() - started)
    print(f"{'tape':28} {'records':>7} {'publish ms':>11} {'layout ms':>10}  (medians of {ROUNDS})")
    for name, view in views.items():
        alone = f"{statistics.median(layout[name]) * 1e3:10.1f}" if name in layout else ""
        median = statistics.median(publish[name]) * 1e3
        print(f"{name:28} {len(view.graph['forward']):7d} {median:11.1f} {alone}")


if __name__ == "__main__":
    main()
