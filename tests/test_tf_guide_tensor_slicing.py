"""TF2's guide "Introduction to tensor slicing", ported with ``import eagerkit as tf``.

Each test is a section of the guide, its code as written, checking what the guide prints
(``ek.Tensor`` where TF prints ``tf.Tensor``), plus the ``tf.gather`` and
``tf.tensor_scatter_nd_update`` examples of their API pages and the gradients a tape takes
through gather and scatter. ``tf.strided_slice``, which the guide names without an
example, runs the slice the guide writes as ``t1[::3]`` (tests/test_strided_slice.py has the
rest). Left out: ``tf.experimental.numpy.take_along_axis`` and ``take`` (the guide's further
reading), as eagerkit has no ``tf.experimental``.
"""

import numpy as np
import pytest

import eagerkit as tf
from eagerkit.errors import InvalidArgumentError


def _printed(capsys):
    return capsys.readouterr().out.splitlines()


t1 = tf.constant([0, 1, 2, 3, 4, 5, 6, 7])
t2 = tf.constant([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14], [15, 16, 17, 18, 19]])


def test_extract_tensor_slices(capsys):
    print(tf.slice(t1, begin=[1], size=[3]))
    print(t1[1:4])
    print(t1[-3:])
    print(t2[:-1, 1:3])
    t3 = tf.constant([[[1, 3, 5, 7], [9, 11, 13, 15]], [[17, 19, 21, 23], [25, 27, 29, 31]]])
    print(tf.slice(t3, begin=[1, 1, 0], size=[1, 1, 2]))
    assert _printed(capsys) == [
        "ek.Tensor([1 2 3], shape=(3,), dtype=int32)",
        "ek.Tensor([1 2 3], shape=(3,), dtype=int32)",
        "ek.Tensor([5 6 7], shape=(3,), dtype=int32)",
        "ek.Tensor(",
        "[[ 1  2]",
        " [ 6  7]",
        " [11 12]], shape=(3, 2), dtype=int32)",
        "ek.Tensor([[[25 27]]], shape=(1, 1, 2), dtype=int32)",
    ]


def test_gather_picks_indices_of_one_axis(capsys):
    print(tf.gather(t1, indices=[0, 3, 6]))
    print(t1[::3])  # "similar to": the same elements, as a strided slice
    print(tf.strided_slice(t1, begin=[0], end=[8], strides=[3]))
    alphabet = tf.constant(list("abcdefghijklmnopqrstuvwxyz"))
    print(tf.gather(alphabet, indices=[2, 0, 19, 18]))
    assert _printed(capsys) == [
        "ek.Tensor([0 3 6], shape=(3,), dtype=int32)",
        "ek.Tensor([0 3 6], shape=(3,), dtype=int32)",
        "ek.Tensor([0 3 6], shape=(3,), dtype=int32)",
        "ek.Tensor([b'c' b'a' b't' b's'], shape=(4,), dtype=string)",
    ]


def test_gather_nd_picks_across_several_axes(capsys):
    t4 = tf.constant([[0, 5], [1, 6], [2, 7], [3, 8], [4, 9]])
    print(tf.gather_nd(t4, indices=[[2], [3], [0]]))
    t5 = np.reshape(np.arange(18), [2, 3, 3])  # numpy's int64 stays int64, as in TF
    print(tf.gather_nd(t5, indices=[[0, 0, 0], [1, 2, 1]]))
    print(tf.gather_nd(t5, indices=[[[0, 0], [0, 2]], [[1, 0], [1, 2]]]))  # two matrices
    print(tf.gather_nd(t5, indices=[[0, 0], [0, 2], [1, 0], [1, 2]]))  # one matrix
    assert _printed(capsys) == [
        "ek.Tensor(",
        "[[2 7]",
        " [3 8]",
        " [0 5]], shape=(3, 2), dtype=int32)",
        "ek.Tensor([ 0 16], shape=(2,), dtype=int64)",
        "ek.Tensor(",
        "[[[ 0  1  2]",
        "  [ 6  7  8]]",
        "",
        " [[ 9 10 11]",
        "  [15 16 17]]], shape=(2, 2, 3), dtype=int64)",
        "ek.Tensor(",
        "[[ 0  1  2]",
        " [ 6  7  8]",
        " [ 9 10 11]",
        " [15 16 17]], shape=(4, 3), dtype=int64)",
    ]


def test_scatter_nd_inserts_into_zeros(capsys):
    t6 = tf.constant([10])
    indices = tf.constant([[1], [3], [5], [7], [9]])
    data = tf.constant([2, 4, 6, 8, 10])
    print(tf.scatter_nd(indices=indices, updates=data, shape=t6))
    assert _printed(capsys) == [
        "ek.Tensor([ 0  2  0  4  0  6  0  8  0 10], shape=(10,), dtype=int32)"
    ]


def test_gather_nd_and_scatter_nd_mimic_a_sparse_tensor(capsys):
    new_indices = tf.constant([[0, 2], [2, 1], [3, 3]])
    t7 = tf.gather_nd(t2, indices=new_indices)
    t8 = tf.scatter_nd(indices=new_indices, updates=t7, shape=tf.constant([4, 5]))
    print(t8)
    t9 = tf.SparseTensor(indices=[[0, 2], [2, 1], [3, 3]], values=[2, 11, 18], dense_shape=[4, 5])
    print(t9)
    t10 = tf.sparse.to_dense(t9)
    print(t10)
    dense = [
        "[[ 0  0  2  0  0]",
        " [ 0  0  0  0  0]",
        " [ 0 11  0  0  0]",
        " [ 0  0  0 18  0]], shape=(4, 5), dtype=int32)",
    ]
    assert _printed(capsys) == [
        "ek.Tensor(",
        *dense,
        "SparseTensor(indices=ek.Tensor(",
        "[[0 2]",
        " [2 1]",
        " [3 3]], shape=(3, 2), dtype=int64), values=ek.Tensor([ 2 11 18], shape=(3,), "
        "dtype=int32), dense_shape=ek.Tensor([4 5], shape=(2,), dtype=int64))",
        "ek.Tensor(",
        *dense,
    ]


t11 = tf.constant([[2, 7, 0], [9, 0, 1], [0, 3, 8]])
t14 = tf.constant([[-2, -7, 0], [-9, 0, 1], [0, -3, -8]])


def test_tensor_scatter_nd_add_and_sub(capsys):
    # A magic square, then the identity matrix
    t12 = tf.tensor_scatter_nd_add(t11, indices=[[0, 2], [1, 1], [2, 0]], updates=[6, 5, 4])
    print(t12)
    t13 = tf.tensor_scatter_nd_sub(
        t11,
        indices=[[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [2, 1], [2, 2]],
        updates=[1, 7, 9, -1, 1, 3, 7],
    )
    print(t13)
    assert _printed(capsys) == [
        "ek.Tensor(",
        "[[2 7 6]",
        " [9 5 1]",
        " [4 3 8]], shape=(3, 3), dtype=int32)",
        "ek.Tensor(",
        "[[1 0 0]",
        " [0 1 0]",
        " [0 0 1]], shape=(3, 3), dtype=int32)",
    ]


def test_tensor_scatter_nd_min_and_max(capsys):
    t15 = tf.tensor_scatter_nd_min(t14, indices=[[0, 2], [1, 1], [2, 0]], updates=[-6, -5, -4])
    print(t15)
    t16 = tf.tensor_scatter_nd_max(t14, indices=[[0, 2], [1, 1], [2, 0]], updates=[6, 5, 4])
    print(t16)
    assert _printed(capsys) == [
        "ek.Tensor(",
        "[[-2 -7 -6]",
        " [-9 -5  1]",
        " [-4 -3 -8]], shape=(3, 3), dtype=int32)",
        "ek.Tensor(",
        "[[-2 -7  6]",
        " [-9  5  1]",
        " [ 4 -3 -8]], shape=(3, 3), dtype=int32)",
    ]


def test_tensor_scatter_nd_min_and_max_with_repeated_indices_and_slices():
    # Every update aimed at a slice takes part; a slice no index names stays as it was.
    tensor = tf.constant([[5.0, 5.0], [5.0, 5.0], [-np.inf, np.nan]])
    rows, updates = [[0], [0], [1]], [[7.0, 1.0], [3.0, 9.0], [6.0, 4.0]]
    assert tf.tensor_scatter_nd_max(tensor, rows, updates).numpy()[:2].tolist() == [
        [7.0, 9.0],
        [6.0, 5.0],
    ]
    minimum = tf.tensor_scatter_nd_min(tensor, rows, updates).numpy()
    assert minimum[:2].tolist() == [[3.0, 1.0], [5.0, 4.0]]
    assert minimum[2, 0] == -np.inf and np.isnan(minimum[2, 1])
    with pytest.raises(InvalidArgumentError, match=r"tensor_scatter_nd_max: updates must have"):
        tf.tensor_scatter_nd_max(tensor, rows, [1.0, 2.0, 3.0])
    with pytest.raises(InvalidArgumentError, match=r"tensor_scatter_nd_min: indices\[0\]"):
        tf.tensor_scatter_nd_min(tensor, [[3]], [[1.0, 1.0]])


def test_the_api_pages_gather_along_an_axis_and_in_batches(capsys):
    params = tf.constant(["p0", "p1", "p2", "p3", "p4", "p5"])
    print(repr(params[3].numpy()), repr(tf.gather(params, 3).numpy()))
    print(tf.gather(params, [[2, 0], [2, 5]]).numpy().tolist())
    numbers = tf.constant(
        [[0, 1.0, 2.0], [10.0, 11.0, 12.0], [20.0, 21.0, 22.0], [30.0, 31.0, 32.0]]
    )
    print(tf.gather(numbers, indices=[3, 1]).numpy().tolist())
    print(tf.gather(numbers, indices=[2, 1], axis=1).numpy().tolist())
    batched = tf.gather(tf.constant([[1, 2, 3], [4, 5, 6]]), [[2, 0], [1, 1]], batch_dims=1)
    print(batched.numpy().tolist())
    assert _printed(capsys) == [
        "b'p3' b'p3'",
        "[[b'p2', b'p0'], [b'p2', b'p5']]",
        "[[30.0, 31.0, 32.0], [10.0, 11.0, 12.0]]",
        "[[2.0, 1.0], [12.0, 11.0], [22.0, 21.0], [32.0, 31.0]]",
        "[[3, 1], [5, 5]]",
    ]


def test_the_api_page_updates_slices_with_tensor_scatter_nd_update():
    tensor = [0, 0, 0, 0, 0, 0, 0, 0]
    updated = tf.tensor_scatter_nd_update(tensor, [[1], [3], [4], [7]], [9, 10, 11, 12])
    assert updated.numpy().tolist() == [0, 9, 0, 10, 11, 0, 0, 12]
    blocks = tf.tensor_scatter_nd_update(tf.zeros([4, 2]), [[0], [2]], [[5.0, 5.0], [6.0, 6.0]])
    assert blocks.numpy().tolist() == [[5, 5], [0, 0], [6, 6], [0, 0]]
    assert tf.boolean_mask(t1, t1 % 2 == 0).numpy().tolist() == [0, 2, 4, 6]


def test_gradients_flow_through_gather_and_scatter():
    params = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape() as tape:
        picked = tf.gather(params, [2, 0, 2])  # row 2 twice: its gradient adds up
        inserted = tf.scatter_nd([[1], [0]], picked[:2, 0], [4])
        loss = tf.reduce_sum(picked) + tf.reduce_sum(inserted * [10.0, 20.0, 30.0, 40.0])
    grad = tape.gradient(loss, params)
    # gather's gradient arrives as IndexedSlices in TF; densified it is the same numbers
    assert tf.convert_to_tensor(grad).numpy().tolist() == [[11.0, 1.0], [0.0, 0.0], [22.0, 2.0]]
    tensor, updates = tf.constant([[2.0, 7.0], [9.0, 1.0]]), tf.constant([8.0, 8.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([tensor, updates])
        biggest = tf.tensor_scatter_nd_max(tensor, [[0, 0], [1, 0]], updates)
        replaced = tf.tensor_scatter_nd_update(tensor, [[0, 1]], updates[:1])
    grads = tape.gradient(biggest, [tensor, updates])
    assert [g.numpy().tolist() for g in grads] == [[[0.0, 1.0], [1.0, 1.0]], [1.0, 0.0]]
    grads = tape.gradient(replaced, [tensor, updates])
    assert [g.numpy().tolist() for g in grads] == [[[1.0, 0.0], [1.0, 1.0]], [1.0, 0.0]]
