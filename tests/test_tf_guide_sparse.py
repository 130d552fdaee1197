"""TF2's guide "Working with sparse tensors", ported with ``import eagerkit as tf``.

Each test is a section of the guide, its code as written, checking what the guide prints
(``ek.Tensor`` where TF prints ``tf.Tensor``). Left out, as eagerkit has no such API:
sparse Keras inputs, datasets of SparseTensors and SparseTensor arguments of
``tf.function``.
"""

import eagerkit as tf


def _printed(capsys):
    return capsys.readouterr().out.splitlines()


def pprint_sparse_tensor(st):
    s = "<SparseTensor shape=%s \n values={" % (st.dense_shape.numpy().tolist(),)
    for index, value in zip(st.indices, st.values):
        s += f"\n  %s: %s" % (index.numpy().tolist(), value.numpy().tolist())  # noqa: F541
    return s + "}>"


def test_creating_a_sparse_tensor(capsys):
    st1 = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]], values=[10, 20], dense_shape=[3, 10])
    print(st1)
    print(pprint_sparse_tensor(st1))
    assert _printed(capsys) == [
        "SparseTensor(indices=ek.Tensor(",
        "[[0 3]",
        " [2 4]], shape=(2, 2), dtype=int64), values=ek.Tensor([10 20], shape=(2,), "
        "dtype=int32), dense_shape=ek.Tensor([ 3 10], shape=(2,), dtype=int64))",
        "<SparseTensor shape=[3, 10] ",
        " values={",
        "  [0, 3]: 10",
        "  [2, 4]: 20}>",
    ]
    st2 = tf.sparse.from_dense([[1, 0, 0, 8], [0, 0, 0, 0], [0, 0, 3, 0]])
    print(pprint_sparse_tensor(st2))
    st3 = tf.sparse.to_dense(st2)
    print(st3)
    assert _printed(capsys) == [
        "<SparseTensor shape=[3, 4] ",
        " values={",
        "  [0, 0]: 1",
        "  [0, 3]: 8",
        "  [2, 2]: 3}>",
        "ek.Tensor(",
        "[[1 0 0 8]",
        " [0 0 0 0]",
        " [0 0 3 0]], shape=(3, 4), dtype=int32)",
    ]


def test_manipulating_sparse_tensors(capsys):
    st_a = tf.sparse.SparseTensor(indices=[[0, 2], [3, 4]], values=[31, 2], dense_shape=[4, 10])
    st_b = tf.sparse.SparseTensor(indices=[[0, 2], [3, 0]], values=[56, 38], dense_shape=[4, 10])
    st_sum = tf.sparse.add(st_a, st_b)
    print(pprint_sparse_tensor(st_sum))
    assert _printed(capsys) == [
        "<SparseTensor shape=[4, 10] ",
        " values={",
        "  [0, 2]: 87",
        "  [3, 0]: 38",
        "  [3, 4]: 2}>",
    ]
    st_c = tf.sparse.SparseTensor(
        indices=([0, 1], [1, 0], [1, 1]), values=[13, 15, 17], dense_shape=(2, 2)
    )
    mb = tf.constant([[4], [6]])
    product = tf.sparse.sparse_dense_matmul(st_c, mb)
    print(product)
    assert _printed(capsys) == ["ek.Tensor(", "[[ 78]", " [162]], shape=(2, 1), dtype=int32)"]


def test_concat_and_slice(capsys):
    sparse_pattern_A = tf.sparse.SparseTensor(
        indices=[[2, 4], [3, 3], [3, 4], [4, 3], [4, 4], [5, 4]],
        values=[1, 1, 1, 1, 1, 1],
        dense_shape=[8, 5],
    )
    sparse_pattern_B = tf.sparse.SparseTensor(
        indices=[
            [0, 2],
            [1, 1],
            [1, 3],
            [2, 0],
            [2, 4],
            [2, 5],
            [3, 5],
            [4, 5],
            [5, 0],
            [5, 4],
            [5, 5],
            [6, 1],
            [6, 3],
            [7, 2],
        ],
        values=[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        dense_shape=[8, 6],
    )
    sparse_pattern_C = tf.sparse.SparseTensor(
        indices=[[3, 0], [4, 0]], values=[1, 1], dense_shape=[8, 6]
    )
    sparse_patterns_list = [sparse_pattern_A, sparse_pattern_B, sparse_pattern_C]
    sparse_pattern = tf.sparse.concat(axis=1, sp_inputs=sparse_patterns_list)
    print(tf.sparse.to_dense(sparse_pattern))
    assert _printed(capsys) == [
        "ek.Tensor(",
        "[[0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0]",
        " [0 0 0 0 0 0 1 0 1 0 0 0 0 0 0 0 0]",
        " [0 0 0 0 1 1 0 0 0 1 1 0 0 0 0 0 0]",
        " [0 0 0 1 1 0 0 0 0 0 1 1 0 0 0 0 0]",
        " [0 0 0 1 1 0 0 0 0 0 1 1 0 0 0 0 0]",
        " [0 0 0 0 1 1 0 0 0 1 1 0 0 0 0 0 0]",
        " [0 0 0 0 0 0 1 0 1 0 0 0 0 0 0 0 0]",
        " [0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0]], shape=(8, 17), dtype=int32)",
    ]
    sparse_slice_A = tf.sparse.slice(sparse_pattern_A, start=[0, 0], size=[8, 5])
    sparse_slice_B = tf.sparse.slice(sparse_pattern_B, start=[0, 5], size=[8, 6])
    sparse_slice_C = tf.sparse.slice(sparse_pattern_C, start=[0, 10], size=[8, 6])
    assert (
        tf.sparse.to_dense(sparse_slice_A).numpy().tolist()
        == tf.sparse.to_dense(sparse_pattern_A).numpy().tolist()
    )
    assert tf.sparse.to_dense(sparse_slice_B).numpy().tolist() == [
        [0],
        [0],
        [1],
        [1],
        [1],
        [1],
        [0],
        [0],
    ]
    assert tf.sparse.to_dense(sparse_slice_C).shape == (8, 0)  # the slice starts past its end


def test_elementwise_operations_on_nonzero_values(capsys):
    st2 = tf.sparse.from_dense([[1, 0, 0, 8], [0, 0, 0, 0], [0, 0, 3, 0]])
    st2_plus_5 = tf.sparse.map_values(tf.add, st2, 5)
    print(tf.sparse.to_dense(st2_plus_5))
    st2_plus_5 = tf.sparse.SparseTensor(st2.indices, st2.values + 5, st2.dense_shape)
    print(tf.sparse.to_dense(st2_plus_5))
    assert (
        _printed(capsys)
        == [
            "ek.Tensor(",
            "[[ 6  0  0 13]",
            " [ 0  0  0  0]",
            " [ 0  0  8  0]], shape=(3, 4), dtype=int32)",
        ]
        * 2
    )


def test_distinguishing_missing_values_from_zero_values(capsys):
    print(tf.sparse.reduce_max(tf.sparse.from_dense([-5, 0, -3])))
    print(tf.math.reduce_max([-5, 0, -3]))
    assert _printed(capsys) == [
        "ek.Tensor(-3, shape=(), dtype=int32)",
        "ek.Tensor(0, shape=(), dtype=int32)",
    ]


def test_sparse_dense_matmul_like_the_function_example(capsys):
    # The guide's tf.function cell, called eagerly.
    def f(x, y):
        return tf.sparse.sparse_dense_matmul(x, y)

    a = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]], values=[15, 25], dense_shape=[3, 10])
    b = tf.sparse.to_dense(tf.sparse.transpose(a))
    c = f(a, b)
    print(c)
    assert _printed(capsys) == [
        "ek.Tensor(",
        "[[225   0   0]",
        " [  0   0   0]",
        " [  0   0 625]], shape=(3, 3), dtype=int32)",
    ]
