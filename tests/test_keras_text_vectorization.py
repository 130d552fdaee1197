"""TextVectorization against a plain-Python reference on generated texts (standardize,
split, n-grams, adapt's order, every output mode), in the places it is used, and its
errors (nothing changes after one)."""

import collections
import re
import string

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.keras import layers

WORDS = st.sampled_from(["The", "cat", "SAT", "on", "the", "mat", "a", "Dog", "ran", "é"])
PUNCTUATION = st.sampled_from(["", ",", "!", ".", "?", "'s", ":"])
TEXTS = st.lists(
    st.lists(st.tuples(WORDS, PUNCTUATION).map("".join), max_size=6).map(" ".join),
    min_size=1,
    max_size=5,
)


def reference_tokens(text, ngrams=None):
    """Keras' defaults by hand: lower case, ASCII punctuation out, split at whitespace."""
    words = re.sub(f"[{re.escape(string.punctuation)}]", "", text.lower()).split()
    if ngrams is None:
        return words
    return [
        " ".join(words[i : i + n]) for n in range(1, ngrams + 1) for i in range(len(words) - n + 1)
    ]


def reference_vocabulary(texts, ngrams=None):
    counts = collections.Counter(
        t.encode() for text in texts for t in reference_tokens(text, ngrams)
    )
    return [t.decode() for t in sorted(counts, key=lambda t: (counts[t], t), reverse=True)]


@settings(max_examples=40, deadline=None)
@given(train=TEXTS, test=TEXTS, length=st.one_of(st.none(), st.integers(1, 5)))
def test_int_mode_matches_the_reference(train, test, length):
    layer = layers.TextVectorization(output_sequence_length=length)
    if not any(reference_tokens(t) for t in train):
        with pytest.raises(InvalidArgumentError, match="no words"):
            layer.adapt(train)
        return
    layer.adapt(ek.data.Dataset.from_tensor_slices(train).batch(2))
    vocabulary = reference_vocabulary(train)
    assert layer.get_vocabulary() == ["", "[UNK]"] + vocabulary
    rows = [
        [2 + vocabulary.index(t) if t in vocabulary else 1 for t in reference_tokens(x)]
        for x in test
    ]
    width = length if length is not None else max(len(r) for r in rows)
    expected = [(r + [0] * width)[:width] for r in rows]
    got = layer(ek.constant(test)).numpy()
    assert got.dtype == np.int64 and got.tolist() == expected


@settings(max_examples=30, deadline=None)
@given(
    train=TEXTS,
    test=TEXTS,
    mode=st.sampled_from(["multi_hot", "count"]),
    ngrams=st.one_of(st.none(), st.integers(1, 3)),
    max_tokens=st.one_of(st.none(), st.integers(2, 8)),
)
def test_counting_modes_match_the_reference(train, test, mode, ngrams, max_tokens):
    layer = layers.TextVectorization(output_mode=mode, ngrams=ngrams, max_tokens=max_tokens)
    vocabulary = reference_vocabulary(train, ngrams)
    if not vocabulary:
        return
    layer.adapt(train)
    if max_tokens is not None:
        vocabulary = vocabulary[: max_tokens - 1]
    assert layer.get_vocabulary() == ["[UNK]"] + vocabulary
    expected = np.zeros((len(test), len(vocabulary) + 1), np.float32)
    for row, text in enumerate(test):
        for token in reference_tokens(text, ngrams):
            expected[row, 1 + vocabulary.index(token) if token in vocabulary else 0] += 1
    if mode == "multi_hot":
        expected = np.minimum(expected, 1)
    np.testing.assert_array_equal(layer(ek.constant(test)).numpy(), expected)


def test_the_other_standardize_and_split_options():
    text = ek.constant(["Hello, World! ab"])
    lower = layers.TextVectorization(standardize="lower", split=None, vocabulary=["x"])
    assert lower._token_rows(text.numpy(), "t") == [["hello, world! ab"]]
    strip = layers.TextVectorization(standardize="strip_punctuation", vocabulary=["x"])
    assert strip._token_rows(text.numpy(), "t") == [["Hello", "World", "ab"]]
    chars = layers.TextVectorization(standardize=None, split="character", vocabulary=["a", "b"])
    assert chars(ek.constant(["ab!"])).numpy().tolist() == [[2, 3, 1]]
    custom = layers.TextVectorization(
        standardize=lambda t: ek.strings.regex_replace(ek.strings.lower(t), "[0-9]", "#"),
        split=lambda t: ek.strings.split(t, sep="-"),
        vocabulary=["a#", "b"],
    )
    assert custom(ek.constant(["A1-b-c"])).numpy().tolist() == [[2, 3, 1]]


# --- where it is used -------------------------------------------------------------------
def test_it_works_in_models_maps_functions_config_and_saving(tmp_path):
    layer = layers.TextVectorization(max_tokens=6, output_sequence_length=4)
    layer.adapt(["the cat sat", "the dog", "a cat"])
    texts = ek.constant([["the cat ran"], ["a dog"]])
    expected = layer(texts).numpy()
    assert expected.tolist() == [[2, 3, 1, 0], [1, 5, 0, 0]]  # "a": cut by max_tokens
    inputs = ek.keras.Input(shape=(1,), dtype="string")
    model = ek.keras.Model(inputs, layer(inputs))
    np.testing.assert_array_equal(model(texts).numpy(), expected)
    mapped = ek.data.Dataset.from_tensor_slices(texts).batch(1).map(layer)
    np.testing.assert_array_equal(np.concatenate([b.numpy() for b in mapped]), expected)
    traced = ek.function(lambda t: layer(t))
    np.testing.assert_array_equal(traced(texts).numpy(), expected)
    np.testing.assert_array_equal(traced(texts).numpy(), expected)
    clone = layers.TextVectorization.from_config(layer.get_config())
    assert clone.get_vocabulary() == layer.get_vocabulary()
    sequential = ek.keras.Sequential(
        [
            ek.keras.Input(shape=(1,), dtype="string"),
            layer,
            layers.Embedding(6, 2),
            layers.Flatten(),
        ]
    )
    path = str(tmp_path / "text.keras")
    sequential.save(path)
    loaded = ek.keras.models.load_model(path)
    np.testing.assert_allclose(loaded(texts).numpy(), sequential(texts).numpy())
    assert loaded.layers[0].get_vocabulary() == layer.get_vocabulary()


def test_a_scalar_text_gives_one_row():
    layer = layers.TextVectorization(vocabulary=["cat"])
    assert layer(ek.constant("A cat")).numpy().tolist() == [1, 2]


# --- bad input ---------------------------------------------------------------------------
def test_numbers_are_refused_with_the_fix():
    layer = layers.TextVectorization(vocabulary=["a"])
    with pytest.raises(
        InvalidArgumentError, match=r"TextVectorization.*vectorizes text.*float32.*as_string"
    ):
        layer(ek.constant([1.5]))
    with pytest.raises(InvalidArgumentError, match=r"\[batch\] or \[batch, 1\].*\[2, 2\]"):
        layer(ek.constant([["a", "b"], ["c", "d"]]))


def test_a_failed_adapt_changes_nothing():
    layer = layers.TextVectorization()
    layer.adapt(["one two two"])
    before = layer.get_vocabulary()
    with pytest.raises(
        InvalidArgumentError, match=r"TextVectorization\.adapt: the data holds no words"
    ):
        layer.adapt(ek.data.Dataset.from_tensor_slices(["x"]).take(0))
    with pytest.raises(InvalidArgumentError, match=r"TextVectorization\.adapt.*takes strings"):
        layer.adapt(ek.constant([1.0, 2.0]))
    assert layer.get_vocabulary() == before == ["", "[UNK]", "two", "one"]


def test_arguments_it_cannot_take_say_what_to_do():
    with pytest.raises(
        InvalidArgumentError, match=r"output_sequence_length .* needs output_mode='int'"
    ):
        layers.TextVectorization(output_mode="multi_hot", output_sequence_length=3)
    with pytest.raises(UnimplementedError, match=r"no ragged=True.*output_sequence_length"):
        layers.TextVectorization(ragged=True)
    with pytest.raises(InvalidArgumentError, match=r"standardize must be one of"):
        layers.TextVectorization(standardize="upper")
    with pytest.raises(InvalidArgumentError, match=r"ngrams must be None"):
        layers.TextVectorization(ngrams=0)
    with pytest.raises(InvalidArgumentError, match=r"made with vocabulary=.*adapt"):
        layers.TextVectorization(vocabulary=["a"]).adapt(["a"])
