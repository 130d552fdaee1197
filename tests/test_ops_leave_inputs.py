"""No op writes into its inputs: a tensor anyone can still read keeps its value.

Kernels that work in place (``out=``, ``-=``) must own the array they write. A copy that
numpy may skip (``ascontiguousarray`` of an array already in that order, ``astype(copy=
False)``) hands them the input itself instead. So every gradient-check case
(tests/op_cases.py: every differentiable primitive and the composites) runs forwards and
backwards on inputs laid out three ways, C order, Fortran order (a transpose's view) and
every other row of a bigger array (a slice's view), and every input must read the same
afterwards.
"""

import numpy as np
import pytest
from op_cases import cases

import eagerkit as ek

CASES = cases()


def laid_out(array, layout):
    """``array``'s values in C order, Fortran order, or as every other row of a bigger one."""
    if layout != "strided" or array.ndim == 0:
        return np.asarray(array, order=layout[0])
    holder = np.zeros((2 * array.shape[0], *array.shape[1:]), array.dtype)
    holder[::2] = array
    return holder[::2]  # a view with gaps: neither C- nor Fortran-contiguous


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
@pytest.mark.parametrize(("name", "fn", "args"), CASES, ids=[c[0] for c in CASES])
def test_an_op_and_its_gradient_leave_their_inputs_unchanged(name, fn, args, layout):
    with ek.device("/cpu:0"):
        inputs = [ek.constant(laid_out(np.asarray(a), layout)) for a in args]
        before = [np.array(t.numpy(), copy=True) for t in inputs]
        with ek.GradientTape() as tape:
            for t in inputs:
                tape.watch(t)
            out = fn(*inputs)
        tape.gradient(out, inputs)
        for t, value in zip(inputs, before, strict=True):
            np.testing.assert_array_equal(t.numpy(), value)


@pytest.mark.parametrize("classes", [1, 3])
def test_sparse_cross_entropy_leaves_transposed_or_one_class_logits_unchanged(classes):
    """Its table is transposed when there are more rows than classes: a copy it writes in
    place, even where the transpose is already contiguous (one class, a transposed view)."""
    w = ek.constant(np.arange(4.0 * classes, dtype=np.float32).reshape(classes, 4))
    logits = ek.transpose(w)  # (4, classes), a view of w's array
    before = w.numpy().copy()
    loss = ek.nn.sparse_softmax_cross_entropy_with_logits(
        labels=ek.constant([0, classes - 1, 0, classes - 1]), logits=logits
    )
    np.testing.assert_array_equal(w.numpy(), before)
    shifted = before.T - before.T.max(axis=1, keepdims=True)
    expected = np.log(np.exp(shifted).sum(axis=1)) - shifted[[0, 1, 2, 3], [0, classes - 1] * 2]
    np.testing.assert_allclose(loss.numpy(), expected, rtol=1e-6)
