"""The function-style gradient API of ``tfe`` (autograd's style), as thin layers over the tape.

``gradients_function(f)`` returns a function that computes f's gradients with respect to
its arguments; ``implicit_gradients(f)`` one that computes them with respect to every
trainable Variable f reads. Each opens a GradientTape, calls f, and asks the tape.
"""

import functools
import inspect

from eagerkit import boundary
from eagerkit.tape import GradientTape
from eagerkit.tensor import Tensor, convert_to_tensor


def _param_indices(f, params, count):
    """Which positional arguments to differentiate: all of them, or those named in params."""
    if params is None:
        return list(range(count))
    try:
        names = [
            p.name
            for p in inspect.signature(f).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "self"
        ]
    except (TypeError, ValueError):
        names = []
    indices = []
    for p in params:
        if isinstance(p, str):
            if p not in names:
                raise ValueError(f"{p!r} is not a parameter of {f.__name__}{names}")
            p = names.index(p)
        if not 0 <= p < count:
            raise IndexError(
                f"params asks for argument {p} but the function was called with {count} "
                "positional arguments"
            )
        indices.append(p)
    return indices


def _value_and_gradients(f, params, args, kwargs):
    dy = kwargs.pop("dy", None)
    if kwargs:
        raise ValueError(
            "Functions to be differentiated cannot receive keyword arguments "
            f"(got {sorted(kwargs)}); pass them positionally or bind them with a lambda."
        )
    args = list(args)
    indices = _param_indices(f, params, len(args))
    with GradientTape() as tape:
        seen = set()
        for i in indices:
            x = convert_to_tensor(args[i])
            if id(x) in seen:  # the same tensor passed twice: give each its own gradient
                x = Tensor(x._data, x._device)
            seen.add(id(x))
            args[i] = x
            tape.watch(x)
        value = f(*args)
    if value is None:
        raise ValueError(
            "Cannot differentiate a function that returns None; "
            "did you forget to return a value from f?"
        )
    grads = tape.gradient(value, [args[i] for i in indices], output_gradients=dy)
    return value, grads


def gradients_function(f, params=None):
    """A function returning the gradients of ``f`` with respect to its arguments.

    The result of ``grad(*args)`` is a list with one gradient per differentiated argument
    (``params`` picks them by index or name). Non-scalar outputs are summed, or weighted by
    the keyword argument ``dy``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> grad = ek.gradients_function(lambda x: x * x)
    >>> grad(3.0)
    [<ek.Tensor: shape=(), dtype=float32, numpy=6.0>]
    >>> ek.gradients_function(lambda x: grad(x)[0])(3.0)  # second derivative
    [<ek.Tensor: shape=(), dtype=float32, numpy=2.0>]
    """

    @functools.wraps(f)
    def gradients(*args, **kwargs):
        return _value_and_gradients(f, params, args, kwargs)[1]

    return boundary.returned(gradients, "gradients_function", f)


def value_and_gradients_function(f, params=None):
    """Like ``gradients_function``, but returns ``(f(*args), gradients)``.

    Examples
    --------
    >>> import eagerkit as ek
    >>> value, grads = ek.value_and_gradients_function(lambda x, y: x * y)(2.0, 5.0)
    >>> float(value), [float(g) for g in grads]
    (10.0, [5.0, 2.0])
    """

    @functools.wraps(f)
    def value_and_gradients(*args, **kwargs):
        return _value_and_gradients(f, params, args, kwargs)

    return boundary.returned(value_and_gradients, "value_and_gradients_function", f)


def implicit_value_and_gradients(f):
    """A function returning ``(f(...), [(gradient, variable), ...])`` for the variables f reads.

    Variables come in the order they were created, ready for ``optimizer.apply_gradients``.
    """

    @functools.wraps(f)
    def value_and_gradients(*args, **kwargs):
        with GradientTape() as tape:
            value = f(*args, **kwargs)
        if value is None:
            raise ValueError(
                "Cannot differentiate a function that returns None; "
                "did you forget to return a value from f?"
            )
        variables = list(tape.watched_variables())
        if not variables:
            raise ValueError(
                "No trainable variables were accessed while the function was being computed. "
                "Read the variables inside f (a value computed from them outside f does not "
                "count), and make sure they are float ek.Variables with trainable=True."
            )
        grads = tape.gradient(value, variables)
        return value, list(zip(grads, variables, strict=True))

    return boundary.returned(value_and_gradients, "implicit_value_and_gradients", f)


def implicit_gradients(f):
    """A function returning ``[(gradient, variable), ...]`` for every trainable variable f reads.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.Variable(2.0)
    >>> loss = lambda y: (y - x ** 2) ** 2
    >>> [(grad, variable)] = ek.implicit_gradients(loss)(7.0)
    >>> grad
    <ek.Tensor: shape=(), dtype=float32, numpy=-24.0>
    >>> variable
    <ek.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>
    """
    value_and_gradients = implicit_value_and_gradients(f).__wrapped__  # no second boundary

    @functools.wraps(f)
    def gradients(*args, **kwargs):
        return value_and_gradients(*args, **kwargs)[1]

    return boundary.returned(gradients, "implicit_gradients", f)


def gradients(ys, xs, grad_ys=None, name="gradients", **graph_options):
    """TF 1's symbolic ``tf.gradients``: not there in eager execution, as in TF 2.

    TF builds ``tf.gradients`` into a graph; eagerly (and inside ``ek.function``, whose graphs
    eagerkit traces from eager ops) the tape does the work. Raises ``RuntimeError``, TF's
    type, with the fix.

    Examples
    --------
    >>> import eagerkit as ek
    >>> x = ek.constant(3.0)
    >>> try:
    ...     ek.gradients(x * x, x)
    ... except RuntimeError as error:  # TF's type
    ...     print(str(error).split(": ", 1)[1][:66])
    ek.gradients is not supported when eager execution is enabled. Use
    """
    from eagerkit import recording

    where = (
        "inside ek.function (eagerkit traces it from eager ops: no symbolic gradients)"
        if recording.graph_tracers
        else "when eager execution is enabled"
    )
    raise RuntimeError(
        f"ek.gradients is not supported {where}. Use ek.GradientTape instead: compute ys "
        "inside 'with ek.GradientTape() as tape:' (tape.watch(x) for each x that is not a "
        "Variable), then call tape.gradient(ys, xs)"
    )
