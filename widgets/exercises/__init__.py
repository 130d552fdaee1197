"""Self-checking exercises: ``exercise("5.1").check(answer)`` says right or wrong, and why.

A lesson's check cell runs the student's answer and shows a verdict:

- right;
- not answered yet: the answer is still the student copy's placeholder (``...``, or the
  template's function, recognised by its code), never judged by how it is spelled;
- not right yet, with the reason: for a value, the kind, shape, dtype, device or the first
  element that is off (never the value asked for); for a function, the same for its result
  on inputs drawn fresh for each run (the seed is in the message), then for its gradients
  under random upstream gradients, then for the mechanism the section teaches (a tape, a
  device, a trace), and the op on the student's own tape to blame, highlighted in a TapeView.

``exercise("5.1").hint()`` gives the next hint, never the solution. The exercises of
lesson NN are defined in ``lessonNN.py``; ``python -m eagerkit.widgets.exercises.student``
writes the student copies of the lessons, with the solutions taken out.
"""

from .compare import Expect
from .exercise import (
    CustomExercise,
    Exercise,
    NotAnswered,
    ValueExercise,
    all_exercises,
    exercise,
    student_code,
)
from .function_exercise import FunctionExercise
from .result import Hint, Result

__all__ = [
    "CustomExercise",
    "Exercise",
    "Expect",
    "FunctionExercise",
    "Hint",
    "NotAnswered",
    "Result",
    "ValueExercise",
    "all_exercises",
    "exercise",
    "student_code",
]
