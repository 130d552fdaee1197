"""TF2's guide "Ragged tensors", ported with ``import eagerkit as tf``.

Each test is a section of the guide, its code as written, checking what the guide prints
(``<ek.RaggedTensor ...>`` where TF prints ``<tf.RaggedTensor ...>``, ``ek.Tensor`` for
``tf.Tensor``). Left out, as eagerkit has no such API: ``tf.map_fn`` (the last line of the
first cell), Keras' ``mask_zero`` Embedding and ``tf.strings.to_hash_bucket_fast`` (a
FarmHash fingerprint), ``tf.train.Example`` parsing, ragged datasets, ragged arguments of
``tf.function``, SavedModel, and ``DynamicRaggedShape``.
"""

import pytest

import eagerkit as tf


def _printed(capsys):
    return capsys.readouterr().out.splitlines()


def test_what_you_can_do_with_a_ragged_tensor(capsys):
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    words = tf.ragged.constant([["So", "long"], ["thanks", "for", "all", "the", "fish"]])
    print(tf.add(digits, 3))
    print(tf.reduce_mean(digits, axis=1))
    print(tf.concat([digits, [[5, 3]]], axis=0))
    print(tf.tile(digits, [1, 2]))
    print(tf.strings.substr(words, 0, 2))
    assert _printed(capsys) == [
        "<ek.RaggedTensor [[6, 4, 7, 4], [], [8, 12, 5], [9], []]>",
        "ek.Tensor([2.25              nan 5.33333333 6.                nan], shape=(5,),"
        " dtype=float64)",
        "<ek.RaggedTensor [[3, 1, 4, 1], [], [5, 9, 2], [6], [], [5, 3]]>",
        "<ek.RaggedTensor [[3, 1, 4, 1, 3, 1, 4, 1], [], [5, 9, 2, 5, 9, 2], [6, 6], []]>",
        "<ek.RaggedTensor [[b'So', b'lo'], [b'th', b'fo', b'al', b'th', b'fi']]>",
    ]
    print(digits[0])  # First row
    print(digits[:, :2])  # First two values in each row.
    print(digits[:, -2:])  # Last two values in each row.
    print(digits + 3)
    print(digits + tf.ragged.constant([[1, 2, 3, 4], [], [5, 6, 7], [8], []]))
    times_two_plus_one = lambda x: x * 2 + 1  # noqa: E731 - as the guide writes it
    print(tf.ragged.map_flat_values(times_two_plus_one, digits))
    assert _printed(capsys) == [
        "ek.Tensor([3 1 4 1], shape=(4,), dtype=int32)",
        "<ek.RaggedTensor [[3, 1], [], [5, 9], [6], []]>",
        "<ek.RaggedTensor [[4, 1], [], [9, 2], [6], []]>",
        "<ek.RaggedTensor [[6, 4, 7, 4], [], [8, 12, 5], [9], []]>",
        "<ek.RaggedTensor [[4, 3, 7, 5], [], [10, 15, 9], [14], []]>",
        "<ek.RaggedTensor [[7, 3, 9, 3], [], [11, 19, 5], [13], []]>",
    ]
    assert digits.to_list() == [[3, 1, 4, 1], [], [5, 9, 2], [6], []]
    as_numpy = digits.numpy()
    assert as_numpy.dtype == object and [row.tolist() for row in as_numpy] == digits.to_list()


def test_constructing_a_ragged_tensor(capsys):
    sentences = tf.ragged.constant(
        [
            ["Let's", "build", "some", "ragged", "tensors", "!"],
            ["We", "can", "use", "tf.ragged.constant", "."],
        ]
    )
    print(sentences)
    paragraphs = tf.ragged.constant(
        [
            [["I", "have", "a", "cat"], ["His", "name", "is", "Mat"]],
            [["Do", "you", "want", "to", "come", "visit"], ["I'm", "free", "tomorrow"]],
        ]
    )
    print(paragraphs)
    assert _printed(capsys) == [
        "<ek.RaggedTensor [[b\"Let's\", b'build', b'some', b'ragged', b'tensors', b'!'],",
        " [b'We', b'can', b'use', b'tf.ragged.constant', b'.']]>",
        "<ek.RaggedTensor [[[b'I', b'have', b'a', b'cat'], [b'His', b'name', b'is', b'Mat']],",
        " [[b'Do', b'you', b'want', b'to', b'come', b'visit'],",
        "  [b\"I'm\", b'free', b'tomorrow']]]>",
    ]
    print(
        tf.RaggedTensor.from_value_rowids(
            values=[3, 1, 4, 1, 5, 9, 2], value_rowids=[0, 0, 0, 0, 2, 2, 3]
        )
    )
    print(tf.RaggedTensor.from_row_lengths(values=[3, 1, 4, 1, 5, 9, 2], row_lengths=[4, 0, 2, 1]))
    print(tf.RaggedTensor.from_row_splits(values=[3, 1, 4, 1, 5, 9, 2], row_splits=[0, 4, 4, 6, 7]))
    assert _printed(capsys) == ["<ek.RaggedTensor [[3, 1, 4, 1], [], [5, 9], [2]]>"] * 3


def test_what_you_can_store_in_a_ragged_tensor(capsys):
    print(tf.ragged.constant([["Hi"], ["How", "are", "you"]]))  # ok: type=string, rank=2
    print(tf.ragged.constant([[[1, 2], [3]], [[4, 5]]]))  # ok: type=int32, rank=3
    try:
        tf.ragged.constant([["one", "two"], [3, 4]])  # bad: multiple types
    except ValueError as exception:
        print(exception)
    try:
        tf.ragged.constant(["A", ["B", "C"]])  # bad: multiple nesting depths
    except ValueError as exception:
        print(exception)
    lines = _printed(capsys)
    assert lines[:2] == [
        "<ek.RaggedTensor [[b'Hi'], [b'How', b'are', b'you']]>",
        "<ek.RaggedTensor [[[1, 2], [3]], [[4, 5]]]>",
    ]
    # TF's messages, inside eagerkit's (which name the call and the fix)
    assert "Can't convert Python sequence with mixed types to Tensor" in lines[2]
    assert "all scalar values must have the same nesting depth" in lines[3]


def test_ragged_vs_sparse(capsys):
    assert str(tf.ragged.constant([["Hi"], ["How", "are", "you"]]).shape) == "(2, None)"
    print(tf.ragged.constant([["Hi"], ["How", "are", "you"]]).bounding_shape())
    ragged_x = tf.ragged.constant([["John"], ["a", "big", "dog"], ["my", "cat"]])
    ragged_y = tf.ragged.constant([["fell", "asleep"], ["barked"], ["is", "fuzzy"]])
    print(tf.concat([ragged_x, ragged_y], axis=1))
    sparse_x = ragged_x.to_sparse()
    sparse_y = ragged_y.to_sparse()
    sparse_result = tf.sparse.concat(sp_inputs=[sparse_x, sparse_y], axis=1)
    print(tf.sparse.to_dense(sparse_result, ""))
    assert _printed(capsys) == [
        "ek.Tensor([2 3], shape=(2,), dtype=int64)",
        "<ek.RaggedTensor [[b'John', b'fell', b'asleep'], [b'a', b'big', b'dog', b'barked'],",
        " [b'my', b'cat', b'is', b'fuzzy']]>",
        "ek.Tensor(",
        "[[b'John' b'' b'' b'fell' b'asleep']",
        " [b'a' b'big' b'dog' b'barked' b'']",
        " [b'my' b'cat' b'' b'is' b'fuzzy']], shape=(3, 5), dtype=string)",
    ]


def test_overloaded_operators(capsys):
    x = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    y = tf.ragged.constant([[1, 1], [2], [3, 3, 3]])
    print(x + y)
    x = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    print(x + 3)
    assert _printed(capsys) == [
        "<ek.RaggedTensor [[2, 3], [5], [7, 8, 9]]>",
        "<ek.RaggedTensor [[4, 5], [6], [7, 8, 9]]>",
    ]


def test_indexing(capsys):
    queries = tf.ragged.constant(
        [
            ["Who", "is", "George", "Washington"],
            ["What", "is", "the", "weather", "tomorrow"],
            ["Goodnight"],
        ]
    )
    print(queries[1])  # A single query
    print(queries[1, 2])  # A single word
    print(queries[1:])  # Everything but the first row
    print(queries[:, :3])  # The first 3 words of each query
    print(queries[:, -2:])  # The last 2 words of each query
    assert _printed(capsys) == [
        "ek.Tensor([b'What' b'is' b'the' b'weather' b'tomorrow'], shape=(5,), dtype=string)",
        "ek.Tensor(b'the', shape=(), dtype=string)",
        "<ek.RaggedTensor [[b'What', b'is', b'the', b'weather', b'tomorrow'], [b'Goodnight']]>",
        "<ek.RaggedTensor [[b'Who', b'is', b'George'], [b'What', b'is', b'the'], [b'Goodnight']]>",
        "<ek.RaggedTensor [[b'George', b'Washington'], [b'weather', b'tomorrow'], [b'Goodnight']]>",
    ]
    rt = tf.ragged.constant([[[1, 2, 3], [4]], [[5], [], [6]], [[7]], [[8, 9], [10]]])
    print(rt[1])  # Second row (2D RaggedTensor)
    print(rt[3, 0])  # First element of fourth row (1D Tensor)
    print(rt[:, 1:3])  # Items 1-3 of each row (3D RaggedTensor)
    assert _printed(capsys) == [
        "<ek.RaggedTensor [[5], [], [6]]>",
        "ek.Tensor([8 9], shape=(2,), dtype=int32)",
        "<ek.RaggedTensor [[[4]], [[], [6]], [], [[10]]]>",
    ]
    assert rt[:, -1:].to_list() == [[[4]], [[6]], [[7]], [[10]]]  # Last item of each row


def test_tensor_type_conversion(capsys):
    ragged_sentences = tf.ragged.constant(
        [["Hi"], ["Welcome", "to", "the", "fair"], ["Have", "fun"]]
    )
    # RaggedTensor -> Tensor
    print(ragged_sentences.to_tensor(default_value="", shape=[None, 10]))
    # Tensor -> RaggedTensor
    x = [[1, 3, -1, -1], [2, -1, -1, -1], [4, 5, 8, 9]]
    print(tf.RaggedTensor.from_tensor(x, padding=-1))
    assert _printed(capsys) == [
        "ek.Tensor(",
        "[[b'Hi' b'' b'' b'' b'' b'' b'' b'' b'' b'']",
        " [b'Welcome' b'to' b'the' b'fair' b'' b'' b'' b'' b'' b'']",
        " [b'Have' b'fun' b'' b'' b'' b'' b'' b'' b'' b'']], shape=(3, 10), dtype=string)",
        "<ek.RaggedTensor [[1, 3], [2], [4, 5, 8, 9]]>",
    ]
    # RaggedTensor -> SparseTensor
    sparse = ragged_sentences.to_sparse()
    assert sparse.indices.numpy().tolist() == [
        [0, 0],
        [1, 0],
        [1, 1],
        [1, 2],
        [1, 3],
        [2, 0],
        [2, 1],
    ]
    assert sparse.values.numpy().tolist() == [
        b"Hi",
        b"Welcome",
        b"to",
        b"the",
        b"fair",
        b"Have",
        b"fun",
    ]
    assert sparse.dense_shape.numpy().tolist() == [3, 4]
    # SparseTensor -> RaggedTensor
    st = tf.SparseTensor(
        indices=[[0, 0], [2, 0], [2, 1]], values=["a", "b", "c"], dense_shape=[3, 3]
    )
    print(tf.RaggedTensor.from_sparse(st))
    assert _printed(capsys)[-1] == "<ek.RaggedTensor [[b'a'], [], [b'b', b'c']]>"


def test_evaluating_ragged_tensors(capsys):
    rt = tf.ragged.constant([[1, 2], [3, 4, 5], [6], [], [7]])
    print("Python list:", rt.to_list())
    print("Values:", rt.values.numpy())
    print("Splits:", rt.row_splits.numpy())
    print("Indexed value:", rt[1].numpy())
    assert _printed(capsys) == [
        "Python list: [[1, 2], [3, 4, 5], [6], [], [7]]",
        "Values: [1 2 3 4 5 6 7]",
        "Splits: [0 2 5 6 6 7]",
        "Indexed value: [3 4 5]",
    ]
    assert [row.tolist() for row in rt.numpy()] == rt.to_list()


def test_static_shape():
    x = tf.constant([[1, 2], [3, 4], [5, 6]])
    assert x.shape == tf.TensorShape([3, 2])
    rt = tf.ragged.constant([[1], [2, 3], [], [4]])
    assert rt.shape.as_list() == [4, None]


def test_broadcasting(capsys):
    x = tf.ragged.constant([[1, 2], [3]])
    y = 3
    print(x + y)
    x = tf.ragged.constant([[10, 87, 12], [19, 53], [12, 32]])
    y = [[1000], [2000], [3000]]
    print(x + y)
    x = tf.ragged.constant([[[1, 2], [3, 4], [5, 6]], [[7, 8]]], ragged_rank=1)
    y = tf.constant([[10]])
    print(x + y)
    x = tf.ragged.constant([[[[1], [2]], [], [[3]], [[4]]], [[[5], [6]], [[7]]]], ragged_rank=2)
    y = tf.constant([10, 20, 30])
    print(x + y)
    assert _printed(capsys) == [
        "<ek.RaggedTensor [[4, 5], [6]]>",
        "<ek.RaggedTensor [[1010, 1087, 1012], [2019, 2053], [3012, 3032]]>",
        "<ek.RaggedTensor [[[11, 12],",
        "  [13, 14],",
        "  [15, 16]], [[17, 18]]]>",
        "<ek.RaggedTensor [[[[11, 21, 31],",
        "   [12, 22, 32]], [], [[13, 23, 33]], [[14, 24, 34]]],",
        " [[[15, 25, 35],",
        "   [16, 26, 36]], [[17, 27, 37]]]]>",
    ]


@pytest.mark.parametrize(
    ("x", "y"),
    [
        # trailing dimensions do not match
        ([[1, 2], [3, 4, 5, 6], [7]], [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]),
        # ragged dimensions do not match
        ([[1, 2, 3], [4], [5, 6]], "ragged [[10, 20], [30, 40], [50]]"),
        # trailing dimensions do not match (3d ragged)
        (
            [[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10]]],
            "ragged [[[1, 2, 0], [3, 4, 0], [5, 6, 0]], [[7, 8, 0], [9, 10, 0]]]",
        ),
    ],
)
def test_broadcasting_errors(x, y):
    x = tf.ragged.constant(x)
    if isinstance(y, str):
        y = tf.ragged.constant(eval(y.removeprefix("ragged ")))  # noqa: S307 - a literal
    else:
        y = tf.constant(y)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unable to broadcast"):
        x + y


def test_ragged_tensor_encoding(capsys):
    rt = tf.RaggedTensor.from_row_splits(values=[3, 1, 4, 1, 5, 9, 2], row_splits=[0, 4, 4, 6, 7])
    print(rt)
    rt = tf.RaggedTensor.from_row_splits(
        values=tf.RaggedTensor.from_row_splits(
            values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19], row_splits=[0, 3, 3, 5, 9, 10]
        ),
        row_splits=[0, 1, 1, 5],
    )
    print(rt)
    print("Shape: {}".format(rt.shape))
    print("Number of partitioned dimensions: {}".format(rt.ragged_rank))
    rt = tf.RaggedTensor.from_nested_row_splits(
        flat_values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
        nested_row_splits=([0, 1, 1, 5], [0, 3, 3, 5, 9, 10]),
    )
    print(rt)
    assert _printed(capsys) == [
        "<ek.RaggedTensor [[3, 1, 4, 1], [], [5, 9], [2]]>",
        "<ek.RaggedTensor [[[10, 11, 12]], [], [[], [13, 14], [15, 16, 17, 18], [19]]]>",
        "Shape: (3, None, None)",
        "Number of partitioned dimensions: 2",
        "<ek.RaggedTensor [[[10, 11, 12]], [], [[], [13, 14], [15, 16, 17, 18], [19]]]>",
    ]


def test_ragged_rank_and_flat_values(capsys):
    # shape = [batch, (paragraph), (sentence), (word)]
    conversations = tf.ragged.constant(
        [
            [
                [["I", "like", "ragged", "tensors."]],
                [["Oh", "yeah?"], ["What", "can", "you", "use", "them", "for?"]],
                [["Processing", "variable", "length", "data!"]],
            ],
            [[["I", "like", "cheese."], ["Do", "you?"]], [["Yes."], ["I", "do."]]],
        ]
    )
    assert conversations.shape.as_list() == [2, None, None, None]
    assert conversations.ragged_rank == len(conversations.nested_row_splits)
    assert conversations.ragged_rank == 3  # Number of partitioned dimensions.
    assert conversations.flat_values.numpy().tolist()[:4] == [b"I", b"like", b"ragged", b"tensors."]
    assert len(conversations.flat_values.numpy()) == 24


def test_uniform_inner_dimensions(capsys):
    rt = tf.RaggedTensor.from_row_splits(
        values=[[1, 3], [0, 0], [1, 3], [5, 3], [3, 3], [1, 2]], row_splits=[0, 3, 4, 6]
    )
    print(rt)
    print("Shape: {}".format(rt.shape))
    print("Number of partitioned dimensions: {}".format(rt.ragged_rank))
    print("Flat values shape: {}".format(rt.flat_values.shape))
    print("Flat values:\n{}".format(rt.flat_values))
    assert _printed(capsys) == [
        "<ek.RaggedTensor [[[1, 3],",
        "  [0, 0],",
        "  [1, 3]], [[5, 3]], [[3, 3],",
        "                      [1, 2]]]>",
        "Shape: (3, None, 2)",
        "Number of partitioned dimensions: 1",
        "Flat values shape: (6, 2)",
        "Flat values:",
        "[[1 3]",
        " [0 0]",
        " [1 3]",
        " [5 3]",
        " [3 3]",
        " [1 2]]",
    ]


def test_uniform_non_inner_dimensions(capsys):
    rt = tf.RaggedTensor.from_uniform_row_length(
        values=tf.RaggedTensor.from_row_splits(
            values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19], row_splits=[0, 3, 5, 9, 10]
        ),
        uniform_row_length=2,
    )
    print(rt)
    assert _printed(capsys) == [
        "<ek.RaggedTensor [[[10, 11, 12], [13, 14]],",
        " [[15, 16, 17, 18], [19]]]>",
    ]
    # TF's shape keeps the uniform length, (2, 2, None); here every partition is by splits
    assert rt.shape.as_list() == [2, None, None] and rt.ragged_rank == 2
