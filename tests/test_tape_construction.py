"""Making and entering a tape, written for speed (a tape is made at every training step),
answers as the plain reference does.

- ``GradientTape(...)`` binds its arguments only when given; the reference is the plain
  signature inside the boundary's wrapper, what namespaces.py puts around every public
  ``__init__``: the same settings, or the same error and message, for every call.
- ``with tape:`` is ``recording.enter_tape`` / ``exit_tape``, which take a lone tape in one
  step; ``_push`` / ``_pop`` are the general path: the same listener answers either way.
"""

import inspect

from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit import boundary, recording


class GradientTape:  # the reference: named as the real class, so errors name the same call
    def __init__(self, persistent=False, watch_accessed_variables=True):
        self.settings = (persistent, watch_accessed_variables)


GradientTape.__init__ = boundary.public_method(GradientTape.__init__, "__init__")


def _outcome(make):
    try:
        return make()
    except Exception as error:  # noqa: BLE001 - the error is the outcome compared
        return type(error), str(error)


_VALUES = st.sampled_from([True, False, 0, 1, None, "yes"])


@settings(max_examples=80, deadline=None)
@given(
    positional=st.lists(_VALUES, max_size=3),
    by_name=st.dictionaries(
        st.sampled_from(["persistent", "watch_accessed_variables", "persist", "name"]),
        _VALUES,
        max_size=2,
    ),
)
def test_a_tape_binds_its_arguments_as_the_boundary_would(positional, by_name):
    def made():
        tape = ek.GradientTape(*positional, **by_name)
        return (tape._persistent, tape._watch_accessed)

    assert _outcome(made) == _outcome(lambda: GradientTape(*positional, **by_name).settings)


def test_a_tape_shows_its_signature_and_is_inside_the_boundary():
    signature = inspect.signature(ek.GradientTape)
    assert str(signature) == "(persistent=False, watch_accessed_variables=True)"
    assert ek.GradientTape.__init__.__boundary__ is True


def _answers():
    return recording.on, recording.sole_tape, list(recording.active_tapes)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["enter", "exit", "callback", "uncallback"]), max_size=8))
def test_entering_and_leaving_tapes_gives_the_general_paths_answers(moves):
    """A sequence of tapes entered and left (nested, or beside an execution callback) gives
    the same answers through enter_tape/exit_tape as through _push/_pop."""
    seen = []
    for fast in (True, False):
        tapes, callbacks, answers = [], [], []
        try:
            for move in moves:
                if move == "enter":
                    tape = ek.GradientTape(persistent=True)
                    tape.__enter__() if fast else tape._push()
                    tapes.append(tape)
                elif move == "exit" and tapes:
                    tape = tapes.pop()
                    tape.__exit__(None, None, None) if fast else tape._pop()
                elif move == "callback":
                    callbacks.append(lambda op, inputs, output: None)
                    recording.add_callback(callbacks[-1])
                elif move == "uncallback" and callbacks:
                    recording.remove_callback(callbacks.pop())
                on, sole, active = _answers()
                answers.append((on, tapes.index(sole) if sole else None, len(active)))
        finally:
            while tapes:
                tapes.pop()._pop()
            while callbacks:
                recording.remove_callback(callbacks.pop())
        seen.append(answers)
        assert _answers() == (False, None, [])
    assert seen[0] == seen[1]
