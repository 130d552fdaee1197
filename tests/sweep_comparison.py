"""Running one gradient computation through both sweeps and comparing the answers.

tests/test_fast_sweep.py and tests/test_fast_sweep_errors.py use these: a case computes its
gradients once as the engine chooses (the common case takes the fast sweep; a spy checks
that it did) and once under ``backprop.reference_sweep()``. The answers must be identical
(same None, dtype, device and every bit of every array), or both must raise the same error
with the same message.
"""

import numpy as np

import eagerkit as ek
from eagerkit import backprop, fast_sweep


def spy_on_the_fast_sweep(monkeypatch):
    """A list that grows by one each time the fast sweep runs (it is looked up per call)."""
    calls = []
    real = fast_sweep.sweep_arrays

    def spy(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(fast_sweep, "sweep_arrays", spy)
    return calls


def outcome(compute):
    """``compute()``'s flat list of gradients, or the error it raised (type and message)."""
    try:
        return ek.nest.flatten(compute())
    except Exception as error:  # compared, never swallowed: both sweeps must raise it alike
        return (type(error), str(error))


def assert_both_sweeps_agree(compute, calls):
    """``compute`` answers identically with the fast sweep and with the reference sweep."""
    before = len(calls)
    taken = outcome(compute)
    after = len(calls)
    assert after > before, "the common case did not take the fast sweep"
    with backprop.reference_sweep():
        reference = outcome(compute)
    assert len(calls) == after, "reference_sweep() still took the fast sweep"
    if isinstance(reference, tuple):
        assert taken == reference
        return reference
    assert isinstance(taken, list), taken
    assert len(taken) == len(reference)
    for got, expected in zip(taken, reference, strict=True):
        assert (got is None) == (expected is None)
        if got is not None:
            assert (got.dtype, got.device, got.shape) == (
                expected.dtype,
                expected.device,
                expected.shape,
            )
            assert type(got._data) is type(expected._data)
            np.testing.assert_array_equal(got.numpy(), expected.numpy())
    return reference


def gradients_of(fn, args, weights=True):
    """d fn / d args, weighted by a fixed output gradient (an uneven seed) when ``weights``."""

    def compute():
        tensors = [ek.constant(a) for a in args]
        with ek.GradientTape() as tape:
            tape.watch(tensors)
            y = fn(*tensors)
        seed = None
        if weights and y.dtype.is_floating:
            seed = ek.constant(
                np.linspace(-1.5, 2.0, y.shape.num_elements()).reshape(y.shape), dtype=y.dtype
            )
        return tape.gradient(y, tensors, output_gradients=seed)

    return compute


def tape_gradient(build, **gradient_options):
    """A compute() that records ``build(tape)`` -> (target, sources) and differentiates."""

    def compute():
        with ek.GradientTape() as tape:
            target, sources = build(tape)
        return tape.gradient(target, list(sources), **gradient_options)

    return compute
