"""Shape-changing ops inside ek.function with relaxed shapes (reduce_retracing=True): one
trace serves every batch size, so no op may bake the traced batch size into its parameters
(a reshape to the first trace's sizes failed, or was silently wrong, from the third call).
Each op runs on batches of 2, 3 and 5 rows and must give what it gives eagerly."""

import numpy as np
import pytest

import eagerkit as ek

# Every shape-changing op, as a function of a [batch, 3] float32 tensor x.
OPS = {
    "reshape -1": lambda x: ek.reshape(x, [-1]),
    "reshape -1, 3": lambda x: ek.reshape(x, [-1, 3]),
    "expand_dims 0": lambda x: ek.expand_dims(x, 0),
    "expand_dims 1": lambda x: ek.expand_dims(x, 1),
    "expand_dims -1": lambda x: ek.expand_dims(x, -1),
    "squeeze": lambda x: ek.squeeze(ek.expand_dims(x, 1)),
    "squeeze axis": lambda x: ek.squeeze(ek.expand_dims(x, -1), axis=[-1]),
    "transpose": lambda x: ek.transpose(x),
    "concat 0": lambda x: ek.concat([x, x], 0),
    "concat 1": lambda x: ek.concat([x, x], 1),
    "stack": lambda x: ek.stack([x, x], 1),
    "tile": lambda x: ek.tile(x, [2, 1]),
    "pad": lambda x: ek.pad(x, [[1, 0], [0, 2]]),
    "reverse": lambda x: ek.reverse(x, [0]),
    "gather": lambda x: ek.gather(x, [0, 2], axis=1),
    "gather batch_dims": lambda x: ek.gather(
        x, ek.cast(x[:, :2] % 3, ek.int32), axis=1, batch_dims=1
    ),
    "gather batch_dims, 2-D indices": lambda x: ek.gather(
        x, ek.cast(ek.reshape(x % 3, [-1, 1, 3]), ek.int32), axis=1, batch_dims=1
    ),
    "getitem": lambda x: x[:, :2],
    "getitem newaxis": lambda x: x[:, None],
    "slice": lambda x: ek.slice(x, [0, 1], [-1, 2]),
    "reduce_sum keepdims": lambda x: ek.reduce_sum(x, 1, keepdims=True),
    "reduce_logsumexp": lambda x: ek.reduce_logsumexp(x, 1),
    "one_hot": lambda x: ek.one_hot(ek.argmax(x, 1), 3),
    "matmul": lambda x: ek.matmul(x, x, transpose_b=True),
    "top_k": lambda x: ek.math.top_k(x, 2).values,
    "sort": lambda x: ek.sort(x, axis=0),
    "cumsum": lambda x: ek.cumsum(x, 0),
    "roll": lambda x: ek.roll(x, 1, 0),
    "ones_like": lambda x: ek.ones_like(x) + x,
    "softmax": lambda x: ek.nn.softmax(x, axis=0),
    "moments": lambda x: ek.nn.moments(x, [0])[1],
    "l2_normalize": lambda x: ek.nn.l2_normalize(x, 0),
    "broadcast": lambda x: x + ek.reduce_mean(x, 0),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_one_relaxed_trace_serves_every_batch_size(name):
    op = OPS[name]
    traced = ek.function(op, reduce_retracing=True)
    for rows in (2, 3, 5):
        x = ek.constant(np.arange(rows * 3, dtype=np.float32).reshape(rows, 3) % 4)
        got, want = traced(x), op(x)
        assert got.shape == want.shape, (name, rows)
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, err_msg=name)
    assert traced.experimental_get_tracing_count() <= 2  # the relaxed trace was reused


def test_expand_dims_and_squeeze_keep_their_gradients():
    x = ek.Variable(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    with ek.GradientTape() as tape:
        y = ek.reduce_sum(ek.squeeze(ek.expand_dims(x, 1) * 2.0, axis=1) * x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 4 * x.numpy())
