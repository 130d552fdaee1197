"""Write a function: it is run on inputs drawn fresh for every check and judged by what it
does, its values, its gradients and, where the section teaches one, its mechanism.

For each input case: the values (compare.py), then the derivatives up to ``order`` with
random upstream gradients (gradients.py), compared only where they exist (``kinks``), then
``mechanism(answer, observation, args)`` (observe.py: tapes, devices, ops). A wrong value or
gradient is traced to the op to blame on the student's tape (pointing.py).
"""

import collections
import inspect

import numpy as np

from eagerkit.tensor import Tensor

from .call_facts import (
    as_input,
    derivative_text,
    factor_on_every_input,
    float_dtype,
    floor_division,
    frozen,
    integer_mean,
    no_gradient,
    not_finite,
    returned_none,
    right_eagerly,
)
from .compare import ANY, differences, isclose, short_value, swapped
from .diagnose import Trace, silent_users_op
from .exercise import Exercise, student_code
from .form import as_array, form_problem, says_it_all, squeezes_right
from .gradients import derivatives, output_shapes, upstream_effect
from .observe import Observation
from .pointing import point_at_gradient, point_at_overflow, point_at_value, tape_values
from .result import Result

Call = collections.namedtuple("Call", "args call want seen got problems")


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
        of thing (a tuple for a tensor), in the section's words; or ``advice(fn, error)``
        giving it (or None) for the answer ``fn`` and what it raised (None if nothing).
    explain : ``explain(args, got) -> [lines]``, what a wrong value most likely means, in the
        section's words (a fan-out summed wrong, a model not built), never the value asked for;
        when it says something, no op of the tape is looked for.
    vjp_advice : what to compare a VJP the student wrote with, when it is blamed; or
        ``vjp_advice(args, upstream, gradients)`` giving it from the student's gradients.
    gradient_close : ``close(got, want)`` for the gradients (default: compare.isclose), for
        a section whose right answers differ by float32 rounding more than that allows.
    finite_form : how the section's formula stays finite, told when an op of the answer
        overflows (``exp`` of a large value is inf, and the result nan).
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
        finite_form=None,
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
        self.gradient_close, self.finite_form = gradient_close, finite_form

    def values_asked(self, draw):
        return [self.reference(*[as_input(a) for a in case]) for case in self.inputs(draw)]

    def judge(self, fn, draw):
        if not callable(fn):
            return self.result("wrong", [f"a function is expected, got {type(fn).__name__}"])
        right_before = None  # a call that was right (for a frozen ek.function trace)
        missing = []  # what the first call lacked of the section's mechanism
        cases = self.inputs(draw)
        for number, case in enumerate(cases):
            ran = self._call(fn, case)
            if isinstance(ran, Result):
                return ran
            if ran.problems and squeezes_right(ran.got, ran.want):
                # an axis of size 1 too many here may be a bigger axis on a later input
                # (a batch of one): the later input's mistake is the one to tell
                ran = self._worse_later(fn, cases[number + 1 :]) or ran
            args, got, want, problems = ran.args, ran.got, ran.want, ran.problems
            if problems:
                explained = self.explain(args, got) if self.explain else []
                if not explained and isinstance(want, Tensor) and want.dtype.is_floating:
                    explained = integer_mean(ran.seen) or floor_division(ran.seen)
                if not explained:
                    problems += factor_on_every_input(fn, self.reference, cases, got)
                return self._wrong_value(fn, args, problems, got, want, right_before, explained)
            if self.order:
                result = self._gradients(fn, args, ran.call, want, draw)
                if result is not None:
                    return result
            if self.mechanism and not missing:
                with student_code(f"in {ran.call}"):
                    missing = self.mechanism(fn, ran.seen, args)
            right_before = ran.call
        # "the values are right, but ..." only once they are, on every input
        return self.result("wrong", missing) if missing else self.result("right", [])

    def _call(self, fn, case):
        """``fn`` called on one input case: a ``Call`` (what it returned, how that differs
        from the reference's), or the Result when it returned None."""
        args = [as_input(a) for a in case]
        names = self.names[: len(args)]  # a parameter with a default may be left out
        call = f"{getattr(fn, '__name__', 'your function')}({', '.join(names)}) with " + ", ".join(
            f"{n} = {short_value(a)}" for n, a in zip(names, args, strict=True)
        )
        want = self.reference(*args)
        seen = Observation()
        with student_code(f"in {call}", self._advice_for(fn)), seen.watching():
            got = fn(*args)
        if got is None:
            return self.result("wrong", [returned_none(call), *self._advice(fn)])
        kinds = {"expect": self.expect, "items": self.items, "inputs_dtype": float_dtype(args)}
        problems = differences(got, want, what=call, **kinds)
        return Call(args, call, want, seen, got, problems)

    def _worse_later(self, fn, cases):
        """The first later call whose mistake is more than axes of size 1, or None."""
        for case in cases:
            ran = self._call(fn, case)
            if isinstance(ran, Result):
                return None
            if ran.problems and not squeezes_right(ran.got, ran.want):
                return ran
        return None

    def _wrong_value(self, fn, args, problems, got, want, right_before, explained=()):
        """The Result for a wrong value: ``problems`` (what differs), then ``explained`` (the
        section's words for it), else the op to blame and what the tape lacks."""
        if right_before and hasattr(fn, "trace_count") and right_eagerly(fn, args, want):
            return self.result("wrong", problems + [frozen(right_before)])
        said = problems + list(explained)

        def tail():  # what the tape lacks, unless the section's words said what is wrong
            return [] if explained else self._missing_quantity(fn, args)

        if isinstance(got, (tuple, list)) and not isinstance(want, (tuple, list)):
            # tensors: what to return says it all; else (a function in it?) the advice
            tensors = all(isinstance(v, Tensor) for v in got)
            return self.result("wrong", said + ([] if tensors else self._advice(fn)))
        if isinstance(want, (tuple, list)) and not isinstance(got, (tuple, list)):
            return self.result("wrong", said)  # one value for several: that says it all
        if isinstance(got, (tuple, list)):  # no single result to point at on a tape
            if not all(isinstance(v, Tensor) for v in got) or swapped(got, want):
                return self.result("wrong", said)  # what they are says it all
            with student_code():
                return self.result("wrong", said + tail())
        if says_it_all(got, want, expect=self.expect, inputs_dtype=float_dtype(args)):
            return self.result("wrong", said)  # its kind, dtype, an extra axis: no op to blame
        tensors = all(isinstance(a, Tensor) for a in args)
        # a tape records nothing from integer inputs: there is no op on it to point at
        floating = tensors and any(a.dtype.is_floating for a in args)
        if not floating or not isinstance(got, Tensor):
            with student_code():
                found = None
                if not_finite(got) and not explained:  # (the section's words say why)
                    found = point_at_overflow(
                        fn, args, self.names, self.finite_form, reference=self.reference
                    )
                if found is not None:
                    lines, where = found
                    where.pop("overflow")
                    return self.result("wrong", problems + lines, **where)
                return self.result("wrong", said + tail())
        with student_code():
            lines, where = point_at_value(fn, self.reference, args, self.names, self.finite_form)
            if where.pop("overflow", False):  # an overflow is the whole story
                if explained:  # told in the section's words already
                    return self.result("wrong", said)
                return self.result("wrong", problems + lines, **where)
            if explained:  # said already: the op to blame if one is, else nothing
                return self.result("wrong", said + (lines if where else []), **where)
            if form_problem(got, want, expect=self.expect):  # a wrong shape: not "combined"
                missing = self._missing_quantity(fn, args, combined=False)
                return self.result("wrong", problems + (lines if where else []) + missing, **where)
            return self.result("wrong", problems + lines + tail(), **where)

    def _advice_for(self, fn):
        """The advice for errors of the answer ``fn``: a text, or a function of the error."""
        if callable(self.advice):
            return lambda error: self.advice(fn, error)
        return self.advice

    def _advice(self, fn):
        advice = self.advice(fn, None) if callable(self.advice) else self.advice
        return [advice] if advice else []

    def _missing_quantity(self, fn, args, combined=True):
        """The first quantity the tape never makes, else (``combined``) how they combine."""
        if not self.quantities:
            return []
        made = tape_values(fn, args)
        for name, quantity in self.quantities.items():
            value = as_array(quantity(*args))
            if not any(v.shape == value.shape and np.all(isclose(v, value)) for v in made):
                return [f"no value on your tape is {name}"]
        return [self.combined] if self.combined and combined else []

    def _gradients(self, fn, args, call, want, draw):
        """None when every derivative agrees, else the wrong Result."""
        upstreams = [[self.upstream(draw, s) for s in output_shapes(want)]]
        for _ in range(1, self.order):
            upstreams.append([draw.upstream(np.shape(as_array(a))) for a in args])
        if len(upstreams[0]) == 1:
            upstreams[0] = upstreams[0][0]
        theirs = derivatives(self.reference, args, upstreams)
        with student_code(f"while taking the gradient of {call}"):
            mine = derivatives(fn, args, upstreams)
        silent = None
        if any(g is None for g in mine[0]):  # a gradient function that returned None?
            with student_code(f"while taking the gradient of {call}"):
                silent = silent_users_op(Trace(fn, args))
        for order, (got_all, want_all) in enumerate(zip(mine, theirs, strict=True), start=1):
            masks = self._kink_masks(order, args)
            for i, (got, wanted) in enumerate(zip(got_all, want_all, strict=True)):
                problems = self._compare_gradient(got, wanted, masks[i], order, i, call, silent)
                if problems and silent is not None:  # a missing return: nothing more to say
                    return self.result("wrong", problems)
                if problems:
                    return self._wrong_gradient(fn, args, upstreams, problems, order, mine)
        return None

    def _kink_masks(self, order, args):
        if order not in self.kinks:
            return [None] * len(args)
        return self.kinks[order](*[as_array(a) for a in args])

    def _compare_gradient(self, got, want, mask, order, i, call, silent=None):
        what = derivative_text(order, self.names[i], call)
        if want is None:
            return []
        if got is None:
            return [no_gradient(what, self.names[i], silent)]
        got = np.asarray(got).reshape(np.shape(want))
        if mask is not None:  # where the derivative does not exist, any value will do
            got = np.where(mask, want, got)
        return differences(got, np.asarray(want), what=what, close=self.gradient_close)

    def _wrong_gradient(self, fn, args, upstreams, problems, order, mine):
        if not all(isinstance(a, Tensor) for a in args):
            return self.result("wrong", problems)
        advice = self.vjp_advice
        if callable(advice):  # from the gradients the student's VJP gave
            advice = advice([as_array(a) for a in args], np.asarray(upstreams[0]), mine[0])
        effect = None
        if order == 1 and upstream_effect(self.reference, args, upstreams) is None:
            effect = upstream_effect(fn, args, upstreams)  # (a clip is not linear)
        with student_code():
            lines, where = point_at_gradient(
                fn,
                args,
                self.names,
                upstreams[0],
                order=order,
                upstream_effect=effect,
                advice=advice,
                finite_form=self.finite_form,
            )
        return self.result("wrong", problems + lines, **where)
