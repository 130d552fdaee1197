"""How a valid call of a public callable is declared (the tables in ``calls_*.py``).

``call(*args, **kwargs)`` is the call; ``numpy=`` gives numpy's answer for the same arguments
(tensors passed as arrays), ``check=`` any other test of the result. A method's call is made
on a fresh object built by its class's declared call (``on=`` gives another maker), and the
arguments of its class's ``sample=`` stand where ``SAMPLE`` is written: a layer's input, a
metric's labels and predictions. ``fresh(maker)`` is an argument made anew for every call
(a Variable the call may change).
"""

from dataclasses import dataclass, field


class Fresh:
    """An argument made anew for each call (``spread``: several positional arguments)."""

    def __init__(self, maker, spread=False):
        self.maker = maker
        self.spread = spread


def fresh(maker):
    return Fresh(maker)


def fresh_arguments(maker):
    """Positional arguments made together, anew for each call: ``ek.Model(inputs, outputs)``."""
    return Fresh(maker, spread=True)


SAMPLE = object()  # where a class's sample arguments go in a method's call


@dataclass
class Call:
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    numpy: object = None  # numpy's answer: numpy(*arrays, **kwargs)
    check: object = None  # check(result): an assertion about the answer
    on: object = None  # makes the object a method is called on
    sample: tuple = ()  # what SAMPLE stands for in the calls of this class's methods
    repeatable: bool = True  # the same arguments give the same answer (seeded before each)
    raises: type = None  # the error a valid call raises by design (a base class's call)
    strict: bool = False  # takes tensors only, as in TF (a tape's target): no numpy spellings
    fixed: tuple = ()  # positions (or names) no user gets wrong: the name in setattr(obj, name, v)


def call(
    *args,
    numpy=None,
    check=None,
    on=None,
    sample=(),
    repeatable=True,
    raises=None,
    strict=False,
    fixed=(),
    **kwargs,
):
    """A valid call: ``call(x, axis=1, numpy=np.sum)``."""
    return Call(args, kwargs, numpy, check, on, tuple(sample), repeatable, raises, strict, fixed)


def resolve(value):
    """``value`` with its fresh arguments made (one level into lists, tuples and dicts)."""
    if isinstance(value, Fresh):
        return value.maker()
    if type(value) in (list, tuple):
        return type(value)(resolve(v) for v in value)
    if type(value) is dict:
        return {k: resolve(v) for k, v in value.items()}
    return value


def arguments(declared, sample=()):
    """The positional and keyword arguments of ``declared``, made, SAMPLE expanded."""
    args = []
    for value in declared.args:
        if value is SAMPLE:
            args.extend(resolve(sample))
        elif isinstance(value, Fresh) and value.spread:
            args.extend(value.maker())
        else:
            args.append(resolve(value))
    return args, {k: resolve(v) for k, v in declared.kwargs.items()}
