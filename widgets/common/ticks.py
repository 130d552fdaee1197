"""Axis ticks that read well (1-2-5 steps), computed once in Python for every view.

The browser and the PNG snapshot both draw the ticks and labels computed here, so a
saved notebook shows the same axes as the live widget. The positions come from
matplotlib's ``MaxNLocator`` (the 1-2-5 "nice numbers" algorithm); each label has just
as many decimals as its step needs, so a 0.02 step reads ``0.04 0.06 0.08``, never
``0.0715``.
"""

import functools
import math

import numpy as np
from matplotlib.ticker import MaxNLocator

STEPS = [1, 2, 5, 10]  # tick steps are 1, 2 or 5 times a power of ten
MAX_TICKS = 6  # at most this many ticks on an axis, and at least 4 when the values allow


def linear_axis(lo, hi, integer=False, pad=0.0):
    """An axis over ``[lo, hi]``: its limits and nice ticks inside them, with labels.

    ``integer`` keeps ticks on whole numbers (steps, epochs); ``pad`` widens the limits
    by that share of the range on each side (curves should not touch the frame).

    Examples
    --------
    >>> linear_axis(0, 1, integer=True)["labels"]
    ['0', '1']
    >>> linear_axis(0, 9, integer=True)["labels"]
    ['0', '2', '4', '6', '8']
    >>> linear_axis(0.0715, 0.986)["labels"]
    ['0.2', '0.4', '0.6', '0.8']
    """
    lo, hi = float(lo), float(hi)
    if hi - lo < 1e-12 * max(1.0, abs(lo)):  # one value: give it room
        if integer:  # a first step or epoch: the axis runs on to the next one
            hi = lo + 1
        else:
            half = max(abs(lo) * 0.1, 0.5)
            lo, hi = lo - half, hi + half
    margin = (hi - lo) * pad
    lo, hi = lo - margin, hi + margin
    for bins in range(MAX_TICKS - 1, MAX_TICKS + 3):  # the locator counts ticks outside too
        locator = _locator(bins, integer)
        inside = lo - 1e-9 * (hi - lo), hi + 1e-9 * (hi - lo)
        values = [float(v) for v in locator.tick_values(lo, hi) if inside[0] <= v <= inside[1]]
        if len(values) >= 4:
            break
    step = values[1] - values[0] if len(values) > 1 else 1.0
    return {"lo": lo, "hi": hi, "ticks": values, "labels": [_label(v, step) for v in values]}


def log_axis(lo, hi):
    """A log-scale axis over positive ``[lo, hi]``: limits and ticks as log10 values.

    Ticks fall on powers of ten, on 1-2-5 multiples of them when the range spans less
    than two decades, and on nice linear values when it spans less than one.

    Examples
    --------
    >>> log_axis(1e-4, 0.5)["labels"]
    ['0.0001', '0.001', '0.01', '0.1']
    >>> log_axis(0.2, 0.9)["labels"]
    ['0.2', '0.5']
    """
    lo, hi = math.log10(lo), math.log10(hi)
    if hi - lo < 1e-9:
        lo, hi = lo - 0.5, hi + 0.5
    values = []
    for subs in ((1,), (1, 2, 5)):
        values = [
            math.log10(s) + d
            for d in range(math.floor(lo), math.ceil(hi) + 1)
            for s in subs
            if lo - 1e-9 <= math.log10(s) + d <= hi + 1e-9
        ]
        if len(values) >= 3 or (len(values) == 2 and hi - lo >= 1):
            break
    if len(values) < 2:  # under a decade: nice linear values, placed on the log axis
        linear = linear_axis(10**lo, 10**hi)
        values = [math.log10(v) for v in linear["ticks"] if v > 0]
    return {"lo": lo, "hi": hi, "ticks": values, "labels": [_power_label(v) for v in values]}


@functools.cache
def _locator(bins, integer):
    """One MaxNLocator per setting, made once: making one costs as much as using it."""
    return MaxNLocator(nbins=bins, steps=STEPS, integer=integer, min_n_ticks=2)


def _label(value, step):
    """``value`` with as many decimals as ``step`` needs (``0.25`` -> 2, ``20`` -> 0)."""
    if value == 0:
        return "0"
    if abs(value) >= 1e5 or abs(step) < 1e-4:
        return f"{value:.{_decimals(step / 10 ** math.floor(math.log10(abs(value))))}e}"
    return f"{value:.{_decimals(step)}f}"


def _decimals(step):
    """How many decimals show a multiple of ``step`` exactly (steps are 1-2-5 based)."""
    return max(0, -math.floor(math.log10(abs(step)) + 1e-9))


def _power_label(log_value):
    """The label of a tick at ``10 ** log_value``: ``0.01``, ``20``, ``1e+06``."""
    value = float(np.round(10**log_value, 12))
    return f"{value:.6g}"
