"""Property test of the whole public API with bad input (issue 11).

Every public callable (found by tests/public_api.py, so new names are covered) is called with
arguments drawn from a pool of good and bad values: wrong shapes, mixed dtypes, None,
strings, ragged lists, NaN/Inf, empty and 0-d tensors, huge and fractional numbers. A call
may succeed or raise, but it fails this test when it

* raises anything but an eagerkit error (a raw Python or numpy exception leaked),
* raises after changing state: a variable, an optimizer's slots, the tape stack, the
  execution callbacks, or the files in the working directory,
* accepts a fractional number for a count or an axis (silent truncation), or
* hangs.

Hypothesis runs derandomized, without a database, so CI sees the same calls every time.
"""

import inspect
import os
import resource
import signal
import socket

import numpy as np
import public_api
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit import recording, summary
from eagerkit.errors import OpError
from eagerkit.train import global_step, tracking

EXAMPLES = int(os.environ.get("EK_FUZZ_EXAMPLES", "20"))  # per callable
SECONDS_PER_CALL = 20
CALLABLES = public_api.fuzzed_callables()
METHODS = public_api.public_methods(
    {name: value for name, value in public_api.public_callables().items() if inspect.isclass(value)}
)
CALLS = {"made": 0}
BEFORE = {}  # global state as the module found it, put back after every call
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: the report names the call
    suppress_health_check=list(HealthCheck),
)


class Hung(BaseException):
    """A call ran longer than SECONDS_PER_CALL."""


@pytest.fixture(scope="module", autouse=True)
def guarded(tmp_path_factory):
    """Run in a scratch directory, offline, with memory capped (a huge shape must fail
    cleanly, not take the machine's memory); report how much was covered."""
    old_directory = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("fuzz"))
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (_address_space() + 3 * 2**30, hard))
    connect = socket.socket.connect
    socket.socket.connect = _offline
    previous_alarm = signal.signal(signal.SIGALRM, _hung)
    BEFORE.update({"writers": list(summary._writers), "global step": global_step._global_step})
    try:
        yield
    finally:
        signal.signal(signal.SIGALRM, previous_alarm)
        socket.socket.connect = connect
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        os.chdir(old_directory)
        print(
            f"\npublic API property test: {len(CALLABLES)} callables and {len(METHODS)} "
            f"methods, {CALLS['made']} calls"
        )


def _address_space():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * resource.getpagesize()


def _offline(*args):
    raise OSError("the network is off in this test")


def _hung(signum, frame):
    raise Hung()


@pytest.mark.parametrize("name", sorted(CALLABLES))
def test_a_public_callable_fails_cleanly_on_bad_input(name):
    target = CALLABLES[name]
    fuzz(name, lambda: target)


@pytest.mark.parametrize("name", sorted(METHODS))
def test_a_public_method_fails_cleanly_on_bad_input(name):
    cls, arguments, method = METHODS[name]
    fuzz(name, lambda: getattr(cls(*arguments), method))


def fuzz(name, make_target):
    pool = public_api.value_pool()
    parameters = _parameters(make_target())

    @FUZZ
    @given(st.data())
    def one_call(data):
        target = make_target()
        args, kwargs = _draw_arguments(data, pool, parameters)
        watched = [target, *args, *kwargs.values()]
        before = _state(watched)
        CALLS["made"] += 1
        signal.alarm(SECONDS_PER_CALL)
        try:
            result = target(*args, **kwargs)
        except Hung:
            pytest.fail(f"{name}: hung for {SECONDS_PER_CALL} s on {_shown(args, kwargs)}")
        except AssertionError:
            if "assert" not in name:  # TF's assert_* methods raise AssertionError on purpose
                raise
            return
        except OpError:
            after = _state(watched)
            assert after == before, f"{name}: raised after changing state: {_diff(before, after)}"
            return
        except Exception as error:  # noqa: BLE001 - this is what the test looks for
            pytest.fail(f"{name} leaked {type(error).__name__}: {error} on {_shown(args, kwargs)}")
        finally:
            signal.alarm(0)
            _reset_switches()
        truncated = _fraction_for_integer(name, parameters, args, kwargs)
        assert truncated is None, (
            f"{name} accepted {truncated} (a fraction where a whole number is needed: "
            f"silently truncated?) on {_shown(args, kwargs)} and returned {result!r:.200}"
        )

    one_call()


def _parameters(target):
    try:
        return list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return []


def _draw_arguments(data, pool, parameters):
    named = [p for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    positional = data.draw(st.integers(0, min(4, len(named) + 1)), label="how many")
    args = [data.draw(st.sampled_from(pool), label="arg") for _ in range(positional)]
    kwargs = {}
    rest = [p.name for p in named[positional:]]
    if rest and data.draw(st.booleans(), label="keyword"):
        kwargs[data.draw(st.sampled_from(rest))] = data.draw(st.sampled_from(pool))
    counted = [n for n in rest if n in public_api.INTEGER_PARAMETERS and n not in kwargs]
    if counted and data.draw(st.booleans(), label="fraction"):
        kwargs[data.draw(st.sampled_from(counted))] = data.draw(
            st.sampled_from(public_api.FRACTIONS)
        )
    return args, kwargs


def _fraction_for_integer(name, parameters, args, kwargs):
    """The ``parameter=value`` pair that passed a fraction as a count or axis, or None."""
    if name.rsplit(".", 1)[-1] in public_api.TRUNCATES_BY_DESIGN:
        return None
    named = [p.name for p in parameters if p.kind is not p.VAR_POSITIONAL]
    pairs = list(zip(named, args, strict=False)) + list(kwargs.items())
    for parameter, value in pairs:
        if parameter in public_api.INTEGER_PARAMETERS and public_api.is_fraction(value):
            return f"{parameter}={value}"
    return None


def _state(objects):
    """Everything a failed call must leave as it was, as comparable plain values."""
    variables = {}
    for obj in objects:
        for variable in _variables_of(obj):
            variables[id(variable)] = (
                variable.dtype.name,
                variable.shape,
                np.asarray(variable.numpy()).tobytes(),
            )
        slots = getattr(obj, "_slots", None)
        if isinstance(slots, dict):
            variables[("slots", id(obj))] = sum(len(s) for s in slots.values())
    files = sorted(
        (os.path.join(root, f), os.path.getsize(os.path.join(root, f)))
        for root, _, names in os.walk(".")
        for f in names
    )
    engine = (len(recording.active_tapes), len(recording.graph_tracers))
    return variables, files, engine, tuple(recording.execution_callbacks)


def _variables_of(obj):
    if isinstance(obj, ek.Variable):
        return [obj]
    if obj is None or isinstance(obj, (int, float, str, bytes, ek.Tensor, np.ndarray)):
        return []
    owner = getattr(obj, "__self__", obj)  # a bound method: its instance
    try:
        return [v for _, v in tracking.walk(owner) if isinstance(v, ek.Variable)]
    except Exception:  # noqa: BLE001 - objects tracking cannot walk hold no variables
        return []


def _diff(before, after):
    names = ("variables", "files", "tapes/tracers", "execution callbacks")
    return ", ".join(n for n, b, a in zip(names, before, after, strict=True) if b != a)


def _shown(args, kwargs):
    return ", ".join([f"{a!r:.60}" for a in args] + [f"{k}={v!r:.60}" for k, v in kwargs.items()])


def _reset_switches():
    """Global switches a successful call may flip; the next call (and the next test module
    in this process) starts from the defaults."""
    ek.debugging.disable_check_numerics()
    ek.debugging.enable_traceback_filtering()
    ek.set_device_policy(ek.DEVICE_PLACEMENT_EXPLICIT)
    summary._writers[:] = BEFORE["writers"]  # set_as_default() on a writer made from the pool
    global_step._global_step = BEFORE["global step"]  # get_or_create_global_step()
