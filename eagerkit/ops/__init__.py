"""The primitive ops and their compositions. Importing this package registers them all."""

import warnings

from eagerkit.operators import install_operators
from eagerkit.ops import (  # noqa: F401 - importing registers the primitives
    arithmetic,
    cast,
    classification,
    compare,
    complex,
    conv,
    copy,
    creation,
    cross_entropy,
    decompositions,
    eigh,
    einsum,
    exp_log,
    indexing,
    least_squares,
    linalg,
    math,
    matrix_parts,
    nn,
    pool,
    qr,
    rearrange,
    reduce,
    safe_math,
    scan,
    scatter,
    scatter_extremes,
    searching,
    segment,
    shape,
    sorting,
    special,
    statistics,
    strings,
    svd,
    trig,
)

# Tensor's operators (operators.py names the op each one is) are these public functions.
# ``a @ b`` takes no flags, so it is the primitive's function (fast_dispatch.binary_function),
# not ek.matmul's wrapper, which sorts out transpose_a=, adjoint_b=, ... first.
install_operators(
    {
        **vars(math),
        **vars(compare),
        **vars(linalg),
        **vars(arithmetic),
        "getitem": indexing.getitem,
        "matmul": linalg._matmul,
    }
)

# numpy warns when exp(100.0) overflows float32; TF does not, and enable_check_numerics is
# the tool for catching inf and NaN. Silence those warnings only where kernels run.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"eagerkit\.ops(\.|$)")
