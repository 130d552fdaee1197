"""Write a function: it is run on inputs drawn fresh for every check and judged by what it
does, its values, its gradients and, where the section teaches one, its mechanism.

For each input case: the values (compare.py), then the derivatives up to ``order`` with
random upstream gradients (gradients.py), compared only where they exist (``kinks``), then
``mechanism(answer, observation, args)`` (observe.py: tapes, devices, ops). A wrong value or
gradient is traced to the op to blame on the student's tape (pointing.py).
"""

import inspect

import numpy as np

from eagerkit import nest
from eagerkit.tensor import Tensor, convert_to_tensor

from .compare import ANY, differences, isclose, same_values, short_value
from .exercise import Exercise, student_code
from .gradients import derivatives, output_shapes
from .observe import Observation
from .pointing import point_at_gradient, point_at_value, tape_values


class FunctionExercise(Exercise):
    """Write a function, compared with ``reference`` on ``inputs(draw)``.

    inputs : ``inputs(draw) -> [args, ...]``: the cases, edge cases included; numpy arrays
        become ek tensors, Python numbers stay Python numbers.
    order : how many derivatives to compare (0: values only).
    kinks : ``{order: fn(*arrays) -> [mask per input]}``, True where that derivative does
        not exist (it is not compared there).
    mechanism : ``fn(answer, observation, args) -> [problems]``, what the section teaches, observed.
    expect, items : as for ``differences`` (what the prompt states; names of results).
    upstream : ``upstream(draw, shape)``, the gradient arriving at the output (default:
        random values in ±[0.5, 2]).
    quantities : ``{name: fn(*args)}``, the values a right computation makes on the way
        (named as the prompt names them); a wrong answer is told the first one its tape
        never makes, or, when it makes them all, ``combined`` (how they go together, in words).
    advice : what to look at when the answer returns None, raises or returns the wrong kind
        of thing (a tuple for a tensor), in the section's words.
    explain : ``explain(args, got) -> [lines]``, what a wrong value most likely means, in the
        section's words (a fan-out summed wrong, a model not built), never the value asked for.
    vjp_advice : what to compare a VJP the student wrote with, when it is blamed.
    gradient_close : ``close(got, want)`` for the gradients (default: compare.isclose), for
        a section whose right answers differ by float32 rounding more than that allows.
    """

    draws_inputs = True

    def __init__(
        self,
        key,
        title,
        *,
        reference,
        inputs,
        hints,
        order=1,
        kinks=None,
        mechanism=None,
        expect=ANY,
        items=None,
        needs=(),
        upstream=None,
        quantities=None,
        combined=None,
        advice=None,
        explain=None,
        vjp_advice=None,
        gradient_close=None,
        **kwargs,
    ):
        super().__init__(key, title, hints=hints, **kwargs)
        self.reference, self.inputs, self.order = reference, inputs, order
        self.kinks, self.mechanism = kinks or {}, mechanism
        self.expect, self.items, self.needs = expect, items, tuple(needs)
        self.names = list(inspect.signature(reference).parameters)
        self.upstream = upstream or (lambda draw, shape: draw.upstream(shape))
        self.quantities, self.combined, self.advice = quantities or {}, combined, advice
        self.vjp_advice, self.explain = vjp_advice, explain
        self.gradient_close = gradient_close

    def values_asked(self, draw):
        return [self.reference(*[_as_input(a) for a in case]) for case in self.inputs(draw)]

    def judge(self, fn, draw):
        if not callable(fn):
            return self.result("wrong", [f"a function is expected, got {type(fn).__name__}"])
        name = getattr(fn, "__name__", "your function")
        right_before = None  # a call that was right (for a frozen ek.function trace)
        missing = []  # what the first call lacked of the section's mechanism
        cases = self.inputs(draw)
        for case in cases:
            args = [_as_input(a) for a in case]
            names = self.names[: len(args)]  # a parameter with a default may be left out
            call = f"{name}({', '.join(names)}) with " + ", ".join(
                f"{n} = {short_value(a)}" for n, a in zip(names, args, strict=True)
            )
            want = self.reference(*args)
            seen = Observation()
            with student_code(f"in {call}", self.advice), seen.watching():
                got = fn(*args)
            if got is None:
                return self.result("wrong", [_returned_none(call), *self._advice()])
            problems = differences(got, want, what=call, expect=self.expect, items=self.items)
            if problems:
                explained = self.explain(args, got) if self.explain else []
                problems += explained or self._factor_on_every_input(fn, cases, got)
                return self._wrong_value(fn, args, problems, got, want, right_before, explained)
            if self.order:
                result = self._gradients(fn, args, call, want, draw)
                if result is not None:
                    return result
            if self.mechanism and not missing:
                with student_code(f"in {call}"):
                    missing = self.mechanism(fn, seen, args)
            right_before = call
        # "the values are right, but ..." only once they are, on every input
        return self.result("wrong", missing) if missing else self.result("right", [])

    def _wrong_value(self, fn, args, problems, got, want, right_before, explained=()):
        """An ``explain`` line says what the mistake is: then only an op pointed at may
        follow it, not a quantity's general advice (``combined``) it would contradict."""
        if right_before and hasattr(fn, "trace_count") and _right_eagerly(fn, args, want):
            return self.result("wrong", problems + [_frozen(right_before)])
        if isinstance(got, (tuple, list)) and not isinstance(want, (tuple, list)):
            return self.result("wrong", problems + self._advice())
        if isinstance(got, (tuple, list)):  # no single result to point at on a tape
            with student_code():
                return self.result("wrong", problems + self._missing_quantity(fn, args, explained))
        if same_values(got, want):
            return self.result("wrong", problems)  # a dtype, a device: no op to blame
        tensors = all(isinstance(a, Tensor) for a in args)
        # a tape records nothing from integer inputs: there is no op on it to point at
        floating = tensors and any(a.dtype.is_floating for a in args)
        if not floating or not isinstance(got, Tensor):
            with student_code():
                return self.result("wrong", problems + self._missing_quantity(fn, args, explained))
        with student_code():
            lines, where = point_at_value(fn, self.reference, args, self.names)
            lines = lines if where or not explained else []  # "no single op" adds nothing
            lines += self._missing_quantity(fn, args, explained)
        return self.result("wrong", problems + lines, **where)

    def _factor_on_every_input(self, fn, cases, got):
        """A one-number result cannot show a factor (compare.py sees one across elements):
        across the inputs it can. The line says so without the value asked for."""
        if not _one_number(got) or len(cases) < 2:
            return []
        ratios = []
        for case in cases:
            args = [_as_input(a) for a in case]
            try:
                with student_code():
                    mine = fn(*args)
            except Exception:  # the first input's message says enough
                return []
            theirs = self.reference(*args)
            if not (_one_number(mine) and _one_number(theirs)):
                return []
            mine, theirs = float(_array(mine)), float(_array(theirs))
            if not np.isfinite(mine) or abs(theirs) < 1e-6:
                return []
            ratios.append(mine / theirs)
        c = ratios[0]
        if c == 0 or abs(abs(c) - 1) < 1e-3 or not np.allclose(ratios, c, rtol=1e-3):
            return []
        return [
            f"on each of the {len(ratios)} inputs your result is the right one times the same "
            "number: a constant factor is missing or extra"
        ]

    def _advice(self):
        return [self.advice] if self.advice else []

    def _missing_quantity(self, fn, args, explained=()):
        if not self.quantities or explained:  # an explanation says more than a quantity
            return []
        made = tape_values(fn, args)
        for name, quantity in self.quantities.items():
            value = _array(quantity(*args))
            if not any(v.shape == value.shape and np.all(isclose(v, value)) for v in made):
                return [f"no value on your tape is {name}"]
        return [self.combined] if self.combined else []

    def _gradients(self, fn, args, call, want, draw):
        """None when every derivative agrees, else the wrong Result."""
        upstreams = [[self.upstream(draw, s) for s in output_shapes(want)]]
        for _ in range(1, self.order):
            upstreams.append([draw.upstream(np.shape(_array(a))) for a in args])
        if len(upstreams[0]) == 1:
            upstreams[0] = upstreams[0][0]
        theirs = derivatives(self.reference, args, upstreams)
        with student_code(f"while taking the gradient of {call}"):
            mine = derivatives(fn, args, upstreams)
        for order, (got_all, want_all) in enumerate(zip(mine, theirs, strict=True), start=1):
            masks = self._kink_masks(order, args)
            for i, (got, wanted) in enumerate(zip(got_all, want_all, strict=True)):
                problems = self._compare_gradient(got, wanted, masks[i], order, i, call)
                if problems:
                    return self._wrong_gradient(fn, args, upstreams, problems, order)
        return None

    def _kink_masks(self, order, args):
        if order not in self.kinks:
            return [None] * len(args)
        return self.kinks[order](*[_array(a) for a in args])

    def _compare_gradient(self, got, want, mask, order, i, call):
        what = _derivative_text(order, self.names[i], call)
        if want is None:
            return []
        if got is None:
            return [
                f"{what} is None: no gradient reaches {self.names[i]} (an op on the way has no "
                "gradient, such as ek.round or a cast to an integer, or the value left the "
                "tape through numpy)"
            ]
        got = np.asarray(got).reshape(np.shape(want))
        if mask is not None:  # where the derivative does not exist, any value will do
            got = np.where(mask, want, got)
        return differences(got, np.asarray(want), what=what, close=self.gradient_close)

    def _wrong_gradient(self, fn, args, upstreams, problems, order):
        if not all(isinstance(a, Tensor) for a in args):
            return self.result("wrong", problems)
        effect = None
        if order == 1 and self._upstream_effect(self.reference, args, upstreams) is None:
            effect = self._upstream_effect(fn, args, upstreams)  # (a clip is not linear)
        with student_code():
            lines, where = point_at_gradient(
                fn,
                args,
                self.names,
                upstreams[0],
                order=order,
                upstream_effect=effect,
                advice=self.vjp_advice,
            )
        return self.result("wrong", problems + lines, **where)

    def _upstream_effect(self, fn, args, upstreams):
        """How the student's gradient answers the upstream gradient doubling (a correct one
        doubles): ``"ignores"`` (it stays the same), ``"not linear"`` (it changes otherwise)
        or None."""
        first = upstreams[0]
        doubled = [nest.pack_sequence_as(first, [u * 2 for u in nest.flatten(first)])]
        try:
            with student_code():
                once = derivatives(fn, args, [first])[0]
                twice = derivatives(fn, args, doubled)[0]
        except Exception:
            return None
        pairs = [(a, b) for a, b in zip(once, twice, strict=True) if a is not None]
        if not pairs or not any(np.any(np.abs(a) > 1e-6) for a, _ in pairs):
            return None
        if all(np.all(isclose(a, b)) for a, b in pairs):
            return "ignores"
        if not all(np.all(isclose(2 * a, b)) for a, b in pairs):
            return "not linear"
        return None


def _as_input(value):
    """A numpy array or nested list becomes an ek tensor (float32, int32...); a Python number
    stays one (the function gets what a student's own call would give it)."""
    if isinstance(value, (np.ndarray, np.generic, list)):
        return convert_to_tensor(value)
    return value


def _one_number(value):
    """A Python number or a one-element real tensor (not a list, not a string)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number, Tensor)):
        return False
    if isinstance(value, Tensor) and not (value.dtype.is_floating or value.dtype.is_integer):
        return False
    return np.size(_array(value)) == 1


def _array(value):
    return value.numpy() if isinstance(value, Tensor) else np.asarray(value)


def _returned_none(call):
    return (
        f"{call} returned None: is a return missing, or is it a gradient that came out None "
        "(was the source watched?)"
    )


def _right_eagerly(fn, args, want):
    """Whether the Python function inside the ek.function ``fn`` gives ``want`` when run
    eagerly on ``args``: then the trace is to blame, not the code (which is wrong at these
    inputs whether traced or not, when this is False)."""
    try:
        eager = fn.python_function(*[_as_input(a) for a in args])
    except Exception:  # the code itself fails here: no trace to blame
        return False
    return same_values(eager, want)


def _frozen(right_call):
    return (
        f"{right_call} was right: an ek.function traced then, and calls with the same shapes "
        "and dtypes reuse that trace, with every choice Python made while tracing frozen in"
    )


def _derivative_text(order, name, call):
    upstream = " (times a random upstream gradient)"
    if order == 1:
        return f"the gradient of {call}{upstream} with respect to {name}"
    return (
        f"the order-{order} derivative (the second derivative, gradient of the gradient) of "
        f"{call}{upstream} with respect to {name}"
    )
