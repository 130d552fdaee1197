"""Issue 18's walk over issue 19's tensor kinds: what it found, each as a regression test.

Ragged and sparse operators are inside the error boundary and name the op; fractions and
text where sizes go are refused, not truncated; arguments are named in every message.
"""

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

RT = ek.ragged.constant([[1.0, 2.0], [], [3.0]])
ST = ek.sparse.from_dense([[1.0, 0.0], [0.0, 2.0]])


def test_ragged_operators_name_the_op_and_reflect_as_python_does():
    with pytest.raises(InvalidArgumentError, match=r"RaggedTensor\.logical_and.*np\.float32"):
        ek.ragged.constant([[True], [False]]) & np.float32
    truth = ek.ragged.constant([[True, False], [True]])
    assert (True & truth).to_list() == [[True, False], [True]]  # __rand__ exists, as Tensor's
    assert (2.0 < RT).to_list() == [[False, False], [], [True]]  # Python reflects it to >
    assert not hasattr(ek.RaggedTensor, "__rlt__")  # no operator Python never calls


def test_ragged_and_sparse_have_no_truth_value_and_say_so():
    for value in (RT, ST):
        with pytest.raises(TypeError, match="bool: a .* has no truth value") as caught:
            bool(value)
        assert isinstance(caught.value, InvalidArgumentError)
    with pytest.raises(TypeError, match="not a rectangular array"):
        np.asarray(RT)


@pytest.mark.parametrize("key", [np.int64, np.array([0, 1]), 1.5, True])
def test_ragged_indexing_refuses_what_is_no_index(key):
    with pytest.raises(InvalidArgumentError, match="takes ints and slices"):
        RT[key]


def test_ragged_factories_name_the_argument_that_disagrees():
    with pytest.raises(InvalidArgumentError, match="from row_lengths.*values"):
        ek.RaggedTensor.from_row_lengths([1, 2, 3], [1, 1])
    with pytest.raises(InvalidArgumentError, match="uniform_row_length 2 hold 2 values"):
        ek.RaggedTensor.from_uniform_row_length([1, 2, 3, 4], 2, nrows=1)
    with pytest.raises(InvalidArgumentError, match="new_values"):
        RT.with_values(ek.constant([1.0]))
    with pytest.raises(InvalidArgumentError, match="axis must name a ragged dimension"):
        RT.row_lengths(axis=2)
    with pytest.raises(InvalidArgumentError, match="ek.int32 or ek.int64"):
        RT.with_row_splits_dtype(ek.float32)


def test_sparse_slice_refuses_fractions_instead_of_truncating():
    with pytest.raises(InvalidArgumentError, match="size must be an integer, got float 1.5"):
        ek.sparse.slice(ST, [0, 0], 1.5)
    huge = ek.sparse.slice(ST, [0, 0], [2**70, 2**70])  # past the shape: all of it
    assert ek.sparse.to_dense(huge).numpy().tolist() == [[1.0, 0.0], [0.0, 2.0]]


def test_sparse_ops_name_their_arguments():
    with pytest.raises(InvalidArgumentError, match="sp_input: expected an ek.sparse.SparseTensor"):
        ek.sparse.reorder(ek.ones([2, 2]))
    with pytest.raises(InvalidArgumentError, match="threshold must be a number"):
        ek.sparse.add(ST, ST, threshold="abc")
    with pytest.raises(InvalidArgumentError, match="perm must be a list"):
        ek.sparse.transpose(ST, perm="ab")
    with pytest.raises(InvalidArgumentError, match="sp_inputs must be a non-empty list"):
        ek.sparse.concat(1, [])
    with pytest.raises(InvalidArgumentError, match="new_values must hold one value per index"):
        ST.with_values(ek.constant(1.0))
    empty = ek.sparse.sparse_dense_matmul(ST, ek.zeros([2, 0]))  # no columns: an empty product
    assert empty.shape == (2, 0)


def test_text_ops_check_their_counts_and_encodings():
    with pytest.raises(InvalidArgumentError, match="replacement_char must be an integer"):
        ek.strings.unicode_decode("a", "UTF-8", replacement_char=np.array([1, 2]))
    with pytest.raises(InvalidArgumentError, match="input_encoding is not an encoding"):
        ek.strings.unicode_decode("a", np.array([1.0]))
    with pytest.raises(InvalidArgumentError, match="sep must be a string"):
        ek.strings.split("a b", sep=[1, 2])
    assert ek.strings.split("a b c", maxsplit=2**70).numpy().tolist() == [b"a", b"b", b"c"]
    with pytest.raises(InvalidArgumentError, match="fixed_length must be a byte count"):
        ek.io.decode_raw("ab", ek.uint8, fixed_length=2**63)
    with pytest.raises(InvalidArgumentError, match="input is required"):
        ek.strings.split()


def test_complex_of_shapes_that_do_not_broadcast_says_how_to_line_them_up():
    with pytest.raises(InvalidArgumentError, match=r"\(2, 2\) and \(3,\) do not broadcast"):
        ek.complex(ek.ones([2, 2]), ek.ones([3]))


def test_soft_placement_takes_numpy_bools():
    ek.config.set_soft_device_placement(np.True_)
    assert ek.config.get_soft_device_placement() is True


def test_a_number_for_a_pattern_is_refused_not_made_into_zero_bytes():
    # bytes(2**31) was two billion zero bytes: the walk's census saw it run for minutes
    with pytest.raises(InvalidArgumentError, match="pattern must be a string"):
        ek.strings.regex_replace("a", 2**31, "x")
    with pytest.raises(InvalidArgumentError, match="separator must be a string"):
        ek.strings.join(["a", "b"], separator=2**31)
