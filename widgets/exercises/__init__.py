"""Self-checking exercises: ``exercise("5.1").check(answer)`` says right or wrong, and why.

A lesson's check cell runs the student's answer against a reference and shows a verdict:

- right;
- not answered yet (the answer is still the placeholder ``...``, or the function returns
  None): never an error;
- not right yet, with the reason: for a value, the expected kind, shape, dtype and the
  first element that is off; for a function, the same for its result, then for its
  gradients (which input, which order, which element), and the first op on the student's
  own tape where the value or gradient goes wrong, highlighted in a TapeView.

``exercise("5.1").hint()`` gives the next hint, never the solution. The exercises of
lesson NN are defined in ``lessonNN.py`` (a ``ValueExercise`` or a ``FunctionExercise``
each); ``python -m eagerkit.widgets.exercises.student`` writes the student copies of the
lessons, with the solutions taken out.
"""

from .exercise import (
    CustomExercise,
    Exercise,
    FunctionExercise,
    NotAnswered,
    ValueExercise,
    exercise,
)
from .result import Hint, Result

__all__ = [
    "CustomExercise",
    "Exercise",
    "FunctionExercise",
    "NotAnswered",
    "Hint",
    "Result",
    "ValueExercise",
    "exercise",
]
