"""Exercises and their checks: a value to compute, or a function to write.

Each lesson's exercises are defined in ``lessonNN.py`` beside this file (the reference the
answer is compared with, the template the student copy hands out, and the hints) and looked
up by their number with ``exercise("5.1")``. A check judges what the answer *does*: it never
reads source text, never shows the reference's code or the value asked for, and a hint never
gives the solution.
"""

import contextlib
import difflib
import importlib
import types

from .compare import ANY, differences
from .draws import Draws, fresh_seed
from .placeholder import is_placeholder_value, is_template_function
from .result import Hint, Result
from .state import check_state
from .text import short

_EXERCISES = {}  # "5.1" -> Exercise


def exercise(key):
    """The exercise numbered ``key`` (``"5.1"``: lesson 5, exercise 1).

    Examples
    --------
    >>> ex = exercise("1.1")
    >>> ex.check(...)
    Exercise 1.1 · Your first tensor: not answered yet
      replace the ... with your answer, run that cell, then this one (hint: exercise("1.1").hint())
    """
    lesson = str(key).split(".")[0]
    if not lesson.isdigit():
        raise ValueError(f'exercise: expected a number like "5.1", got {key!r}')
    try:
        importlib.import_module(f"{__package__}.lesson{int(lesson):02d}")
    except ModuleNotFoundError as error:
        raise KeyError(f"exercise: lesson {lesson} has no exercises") from error
    if key not in _EXERCISES:
        known = ", ".join(k for k in _EXERCISES if k.split(".")[0] == lesson)
        raise KeyError(f"exercise: no exercise {key!r}; lesson {lesson} has {known}")
    return _EXERCISES[key]


def all_exercises():
    """Every exercise of every lesson, in order."""
    for number in range(1, 16):
        with contextlib.suppress(ModuleNotFoundError):
            importlib.import_module(f"{__package__}.lesson{number:02d}")
    lessons = [ex for ex in _EXERCISES.values() if 1 <= int(ex.key.split(".")[0]) <= 15]
    return sorted(lessons, key=lambda ex: tuple(map(int, ex.key.split("."))))


class NotAnswered(Exception):  # a verdict, not an error
    """Raised inside ``judge`` to say "not answered yet", with the reason as its message."""


class StudentRaised(Exception):
    """The student's code raised ``error`` (while the check called it ``when``); ``advice``
    says what to look at, in the section's words."""

    def __init__(self, error, when="", advice=None):
        super().__init__(error)
        self.error, self.when, self.advice = error, when, advice


@contextlib.contextmanager
def student_code(when="", advice=None):
    """Around every call into the student's code: an error there is the student's, reported
    as such, with ``advice`` (a text, or ``advice(error)`` giving one or None); an error
    anywhere else is the check's own and is raised."""
    try:
        yield
    except (NotAnswered, StudentRaised):
        raise
    except Exception as error:
        said = advice(error) if callable(advice) else advice  # advice for this error
        raise StudentRaised(error, when, said) from error


# Modules a student reaches for that the lessons do not import (what a NameError means then).
_LIBRARIES = {"np": "numpy", "numpy": "numpy", "math": "Python's math", "tf": "TensorFlow"}
_LIBRARIES |= {"torch": "PyTorch", "jnp": "JAX's numpy", "scipy": "scipy"}


def _changed_in_place(error):
    """A line for an AttributeError of a Variable's method called on a tensor, else none."""
    name = getattr(error, "name", None)
    if not isinstance(error, AttributeError) or name not in _VARIABLE_METHODS:
        return []
    return [
        f"{name} is a method of ek.Variable; an ek.Tensor is a value that never changes: "
        "compute the new value and return it"
    ]


_VARIABLE_METHODS = {"assign", "assign_add", "assign_sub", "scatter_update", "scatter_add"}


def _other_library(error):
    """A line for a NameError that is another library's name, else none."""
    library = _LIBRARIES.get(getattr(error, "name", None)) if isinstance(error, NameError) else None
    if library is None:
        return []
    return [
        f"{error.name} ({library}) is not imported here, and a tape records only ek ops, not "
        f"{library}'s: use ek's op of the same name (ek.exp, ek.math.log, ...)"
    ]


class Exercise:
    """Base class: a numbered exercise with hints. Subclasses define ``judge(answer, draw)``.

    template : the exercise cell as the student copy has it (``...`` in place of the
        solution). An answer that is still that cell's function, by its code, or still the
        ``placeholder`` value, is "not answered yet"; everything else is judged.
    needs : devices the check needs (``"/sim:0"``); the check makes them available itself.
    """

    needs = ()
    draws_inputs = False  # whether a wrong verdict names the seed of its inputs
    answer_name = None  # the check cell's variable, where the answer's __name__ is not it

    def __init__(self, key, title, *, hints, template=None, placeholder=...):
        self.key, self.title, self.hints = key, title, list(hints)
        self.template, self.placeholder = template, placeholder
        self._hints_given = 0
        _EXERCISES[key] = self

    def unanswered(self, answer):
        if is_placeholder_value(answer, self.placeholder):
            return True
        return is_template_function(answer, self.template)

    def check(self, answer, *, seed=None):
        """Judge ``answer``: a Result that says right, wrong (and why) or not answered yet.
        ``seed`` draws the inputs of an earlier run again (its message names the seed)."""
        if self.unanswered(answer):
            # Still the placeholder: often an answer whose cell raised before it was defined.
            raised = _raised_before()
            lines = [raised] if raised else [_HOW_TO_ANSWER.format(key=self.key)]
            renamed = None if raised else _renamed(answer, self.template)
            return self.result("unanswered", lines + ([renamed] if renamed else []))
        seed = fresh_seed() if seed is None else int(seed)
        try:
            with check_state(self.needs):
                result = self.judge(answer, Draws(seed))
        except NotAnswered as reason:
            return self.result("unanswered", [str(reason)])
        except StudentRaised as raised:
            text = short(f"{type(raised.error).__name__}: {raised.error}", 300)
            when = f" {raised.when}" if raised.when else ""
            advice = [raised.advice] if raised.advice else []
            advice = _other_library(raised.error) + _changed_in_place(raised.error) + advice
            result = self.result("wrong", [f"your code raised{when} {text}", *advice])
        if result.status == "wrong" and self.draws_inputs:
            name = self.answer_name or getattr(answer, "__name__", "answer")
            result.lines.append(
                f"(the inputs were drawn with seed {seed}: "
                f'exercise("{self.key}").check({name}, seed={seed}) draws them again)'
            )
        return result

    def answer_values(self, seed):
        """The values this exercise asks for, as drawn with ``seed`` (what no message may
        show): for tests. None where the answer is not values (a mechanism, a name)."""
        with check_state(self.needs):
            return self.values_asked(Draws(seed))

    def values_asked(self, draw):
        return None

    def hint(self):
        """The next hint (they get more specific; none gives the solution)."""
        self._hints_given = min(self._hints_given + 1, len(self.hints))
        n = self._hints_given
        return Hint(self.key, n, len(self.hints), self.hints[n - 1])

    def result(self, status, lines=(), **where):
        return Result(self.key, self.title, status, lines, **where)

    def verdict(self, problems):
        return self.result("wrong", problems) if problems else self.result("right", [])

    def __repr__(self):
        return f"<exercise {self.key}: {self.title}>"


_HOW_TO_ANSWER = (
    "replace the ... with your answer, run that cell, then this one "
    '(hint: exercise("{key}").hint())'
)


class ValueExercise(Exercise):
    """Compute a value. ``expected()`` gives the reference value (a tensor, number, list...),
    computed in the check's own state; ``expect`` says what the prompt states about it (a
    dtype, a kind), and ``items`` names the items of a list answer. No message shows the
    expected value."""

    def __init__(self, key, title, *, expected, hints, expect=ANY, items=None, **kwargs):
        super().__init__(key, title, hints=hints, **kwargs)
        self.expected, self.expect, self.items = expected, expect, items

    def values_asked(self, draw):
        return self.expected()

    def judge(self, answer, draw):
        want = self.expected()
        problems = differences(answer, want, expect=self.expect, items=self.items)
        return self.verdict(problems + (_stopped_part_way() if problems else []))


def _last_cell_error():
    """What the cell run just before the check raised (IPython keeps it in
    ``last_execution_result``), or None."""
    from IPython import get_ipython

    result = getattr(get_ipython(), "last_execution_result", None)
    return getattr(result, "error_in_exec", None) or getattr(result, "error_before_exec", None)


def _stopped_part_way():
    """A value left by a cell that raised part way is explained by why it stopped."""
    error = _last_cell_error()
    if error is None:
        return []
    return [
        f"the cell run before this check stopped part way, with {type(error).__name__}: "
        f"{short(error, 240)} (the values above are what it left)"
    ]


def _raised_before():
    """For an answer still at its placeholder: the error of the answer's cell, when the cell
    run just before the check raised (a typo, a name eagerkit lacks), in place of "replace
    the ...", which the student did."""
    error = _last_cell_error()
    if error is None:
        return None
    return (
        f"the cell run just before this check raised {type(error).__name__}: "
        f"{short(error, 240)}. If that was your answer's cell, the answer is still the ... "
        "it was to replace: fix that cell, run it again, then this one"
    )


def _renamed(answer, template):
    """For a template function the check was given: a line naming the functions the
    student defined under a name close to it (``soft_sign`` for ``softsign``), or None."""
    from IPython import get_ipython

    shell, name = get_ipython(), getattr(answer, "__name__", None)
    if shell is None or not isinstance(answer, types.FunctionType):
        return None
    functions = {
        other: value
        for other, value in shell.user_ns.items()
        if isinstance(value, types.FunctionType) and other != name and not other.startswith("_")
    }
    close = difflib.get_close_matches(name, list(functions), n=3, cutoff=0.75)
    close = [other for other in close if not is_template_function(functions[other], template)]
    if not close:
        return None
    return (
        f"you defined {' and '.join(close)}: is your function named {name}? (the check is "
        f"given {name}, which is still the exercise's ...)"
    )


class CustomExercise(Exercise):
    """An exercise judged by ``judge(answer, draw)``, which returns the sentences saying
    what is wrong (none: right). For what values and gradients cannot say (how often a
    function traced, how far an optimizer got, which op a NaN starts at)."""

    def __init__(self, key, title, *, judge, hints, needs=(), draws_inputs=True, **kwargs):
        super().__init__(key, title, hints=hints, **kwargs)
        self._judge, self.needs, self.draws_inputs = judge, tuple(needs), draws_inputs

    def judge(self, answer, draw):
        return self.verdict(self._judge(answer, draw))
