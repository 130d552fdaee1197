"""einsum: contractions written as index equations, e.g. ``'ij,jk->ik'`` is matmul.

The gradient of one operand is itself an einsum: put g where that operand was, and ask
for the operand's letters. For ``'ij,jk->ik'`` the gradient of the first operand is
``'ik,jk->ij'`` of (g, b), which is g @ b^T. A letter only that operand had (``'ij->i'``
sums j away) was summed over, so every entry along it gets the same g: broadcast it back.
A letter repeated in one operand (``'ii->i'``) read its diagonal, so g goes back onto the
diagonal of zeros (``einsum_diagonal_embed``, whose own gradient reads the diagonal again).

The public function first rewrites the equation into one plain form: ``...`` replaced by
letters of their own, the output written out, no spaces. The primitive only sees that form.
"""

import string

from eagerkit.dtypes import NUMERIC
from eagerkit.errors import InvalidArgumentError
from eagerkit.registry import defop
from eagerkit.tensor import convert_to_tensor


@defop("einsum", dtypes=NUMERIC)
def _einsum(xp, *operands, equation):
    # optimize=True lets the library order the contractions and hand pairs to BLAS (matmul):
    # 25x faster than the naive loop for a batched matmul written as an einsum.
    return xp.einsum(equation, *operands, optimize=True)


def _einsum_vjp(i, ops, g, ans, *operands, equation):
    inputs, output = equation.split("->")
    subscripts = inputs.split(",")
    others = [j for j in range(len(operands)) if j != i]
    present = set(output).union(*(subscripts[j] for j in others))
    target = subscripts[i]
    letters = "".join(dict.fromkeys(target))  # each letter once: 'bxby' -> 'bxy'
    kept = "".join(letter for letter in letters if letter in present)
    grad_equation = ",".join([output] + [subscripts[j] for j in others]) + "->" + kept
    grad = ops.einsum(g, *(operands[j] for j in others), equation=grad_equation)
    sizes = dict(zip(target, operands[i].shape, strict=True))
    if kept != letters:  # letters summed away in the forward: broadcast g back along them
        size_one = tuple(sizes[letter] if letter in present else 1 for letter in letters)
        grad = ops.broadcast_to(
            ops.reshape(grad, shape=size_one), shape=tuple(sizes[c] for c in letters)
        )
    if letters != target:  # a repeated letter read a diagonal: g goes back onto it
        grad = ops.einsum_diagonal_embed(grad, letters=letters, target=target)
    return grad


_einsum.defvjp_variadic(_einsum_vjp)


@defop("einsum_diagonal_embed", dtypes=NUMERIC)
def _einsum_diagonal_embed(xp, x, *, letters, target):
    # The inverse view of einsum 'target->letters' (e.g. 'ii->i'): zeros, with x written on
    # the diagonal; x's axes are ``letters``, the output's ``target`` (letters repeated).
    sizes = dict(zip(letters, x.shape, strict=True))
    out = xp.zeros(tuple(sizes[c] for c in target), dtype=x.dtype)
    grid = {
        c: xp.arange(n).reshape([n if d == c else 1 for d in letters]) for c, n in sizes.items()
    }
    out[tuple(grid[c] for c in target)] = x
    return out


# Its VJP reads the diagonal back: einsum 'target->letters', so both stay differentiable.
_einsum_diagonal_embed.defvjp(
    lambda ops, g, ans, x, *, letters, target: ops.einsum(g, equation=f"{target}->{letters}")
)


def _plain_equation(equation, operands):
    """``equation`` with ``...`` spelt out as letters and the output written explicitly.

    Returns the plain equation and the letters that stand for ``...``.
    """
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    subscripts = inputs.split(",")
    if len(subscripts) != len(operands):
        raise InvalidArgumentError(
            f"einsum: the equation {equation!r} names {len(subscripts)} operands but "
            f"{len(operands)} were given; pass one tensor per comma-separated term",
            op="einsum",
        )
    letters = set(equation) - set(".,->")
    if not letters <= set(string.ascii_letters):
        raise InvalidArgumentError(
            f"einsum: subscripts must be letters a-z, A-Z, got {equation!r}", op="einsum"
        )
    # '...' stands for the same broadcast axes everywhere: letters no subscript uses, aligned
    # from the right as broadcasting aligns them.
    spare = [c for c in string.ascii_letters if c not in letters]
    widths = [
        x.ndim - (len(s) - 3) for s, x in zip(subscripts, operands, strict=True) if "..." in s
    ]
    widest = max(widths, default=0)
    batch = "".join(spare[:widest])
    plain = []
    for s, x in zip(subscripts, operands, strict=True):
        if "..." in s:
            s = s.replace("...", batch[widest - (x.ndim - (len(s) - 3)) :])
        if len(s) != x.ndim:
            raise InvalidArgumentError(
                f"einsum: subscripts {s!r} have {len(s)} letters but the operand has shape "
                f"{x.shape} (rank {x.ndim}); use one letter per axis, or '...' for the rest",
                op="einsum",
            )
        plain.append(s)
    if arrow:
        output = output.replace("...", batch)
    else:  # implicit output: the broadcast axes, then letters used once, in order
        counts = "".join(plain)
        output = batch + "".join(
            sorted(c for c in set(counts) - set(batch) if counts.count(c) == 1)
        )
    return ",".join(plain) + "->" + output, batch


def einsum(equation, *inputs, **kwargs):
    """Sum of products over the letters the output leaves out (numpy's and TF's einsum).

    Examples
    --------
    >>> import eagerkit as ek
    >>> a, b = ek.ones([2, 3]), ek.ones([3, 4])
    >>> ek.einsum("ij,jk->ik", a, b).shape  # matmul
    TensorShape([2, 4])
    >>> ek.einsum("...i,...i", [[1.0, 2.0]], [[3.0, 4.0]])  # a batch of dot products
    <ek.Tensor: shape=(1,), dtype=float32, numpy=array([11.], dtype=float32)>
    >>> ek.einsum("ii->i", [[1.0, 2.0], [3.0, 4.0]])  # a letter repeated: the diagonal
    <ek.Tensor: shape=(2,), dtype=float32, numpy=array([1., 4.], dtype=float32)>
    """
    if not isinstance(equation, str):
        raise InvalidArgumentError(
            f"einsum: the first argument must be the equation string, got "
            f"{type(equation).__name__}; call ek.einsum('ij,jk->ik', a, b)",
            op="einsum",
        )
    operands = [convert_to_tensor(x) for x in inputs]
    plain, batch = _plain_equation(equation, operands)
    inputs_part, output = plain.split("->")
    sizes = {}
    for s, x in zip(inputs_part.split(","), operands, strict=True):
        for letter, n in zip(s, x.shape, strict=True):
            # Only the axes under '...' broadcast (size 1 against any size), as in TF.
            if sizes.setdefault(letter, n) != n and not (
                letter in batch and 1 in (n, sizes[letter])
            ):
                raise InvalidArgumentError(
                    f"einsum: letter {letter!r} has size {sizes[letter]} in one operand and "
                    f"{n} in another ({equation!r} with shapes "
                    f"{[tuple(o.shape) for o in operands]}); pass operands whose axes under "
                    f"{letter!r} have the same size, or use another letter for one of them",
                    op="einsum",
                )
    if any(letter not in inputs_part for letter in output):
        raise InvalidArgumentError(
            f"einsum: output letters of {equation!r} must appear in an input", op="einsum"
        )
    return _einsum(*operands, equation=plain)
