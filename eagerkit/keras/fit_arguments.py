"""fit's arguments, checked as Keras checks them: callbacks, validation, verbose, counts.

Each check raises before ``fit`` changes anything, naming the argument and the fix.
"""

import numbers

from eagerkit.errors import InvalidArgumentError, ResourceExhaustedError
from eagerkit.keras import data_adapter
from eagerkit.keras.callback_base import HOOKS, CallbackList
from eagerkit.keras.data_adapter import adapt, unpack_x_y_sample_weight


def callback_list(given, model, verbose, epochs, steps, history=False):
    """The callbacks fit calls: the user's, with Keras' progress bar and History around."""
    if isinstance(given, CallbackList):
        return given
    if given is not None and not isinstance(given, (list, tuple)):
        raise InvalidArgumentError(
            f"callbacks must be a list of callbacks, got {given!r:.100}; write callbacks=[...]",
            op="fit",
        )
    for index, callback in enumerate(given or []):
        if not any(hasattr(callback, hook) for hook in (*HOOKS, "set_model")):
            raise InvalidArgumentError(
                f"callbacks[{index}] is {type(callback).__name__} {callback!r:.60}, not a "
                "callback: give objects with Keras' hooks (on_epoch_end, ...), such as "
                "ek.keras.callbacks.EarlyStopping(patience=3) or a LossCurve",
                op="fit",
            )
    return CallbackList(
        given,
        add_history=history,
        add_progbar=verbose != 0,
        model=model,
        verbose=verbose,
        epochs=epochs,
        steps=steps,
    )


def with_validation(data, validation_data, validation_split, batch_size):
    """``(training data, validation data or None)``: ``validation_data`` as given, or the
    last ``validation_split`` of the arrays."""
    if validation_data is not None:
        if isinstance(validation_data, data_adapter.Dataset):
            return data, adapt(validation_data, None, None, None, False, None, "fit")
        if not isinstance(validation_data, (tuple, list)) or len(validation_data) not in (2, 3):
            raise InvalidArgumentError(
                "When passing validation_data, it must contain 2 (x_val, y_val) or 3 "
                "(x_val, y_val, val_sample_weights) items, or be a Dataset; got "
                f"{type(validation_data).__name__}",
                op="fit",
            )
        x, y, weights = unpack_x_y_sample_weight(tuple(validation_data))
        return data, adapt(x, y, weights, batch_size, False, None, "fit")
    if (
        isinstance(validation_split, bool)
        or not isinstance(validation_split, numbers.Real)
        or (not 0 <= validation_split < 1)
    ):
        raise InvalidArgumentError(
            f"validation_split must be a number in [0, 1), got {validation_split!r}", op="fit"
        )
    if not validation_split:
        return data, None
    if not isinstance(data, data_adapter.ArrayData):
        raise InvalidArgumentError(
            "`validation_split` is only supported for Tensors or NumPy arrays, found a "
            "Dataset; pass validation_data= instead",
            op="fit",
        )
    return data.split(validation_split)


def validation_due(epoch, frequency):
    """Whether fit validates after ``epoch`` (``validation_freq``: every n-th, or a list)."""
    if isinstance(frequency, (list, tuple, set, range)):
        return epoch + 1 in frequency
    return (epoch + 1) % whole(frequency, "validation_freq", 1) == 0


def verbosity(verbose):
    if verbose == "auto":
        return 1
    if isinstance(verbose, bool) or verbose not in (0, 1, 2):
        raise InvalidArgumentError(
            f"verbose must be 0 (silent), 1 (progress bar), 2 (one line per epoch) or "
            f"'auto', got {verbose!r}",
            op="fit",
        )
    return int(verbose)


def whole(value, what, minimum):
    return data_adapter.whole_number(value, what, "fit", minimum)


# Each step is a forward (and a backward) pass run from Python, a millisecond or more even
# for the smallest model: a loop of more steps than this runs for a quarter of an hour or more.
MAX_STEPS = 1_000_000


def steps(value, what, caller):
    """A count of steps (``steps``, ``steps_per_epoch``, ``validation_steps``): None, or a
    whole number >= 1 that is not more than ``MAX_STEPS``.

    Examples
    --------
    >>> steps(None, "steps", "evaluate"), steps(3.0, "steps", "evaluate")
    (None, 3)
    """
    if value is None:
        return None
    count = data_adapter.whole_number(value, what, caller)
    return planned(count, f"{what}={count:,}", caller)


def planned(count, said, caller):
    """``count`` steps, or a ``ResourceExhaustedError`` before the first one when there are
    more than ``MAX_STEPS``; ``said`` is how the call asked for them (``epochs=10``)."""
    if count > MAX_STEPS:
        more = (
            "to train longer, call fit again in rounds (with initial_epoch= where the last "
            "round ended)"
            if caller == "fit"
            else "a Dataset that repeats forever needs steps=, a finite one may leave it out"
        )
        raise ResourceExhaustedError(
            f"{caller}: {said} is more than {MAX_STEPS:,} steps; each step is a pass of the "
            "model run from Python (a millisecond or more), so this would run for hours. "
            f"Ask for fewer; {more}.",
            op=caller,
        )
    return count


def planned_epochs(epochs, initial_epoch, steps_per_epoch):
    """The steps ``fit`` will run, refused when more than ``MAX_STEPS`` (an epoch whose
    length is not known yet, a Dataset's first, counts as at least one step)."""
    runs = max(epochs - initial_epoch, 0)
    if steps_per_epoch is None:
        return planned(runs, f"epochs={epochs:,}", "fit")
    said = f"epochs={epochs:,} of {steps_per_epoch:,} steps each"
    return planned(runs * steps_per_epoch, said, "fit")
