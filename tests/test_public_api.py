"""The whole public surface, walked and fuzzed (issue 18).

tests/surface/walk.py finds every public callable reachable from ``ek``: the namespaces'
functions and classes, every public method, operator and protocol of each class, and what
public calls return that is called in turn. Each has a declared valid call
(tests/surface/calls_*.py), so a new public callable without one fails
``test_every_public_callable_has_a_declared_valid_call``.

- The valid call succeeds with numpy's answer where numpy has one, and so does the same call
  spelled with numpy's values (an array for a tensor, ``np.float32`` for ``ek.float32``).
- With one argument replaced by what users pass by mistake (tests/surface/inputs.py), a call
  succeeds, or raises an eagerkit error naming the call, the offending argument and a fix,
  never Python's or numpy's words, never eagerkit's internals, and changes no state
  (tests/surface/verdict.py). Hypothesis draws the replacements, seeded per callable, so CI
  makes the same calls every time (``EK_SURFACE_EXAMPLES`` per callable; more to search).
"""

import collections
import os
import resource
import socket
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from surface import calls, fuzz, inputs, runner, walk

import eagerkit as ek
from eagerkit import summary
from eagerkit.train import global_step

EXAMPLES = int(os.environ.get("EK_SURFACE_EXAMPLES", "12"))  # per callable
TABLE = calls.table()
SURFACE = runner.Surface(walk.static_surface(), TABLE)
OUTCOMES = collections.Counter()
FUZZ = settings(
    max_examples=EXAMPLES,
    database=None,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: the report names the call
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture(scope="module", autouse=True)
def guarded(tmp_path_factory):
    """Run in a scratch directory (the data cache too), offline, with memory capped (a huge
    shape must fail cleanly, not take the machine's memory), with the returned callables
    walked too."""
    old_directory, old_data = os.getcwd(), os.environ.get("EAGERKIT_DATA")
    os.chdir(tmp_path_factory.mktemp("surface"))
    os.environ["EAGERKIT_DATA"] = os.getcwd()
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (_address_space() + 3 * 2**30, hard))
    connect = socket.socket.connect
    socket.socket.connect = _offline
    defaults = {"writers": list(summary._writers), "step": global_step._global_step}
    try:
        yield
    finally:
        socket.socket.connect = connect
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        os.chdir(old_directory)
        if old_data is None:
            os.environ.pop("EAGERKIT_DATA", None)
        else:
            os.environ["EAGERKIT_DATA"] = old_data
        summary._writers[:] = defaults["writers"]
        global_step._global_step = defaults["step"]
        if OUTCOMES:
            print(f"\npublic surface: {sum(OUTCOMES.values())} calls, {dict(OUTCOMES)}")


@pytest.fixture(autouse=True)
def restored():
    """Switches a successful call may flip are put back; the simulated GPU is on."""
    ek.devices.enable_simulated_gpu()
    yield
    ek.debugging.disable_check_numerics()
    ek.debugging.enable_traceback_filtering()
    ek.set_device_policy(ek.DEVICE_PLACEMENT_EXPLICIT)


def _address_space():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * resource.getpagesize()


def _offline(*args):
    raise OSError("the network is off in this test")


def full_surface():
    """The static surface and, found by making every valid call, what the calls return."""
    if not hasattr(full_surface, "found"):
        found = dict(SURFACE.entries)
        pending = list(found)
        while pending:
            results = {}
            for name in pending:
                try:  # a valid call that fails is reported by the test of its answer
                    results[name] = runner.run(runner.Surface(found, TABLE).prepare(name))
                except Exception:  # noqa: BLE001
                    continue
            new = walk.returned_surface(found, results)
            found.update(new)
            pending = list(new)
        full_surface.found = found
    return full_surface.found


def test_every_public_callable_has_a_declared_valid_call():
    found = full_surface()
    undeclared = sorted(set(found) - set(TABLE))
    assert not undeclared, f"public callables without a declared valid call: {undeclared}"
    stale = sorted(set(TABLE) - set(found))
    assert not stale, f"declared calls of callables that are not public (any more): {stale}"


def test_every_namespace_lists_its_api():
    for name, module in walk.namespaces().items():
        if module is ek:
            continue
        assert hasattr(module, "__all__"), f"{name} has no __all__"
        missing = [n for n in module.__all__ if not hasattr(module, n)]
        assert not missing, f"{name}.__all__ names what it does not have: {missing}"


@pytest.mark.parametrize("name", sorted(TABLE))
def test_the_valid_call_gives_the_right_answer(name):
    surface = runner.Surface(full_surface(), TABLE)
    declared = TABLE[name]
    prepared = surface.prepare(name)
    if declared.raises is not None:  # by design (a base class's method), and cleanly
        with pytest.raises(declared.raises) as caught:
            runner.run(prepared)
        assert isinstance(caught.value, ek.errors.OpError), repr(caught.value)
        return
    result = runner.run(prepared)
    if declared.numpy is not None:
        arrays = [_as_numpy(a) for a in prepared.args]
        kwargs = {k: _as_numpy(v) for k, v in prepared.kwargs.items()}
        calls.assert_same(result, declared.numpy(*arrays, **kwargs), name)
    if declared.check is not None:
        assert declared.check(result) is not False, f"{name} gave {result!r:.300}"
    if not declared.repeatable or declared.strict:
        return
    for slot, label, value in _equivalent_calls(prepared):
        again = surface.prepare(name)
        spelled = fuzz.replaced(again, slot, value)
        calls.assert_same(runner.run(spelled), result, f"{name} with {label} in {slot}")


def _as_numpy(value):
    if isinstance(value, ek.Tensor):
        return value.numpy()
    if isinstance(value, (list, tuple)) and any(isinstance(v, ek.Tensor) for v in value):
        return type(value)(_as_numpy(v) for v in value)
    return value


def _equivalent_calls(prepared):
    for i, value in enumerate(prepared.args):
        parameter = prepared.parameters[i] if i < len(prepared.parameters) else None
        for label, same in inputs.equivalents(value, parameter):
            yield ("arg", i), label, same
    for key, value in prepared.kwargs.items():
        for label, same in inputs.equivalents(value, key):
            yield ("kw", key), label, same


@pytest.mark.parametrize("name", sorted(TABLE))
def test_bad_arguments_fail_cleanly(name):
    surface = runner.Surface(full_surface(), TABLE)
    entry = surface.entries[name]
    prepared = surface.prepare(name)
    tensor = isinstance(prepared.receiver, ek.Tensor) and entry.attribute is not None
    places = fuzz.slots(entry, prepared, tensor, TABLE[name].fixed)
    if not places:
        return  # a call without arguments has nothing to get wrong

    @FUZZ
    @seed(zlib.crc32(name.encode()))
    @given(st.data())
    def one_call(data):
        slot = data.draw(st.sampled_from(places), label="slot")
        label = data.draw(st.sampled_from(fuzz.labels_for(entry, slot)), label="bad argument")
        outcome = fuzz.attempt(surface, name, slot, label)
        OUTCOMES[outcome.kind] += 1
        assert outcome.kind in fuzz.CLEAN, (
            f"{name} with {label} in {slot}: {outcome.kind}: {outcome.detail}"
        )

    one_call()


def test_numpy_answers_are_compared_for_what_numpy_computes():
    """The comparison itself can fail: a wrong answer is caught."""
    with pytest.raises(AssertionError):
        calls.assert_same(ek.constant([1.0, 2.0]), np.array([1.0, 2.5]), "x")
    with pytest.raises(AssertionError):
        calls.assert_same(ek.constant([1.0, 2.0]), np.array([[1.0, 2.0]]), "x")
