"""Undefined: the value of a name that has none yet where converted code needs to pass it.

Converted code hands every name an ``if`` or a loop may change to the functions it made of
the branches and the body. A name first assigned inside them has no value before, so it
goes in as ``Undefined("x")``; if it is still undefined where the program reads it (it was
assigned in one branch only, or only inside a loop over tensors), using it raises an error
that says so.
"""


class Undefined:
    """Stands for a name without a value; any use of it says which name and why.

    Examples
    --------
    >>> x = Undefined("x")
    >>> x + 1
    Traceback (most recent call last):
    ...
    NameError: 'x' is used before it has a value (AutoGraph): it is assigned only inside ...
    """

    __slots__ = ("name", "reason")

    def __init__(self, name, reason=None):
        self.name = name
        self.reason = reason or (
            "it is assigned only inside an if or a loop that did not give it a value: "
            "assign it before (or in both branches)"
        )

    def _fail(self, *args, **kwargs):
        raise NameError(f"{self.name!r} is used before it has a value (AutoGraph): {self.reason}")

    def __getattr__(self, attribute):
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        self._fail()

    __call__ = __bool__ = __iter__ = __len__ = __getitem__ = __float__ = __int__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = _fail
    __rtruediv__ = __neg__ = __lt__ = __le__ = __gt__ = __ge__ = __matmul__ = _fail
    __pow__ = __rpow__ = __floordiv__ = __mod__ = __array__ = _fail

    def __repr__(self):
        return f"Undefined({self.name!r})"


def undefined_in_one_branch(name):
    """The value of ``name`` after an if over a tensor that assigned it in one branch only."""
    return Undefined(
        name,
        "it is assigned in only one branch of an if over a tensor: TF's rule is that it "
        "must also be initialized in the other branch (or before the if)",
    )


def undefined_after_loop(name):
    """The value of ``name`` after a loop over tensors that only assigned it inside."""
    return Undefined(
        name,
        "it is assigned only inside a loop over tensors, so it has no value after the "
        "loop: define it before the loop",
    )
