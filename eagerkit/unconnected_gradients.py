"""``ek.UnconnectedGradients``: what ``tape.gradient`` gives for a source the target
does not depend on, ``NONE`` (``None``, the default) or ``ZERO`` (zeros of its shape).

The members are strings, so ``unconnected_gradients="zero"`` and
``unconnected_gradients=ek.UnconnectedGradients.ZERO`` mean the same.

Examples
--------
>>> import eagerkit as ek
>>> x, y = ek.constant(2.0), ek.constant(3.0)
>>> with ek.GradientTape() as tape:
...     tape.watch([x, y])
...     z = x * x
>>> tape.gradient(z, [x, y], unconnected_gradients=ek.UnconnectedGradients.ZERO)
[<ek.Tensor: shape=(), dtype=float32, numpy=4.0>, <ek.Tensor: shape=(), dtype=float32, numpy=0.0>]
"""

import enum


class _Checked(enum.EnumMeta):
    """``UnconnectedGradients(value)`` refuses what is not text before the Enum's lookup
    (which would compare an array with each name and fail in numpy's words)."""

    def __call__(cls, value, *args, **kwargs):
        if not args and not kwargs and not isinstance(value, str):
            cls._missing_(value)
        return super().__call__(value, *args, **kwargs)


class UnconnectedGradients(str, enum.Enum, metaclass=_Checked):
    """``NONE``: an unconnected source gets ``None``; ``ZERO``: zeros shaped like it."""

    NONE = "none"
    ZERO = "zero"

    def __str__(self):
        return self.value

    def __repr__(self):
        return f"ek.UnconnectedGradients.{self.name}"

    @classmethod
    def _missing_(cls, value):
        """``UnconnectedGradients('zeros')``: an eagerkit error (still a ValueError) naming
        the values there are, instead of the Enum's own words."""
        from eagerkit.arguments import describe
        from eagerkit.errors import InvalidArgumentError

        raise InvalidArgumentError(
            f"UnconnectedGradients: got {describe(value)}; use 'none' or 'zero' "
            "(or ek.UnconnectedGradients.NONE / .ZERO)",
            op="UnconnectedGradients",
        )
