"""Timing that a shared, noisy machine cannot bias: the contenders take turns every round.

The time is the process's CPU time (``time.process_time``), not the wall clock: on a shared
machine a process also waits for a core, and that wait, which is no cost of the code, would
otherwise land on whichever contender happened to be running.
"""

import time


def alternated_seconds(cases, rounds, repeat=1):
    """``{name: [seconds per call, one per round]}`` for ``cases`` = ``{name: (function,
    args)}``, each round calling every case ``repeat`` times in turn."""
    times = {name: [] for name in cases}
    for _ in range(rounds):
        for name, (function, args) in cases.items():
            start = time.process_time()
            for _ in range(repeat):
                function(*args)
            times[name].append((time.process_time() - start) / repeat)
    return times
