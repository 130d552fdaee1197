"""Exercises and their checks: a value to compute, or a function to write.

Each lesson's exercises are defined in ``lessonNN.py`` beside this file (the reference the
answer is compared with, and the hints) and looked up by their number with
``exercise("5.1")``. A check never shows the reference's code, and a hint never gives the
solution.
"""

import importlib
import inspect

import numpy as np

from eagerkit.tensor import Tensor, convert_to_tensor

from .compare import differences, same_values
from .result import Hint, Result
from .text import short

_EXERCISES = {}  # "5.1" -> Exercise
PLACEHOLDER = "# your code here"  # what the student copies have in place of a solution


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


def unanswered(answer):
    """True for the placeholder ``...`` (alone or inside a tuple or list), for None, and
    for a function whose source still holds the student copy's ``# your code here``."""
    if answer is ... or answer is None:
        return True
    if callable(answer):
        try:
            return PLACEHOLDER in inspect.getsource(answer)
        except (OSError, TypeError):  # no source to read (a builtin, a lambda made by exec)
            return False
    return isinstance(answer, (tuple, list)) and any(unanswered(a) for a in answer)


class Exercise:
    """Base class: a numbered exercise with hints. Subclasses define ``judge(answer)``."""

    def __init__(self, key, title, *, hints):
        self.key, self.title, self.hints = key, title, list(hints)
        self._hints_given = 0
        _EXERCISES[key] = self

    def check(self, answer):
        """Judge ``answer``: a Result that says right, wrong (and why) or not answered yet."""
        if unanswered(answer):
            return self.result("unanswered", [_HOW_TO_ANSWER.format(key=self.key)])
        try:
            return self.judge(answer)
        except NotAnswered as reason:
            return self.result("unanswered", [str(reason)])
        except Exception as error:  # the student's code failed: say how, don't raise
            text = short(f"{type(error).__name__}: {error}", 300)
            return self.result("wrong", [f"your code raised {text}"])

    def hint(self):
        """The next hint (they get more specific; none gives the solution)."""
        self._hints_given = min(self._hints_given + 1, len(self.hints))
        n = self._hints_given
        return Hint(self.key, n, len(self.hints), self.hints[n - 1])

    def result(self, status, lines=(), **where):
        return Result(self.key, self.title, status, lines, **where)

    def __repr__(self):
        return f"<exercise {self.key}: {self.title}>"


_HOW_TO_ANSWER = (
    "replace the ... with your answer, run that cell, then this one "
    '(hint: exercise("{key}").hint())'
)


class NotAnswered(Exception):  # a verdict, not an error
    """Raised inside ``judge`` to say "not answered yet", with the reason as its message."""


_NotAnswered = NotAnswered  # the name lesson 12's checks import


class ValueExercise(Exercise):
    """Compute a value. ``expected()`` gives the reference value (a tensor, number, list...).

    ``reveal=False`` keeps the expected number out of the message (it says too large or
    too small) for exercises whose answer *is* a number. ``items`` names the items of an
    answer that is a list.
    """

    def __init__(
        self, key, title, *, expected, hints, items=None, reveal=True, rtol=1e-4, atol=1e-5
    ):
        super().__init__(key, title, hints=hints)
        self.expected, self.items, self.reveal = expected, items, reveal
        self.rtol, self.atol = rtol, atol

    def judge(self, answer):
        problems = differences(
            answer,
            self.expected(),
            items=self.items,
            reveal=self.reveal,
            rtol=self.rtol,
            atol=self.atol,
        )
        if problems:
            return self.result("wrong", problems)
        return self.result("right", [])


class CustomExercise(Exercise):
    """An exercise judged by ``judge(answer)``, which returns the sentences saying what is
    wrong (none: right). For what values and gradients cannot say (how often a function
    traced, how far an optimizer got)."""

    def __init__(self, key, title, *, judge, hints):
        super().__init__(key, title, hints=hints)
        self._judge = judge

    def judge(self, answer):
        problems = self._judge(answer)
        return self.result("wrong", problems) if problems else self.result("right", [])


class FunctionExercise(Exercise):
    """Write a function. It is called on each of ``inputs`` and compared with ``reference``:
    values (shape, dtype, elements), then, up to ``order``, gradients with respect to each
    argument. A wrong value or gradient is traced to the first op on the student's tape
    where it goes wrong, shown highlighted in a TapeView.

    The gradients are those of ``sum(upstream * fn(*x))``: ``upstream`` (default: ones) is
    the gradient arriving from above, as a bigger model would send it.
    """

    def __init__(
        self,
        key,
        title,
        *,
        reference,
        inputs,
        hints,
        order=1,
        upstream=None,
        items=None,
        rtol=1e-4,
        atol=1e-5,
    ):
        super().__init__(key, title, hints=hints)
        self.reference, self.inputs, self.order = reference, inputs, order
        self.items = items  # names of the results, for a function that returns several
        self.upstream = upstream  # the gradient that arrives at the output (default: ones)
        self.rtol, self.atol = rtol, atol
        self.names = list(inspect.signature(reference).parameters)

    def judge(self, fn):
        if not callable(fn):
            return self.result("wrong", [f"a function is expected, got {type(fn).__name__}"])
        name = getattr(fn, "__name__", "your function")
        passed = []  # the calls that were right so far
        for args in self.inputs:
            tensors = [convert_to_tensor(a) for a in args]  # TF's dtypes: float32, int32
            call = f"{name}({', '.join(short(_text(a), 30) for a in args)})"
            got = fn(*tensors)
            if got is None or got is ...:
                return self.result(
                    "wrong",
                    [
                        f"{call} returned {got!r}: is a return missing, or is it a gradient "
                        "that came out None (was the source watched?)"
                    ],
                )
            want = self.reference(*tensors)
            problems = differences(
                got,
                want,
                what=call,
                items=self.items,
                rtol=self.rtol,
                atol=self.atol,
            )
            if problems and passed and hasattr(fn, "trace_count"):
                return self.result("wrong", problems + [_frozen(passed[0])])
            if problems and same_values(got, want):  # a dtype or a device: the tape can't help
                return self.result("wrong", problems)
            if problems:
                return self._wrong(fn, tensors, problems, forward=True)
            if self.order:
                problems = self._gradient_differences(self._weighted(fn), tensors, call)
                if problems:
                    return self._wrong(fn, tensors, problems, forward=False)
            passed.append(call)
        return self.result("right", [])

    def _weighted(self, fn):
        if self.upstream is None:
            return fn
        upstream = convert_to_tensor(np.asarray(self.upstream, np.float32))

        def weighted(*args):
            return fn(*args) * upstream

        weighted.__name__ = "weighted"  # the output times upstream, as the view labels it
        return weighted

    def _gradient_differences(self, fn, tensors, call):
        from .gradients import derivatives

        mine = derivatives(fn, tensors, self.order)
        theirs = derivatives(self._weighted(self.reference), tensors, self.order)
        for order, (got_all, want_all) in enumerate(zip(mine, theirs, strict=True), start=1):
            for name, got, want in zip(self.names, got_all, want_all, strict=True):
                what = _derivative_text(order, name, call, self.upstream)
                if want is not None and got is None:
                    return [
                        f"{what} is None: no gradient reaches {name} (an op on the way has "
                        "no gradient, such as ek.round or a cast to an integer, or the value "
                        "left the tape through numpy)"
                    ]
                if want is None:
                    continue
                problems = differences(got, want, what=what, rtol=self.rtol, atol=self.atol)
                if problems:
                    return problems
        return []

    def _wrong(self, fn, tensors, problems, *, forward):
        from .pointing import point_at

        if not forward:  # the gradient compared is that of the output times upstream
            fn, reference = self._weighted(fn), self._weighted(self.reference)
        else:
            reference = self.reference
        lines, where = point_at(fn, reference, tensors, self.names, forward=forward)
        return self.result("wrong", problems + lines, **where)


def _frozen(right_call):
    return (
        f"{right_call} was right: an ek.function traced then, and calls with the same shapes "
        "and dtypes reuse that trace, with every choice Python made while tracing frozen in"
    )


def _text(value):
    return str(value.numpy().tolist() if isinstance(value, Tensor) else np.asarray(value).tolist())


def _derivative_text(order, name, call, upstream=None):
    if upstream is not None:
        call = f"{call} * {_text(upstream)}"
    if order == 1:
        return f"the gradient of {call} with respect to {name}"
    return (
        f"the order-{order} derivative (gradient of the gradient) of {call} with respect to {name}"
    )
