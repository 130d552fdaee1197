"""The lookup and encoding layers against plain-Python references, on generated
vocabularies and inputs (every output_mode, OOV and mask handling), and in the places a
layer is used: Sequential and functional models, Dataset.map, ek.function, config and
model.save round trips; bad input gives an eagerkit error and changes nothing."""

import bisect
import collections

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError, ResourceExhaustedError, UnimplementedError
from eagerkit.keras import layers

MODES = ["int", "one_hot", "multi_hot", "count"]
WORDS = st.text(alphabet="abcxyz", min_size=1, max_size=3)
VOCABULARIES = st.lists(WORDS, min_size=1, max_size=6, unique=True)
CODES = st.lists(st.integers(1, 40), min_size=1, max_size=6, unique=True)


# --- references ------------------------------------------------------------------------
def reference_ids(tokens, vocabulary, num_oov, mask, mode):
    """Keras' ids: [mask (int mode only)] + OOV ids + vocabulary; the mask is -1 (no id)
    outside int mode; an unknown token gets the first OOV id (one OOV id)."""
    oov_start = 1 if mask is not None and mode == "int" else 0
    start = oov_start + num_oov
    ids = []
    for token in tokens:
        if mask is not None and token == mask:
            ids.append(0 if mode == "int" else -1)
        elif token in vocabulary:
            ids.append(start + vocabulary.index(token))
        else:
            ids.append(oov_start)
    return ids, start + len(vocabulary)


def reference_encoding(rows, mode, depth, weights=None):
    """rows: a list of samples (lists of ids); what each mode gives, in plain Python."""
    if mode == "int":
        return rows
    if mode == "one_hot":
        return [[[1.0 if i == d else 0.0 for d in range(depth)] for i in row] for row in rows]
    out = []
    for r, row in enumerate(rows):
        counts = [0.0] * depth
        for c, i in enumerate(row):
            if i >= 0:
                counts[i] += 1.0 if weights is None else weights[r][c]
        out.append([min(c, 1.0) for c in counts] if mode == "multi_hot" else counts)
    return out


def reference_vocabulary(tokens, max_learned=None):
    counts = collections.Counter(tokens)
    ranked = sorted(counts, key=lambda t: (counts[t], t), reverse=True)
    return ranked if max_learned is None else ranked[:max_learned]


# --- StringLookup / IntegerLookup -----------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(
    vocabulary=VOCABULARIES,
    extra=st.lists(WORDS, max_size=3),
    mask=st.sampled_from([None, ""]),
    mode=st.sampled_from(MODES),
    width=st.integers(1, 4),
    data=st.data(),
)
def test_string_lookup_matches_the_reference(vocabulary, extra, mask, mode, width, data):
    pool = vocabulary + extra + ([mask] if mask is not None else [])
    rows = data.draw(
        st.lists(
            st.lists(st.sampled_from(pool), min_size=width, max_size=width), min_size=1, max_size=4
        )
    )
    layer = layers.StringLookup(vocabulary=vocabulary, mask_token=mask, output_mode=mode)
    flat = [t for row in rows for t in row]
    ids, size = reference_ids(flat, vocabulary, 1, mask, mode)
    id_rows = [ids[i * width : (i + 1) * width] for i in range(len(rows))]
    got = layer(ek.constant(rows)).numpy()
    expected = reference_encoding(id_rows, mode, size)
    if mode == "one_hot" and width == 1:
        expected = [row[0] for row in expected]  # a last axis of 1 is replaced
    np.testing.assert_array_equal(got, np.array(expected).reshape(got.shape))
    assert layer.vocabulary_size() == size
    specials = ([mask] if mask is not None and mode == "int" else []) + ["[UNK]"]
    assert layer.get_vocabulary() == specials + vocabulary


@settings(max_examples=30, deadline=None)
@given(
    vocabulary=CODES,
    tokens=st.lists(st.integers(-5, 60), min_size=1, max_size=12),
    n=st.integers(2, 4),
)
def test_integer_lookup_spreads_unknown_codes_over_oov_ids_by_modulo(vocabulary, tokens, n):
    layer = layers.IntegerLookup(vocabulary=vocabulary, num_oov_indices=n)
    expected = [n + vocabulary.index(t) if t in vocabulary else t % n for t in tokens]
    np.testing.assert_array_equal(layer(ek.constant(tokens, ek.int64)).numpy(), expected)


@settings(max_examples=30, deadline=None)
@given(
    vocabulary=VOCABULARIES, tokens=st.lists(WORDS, min_size=1, max_size=12), n=st.integers(2, 4)
)
def test_string_lookup_hashes_unknown_tokens_into_its_oov_ids(vocabulary, tokens, n):
    layer = layers.StringLookup(vocabulary=vocabulary, num_oov_indices=n)
    got = layer(ek.constant(tokens)).numpy().tolist()
    first_seen = {}
    for token, i in zip(tokens, got, strict=True):
        if token in vocabulary:
            assert i == n + vocabulary.index(token)
        else:
            assert 0 <= i < n and first_seen.setdefault(token, i) == i  # one bucket each


@settings(max_examples=40, deadline=None)
@given(
    tokens=st.lists(WORDS, min_size=1, max_size=30),
    max_tokens=st.one_of(st.none(), st.integers(2, 6)),
    batch=st.integers(1, 5),
)
def test_adapt_orders_by_count_then_token_descending(tokens, max_tokens, batch):
    layer = layers.StringLookup(max_tokens=max_tokens)
    layer.adapt(ek.data.Dataset.from_tensor_slices(tokens).batch(batch))  # in batches
    learned = reference_vocabulary(tokens, None if max_tokens is None else max_tokens - 1)
    assert layer.get_vocabulary() == ["[UNK]"] + learned
    assert layer.get_vocabulary(include_special_tokens=False) == learned


@settings(max_examples=30, deadline=None)
@given(codes=st.lists(st.integers(0, 9), min_size=1, max_size=30))
def test_integer_adapt_leaves_out_the_mask_and_oov_tokens(codes):
    layer = layers.IntegerLookup(mask_token=0, oov_token=-1)
    assume(any(c != 0 for c in codes))
    layer.adapt(ek.constant(codes + [-1]))
    assert layer.get_vocabulary() == [0, -1] + reference_vocabulary([c for c in codes if c != 0])


@settings(max_examples=30, deadline=None)
@given(
    vocabulary=VOCABULARIES,
    mask=st.sampled_from([None, ""]),
    ids=st.lists(st.integers(-2, 9), min_size=1, max_size=8),
)
def test_invert_maps_ids_back_to_tokens(vocabulary, mask, ids):
    forward = layers.StringLookup(vocabulary=vocabulary, mask_token=mask)
    back = layers.StringLookup(vocabulary=vocabulary, mask_token=mask, invert=True)
    table = forward.get_vocabulary()
    start = len(table) - len(vocabulary)
    expected = [
        table[i].encode()
        if (start <= i < len(table) or (i == 0 and mask is not None))
        else b"[UNK]"
        for i in ids
    ]
    assert back(ek.constant(ids, ek.int64)).numpy().tolist() == expected
    np.testing.assert_array_equal(
        back(forward(ek.constant(vocabulary))).numpy(), [t.encode() for t in vocabulary]
    )


# --- CategoryEncoding, Discretization, Hashing ---------------------------------------
@settings(max_examples=40, deadline=None)
@given(
    depth=st.integers(1, 6),
    mode=st.sampled_from(["one_hot", "multi_hot", "count"]),
    shape=st.tuples(st.integers(1, 4), st.integers(1, 4)),
    data=st.data(),
)
def test_category_encoding_matches_the_reference(depth, mode, shape, data):
    rows = data.draw(
        st.lists(
            st.lists(st.integers(0, depth - 1), min_size=shape[1], max_size=shape[1]),
            min_size=shape[0],
            max_size=shape[0],
        )
    )
    weights = data.draw(
        st.lists(
            st.lists(st.floats(0, 2, width=32), min_size=shape[1], max_size=shape[1]),
            min_size=shape[0],
            max_size=shape[0],
        )
    )
    layer = layers.CategoryEncoding(num_tokens=depth, output_mode=mode)
    got = layer(ek.constant(rows)).numpy()
    expected = reference_encoding(rows, mode, depth)
    if mode == "one_hot" and shape[1] == 1:
        expected = [row[0] for row in expected]
    np.testing.assert_array_equal(got, np.array(expected).reshape(got.shape))
    if mode == "count":
        weighted = layer(ek.constant(rows), count_weights=weights).numpy()
        np.testing.assert_allclose(
            weighted, reference_encoding(rows, mode, depth, weights), rtol=1e-5, atol=1e-6
        )


@settings(max_examples=40, deadline=None)
@given(
    boundaries=st.lists(st.floats(-10, 10, width=32), min_size=1, max_size=5).map(sorted),
    values=st.lists(st.floats(-12, 12, width=32), min_size=1, max_size=10),
    mode=st.sampled_from(MODES),
)
def test_discretization_matches_bisect(boundaries, values, mode):
    layer = layers.Discretization(bin_boundaries=boundaries, output_mode=mode)
    bins = [bisect.bisect_right(boundaries, v) for v in values]
    got = layer(ek.constant(values, ek.float32)).numpy()
    expected = reference_encoding([bins], mode, len(boundaries) + 1)[0]
    np.testing.assert_array_equal(got, np.array(expected).reshape(got.shape))


@settings(max_examples=40, deadline=None)
@given(
    values=st.lists(st.integers(-50, 50), min_size=1, max_size=40),
    num_bins=st.integers(1, 6),
    batch=st.integers(1, 7),
)
def test_discretization_adapt_takes_keras_quantiles_in_any_batching(values, num_bins, batch):
    layer = layers.Discretization(num_bins=num_bins)
    layer.adapt(ek.data.Dataset.from_tensor_slices(np.array(values, np.float32)).batch(batch))
    ordered = sorted(values)
    n = len(ordered)
    expected = ordered[:-1] if n < num_bins else []  # Keras 3: fewer values than bins
    for k in range(1, num_bins if n >= num_bins else 1):  # value at k/num_bins, (i+1)/n each
        position = k * n / num_bins - 1
        low = max(int(np.floor(position)), 0)
        high = min(low + 1, n - 1)
        frac = position - low if position >= 0 else 0.0
        expected.append(ordered[low] + (ordered[high] - ordered[low]) * frac)
    np.testing.assert_allclose(layer.bin_boundaries, expected, rtol=1e-6, atol=1e-5)


@settings(max_examples=30, deadline=None)
@given(
    values=st.lists(st.integers(0, 10**6), min_size=1, max_size=20),
    num_bins=st.integers(2, 9),
    salt=st.one_of(st.none(), st.integers(0, 2**40)),
)
def test_hashing_bins_are_stable_in_range_and_text_of_ints(values, num_bins, salt):
    hasher = layers.Hashing(num_bins=num_bins, salt=salt)
    bins = hasher(ek.constant(values, ek.int64)).numpy()
    assert bins.dtype == np.int64 and ((0 <= bins) & (bins < num_bins)).all()
    as_text = hasher(ek.constant([str(v) for v in values])).numpy()
    np.testing.assert_array_equal(bins, as_text)  # 7 and "7" share a bin, as in TF
    masked = layers.Hashing(num_bins=num_bins, mask_value=values[0], salt=salt)
    got = masked(ek.constant(values, ek.int64)).numpy()
    assert all((g == 0) == (v == values[0]) for g, v in zip(got, values, strict=True))
    one_hot = layers.Hashing(num_bins=num_bins, salt=salt, output_mode="one_hot")
    np.testing.assert_array_equal(one_hot(ek.constant(values, ek.int64)).numpy().argmax(-1), bins)


def test_a_salt_moves_values_to_other_bins():
    values = ek.constant([f"word{i}" for i in range(50)])
    plain = layers.Hashing(num_bins=16)(values).numpy()
    salted = layers.Hashing(num_bins=16, salt=[3, 7])(values).numpy()
    assert (plain != salted).sum() > 25


# --- in models, Dataset.map, ek.function, config and saving --------------------------
def make_layers():
    """One of each, ready to call, with what it is called on."""
    words = ek.constant([["a"], ["q"], ["b"]])
    string_lookup = layers.StringLookup(output_mode="one_hot")
    string_lookup.adapt(ek.constant(["a", "b", "b"]))
    integer_lookup = layers.IntegerLookup(vocabulary=[4, 9], mask_token=0)
    return [
        (string_lookup, words),
        (integer_lookup, ek.constant([[4], [0], [7]], ek.int64)),
        (layers.CategoryEncoding(num_tokens=3, output_mode="count"), ek.constant([[2], [0], [2]])),
        (layers.Discretization(bin_boundaries=[0.0, 1.0]), ek.constant([[-1.0], [0.5], [3.0]])),
        (layers.Hashing(num_bins=5, salt=11), words),
    ]


LAYER_NAMES = ["StringLookup", "IntegerLookup", "CategoryEncoding", "Discretization", "Hashing"]


@pytest.mark.parametrize("which", range(5), ids=LAYER_NAMES)
def test_each_layer_gives_the_same_in_models_maps_functions_and_from_config(which, tmp_path):
    layer, x = make_layers()[which]
    expected = layer(x).numpy()
    inputs = ek.keras.Input(shape=(1,), dtype=x.dtype)
    np.testing.assert_array_equal(ek.keras.Model(inputs, layer(inputs))(x).numpy(), expected)
    sequential = ek.keras.Sequential([ek.keras.Input(shape=(1,), dtype=x.dtype), layer])
    np.testing.assert_array_equal(sequential(x).numpy(), expected)
    mapped = ek.data.Dataset.from_tensor_slices(x).batch(2).map(layer)
    np.testing.assert_array_equal(np.concatenate([b.numpy() for b in mapped]), expected)
    traced = ek.function(lambda t: layer(t))
    np.testing.assert_array_equal(traced(x).numpy(), expected)
    np.testing.assert_array_equal(traced(x).numpy(), expected)  # the graph, replayed
    clone = type(layer).from_config(layer.get_config())
    np.testing.assert_array_equal(clone(x).numpy(), expected)
    path = str(tmp_path / "model.keras")
    sequential.save(path)
    loaded = ek.keras.models.load_model(path)
    np.testing.assert_array_equal(loaded(x).numpy(), expected)


def test_a_function_traced_before_adapt_uses_the_adapted_vocabulary():
    lookup = layers.StringLookup()
    traced = ek.function(lambda t: lookup(t))
    assert traced(ek.constant(["b", "a"])).numpy().tolist() == [0, 0]  # nothing known yet
    lookup.adapt(ek.constant(["a", "b", "b"]))
    assert traced(ek.constant(["b", "a"])).numpy().tolist() == [1, 2]


def test_a_model_with_a_lookup_and_an_embedding_trains():
    model = ek.keras.Sequential(
        [
            ek.keras.Input(shape=(2,), dtype="string"),
            layers.StringLookup(vocabulary=["good", "bad", "fine"]),
            layers.Embedding(4, 3),
            layers.GlobalAveragePooling1D(),
            layers.Dense(1),
        ]
    )
    model.compile(optimizer="sgd", loss="mse")
    x = np.array([["good", "fine"], ["bad", "bad"], ["good", "what"]], dtype=object)
    history = model.fit(x, np.array([[1.0], [0.0], [1.0]]), epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2 and np.isfinite(history.history["loss"]).all()
    unicode = x.astype(str)  # numpy's own strings ('<U4'), as pandas' .to_numpy() gives
    assert model.predict(unicode, verbose=0).shape == (3, 1)
    np.testing.assert_allclose(model.predict(unicode, verbose=0), model.predict(x, verbose=0))


# --- bad input: an eagerkit error naming the layer and the fix; nothing changes -------
def test_a_float_into_a_string_lookup_is_refused():
    layer = layers.StringLookup(vocabulary=["a"])
    with pytest.raises(
        InvalidArgumentError, match=r"StringLookup.*strings.*float32.*IntegerLookup"
    ):
        layer(ek.constant([1.5]))
    with pytest.raises(
        InvalidArgumentError, match=r"IntegerLookup.*integer codes.*float32.*ek\.cast"
    ):
        layers.IntegerLookup(vocabulary=[1])(ek.constant([1.5]))


def test_an_encoding_larger_than_memory_is_refused_before_it_is_made():
    layer = layers.CategoryEncoding(num_tokens=2**50, output_mode="one_hot")
    with pytest.raises(ResourceExhaustedError, match=r"CategoryEncoding: the one_hot encoding"):
        layer(ek.constant([[1, 2]]))


def test_an_id_outside_num_tokens_is_refused():
    layer = layers.CategoryEncoding(num_tokens=3)
    with pytest.raises(
        InvalidArgumentError, match=r"CategoryEncoding.*\[0, 3\).*\[3, 7\].*num_tokens"
    ):
        layer(ek.constant([[0, 3], [7, 1]]))
    with pytest.raises(InvalidArgumentError, match=r"CategoryEncoding.*integer ids.*float32"):
        layer(ek.constant([0.0]))
    with pytest.raises(InvalidArgumentError, match=r"count_weights.*'multi_hot'"):
        layer(ek.constant([0]), count_weights=[1.0])


@pytest.mark.parametrize(
    "make",
    [
        lambda: layers.StringLookup(),
        lambda: layers.IntegerLookup(),
        lambda: layers.Discretization(num_bins=3),
    ],
    ids=["StringLookup", "IntegerLookup", "Discretization"],
)
def test_adapt_on_an_empty_dataset_is_refused_and_changes_nothing(make):
    layer = make()
    if isinstance(layer, layers.Discretization):
        layer.adapt([1.0, 2.0, 3.0])
        empty = ek.data.Dataset.from_tensor_slices(np.zeros([0], np.float32)).batch(2)
    else:
        layer.adapt(
            ek.constant(["x", "y"])
            if isinstance(layer, layers.StringLookup)
            else ek.constant([5, 6])
        )
        empty = ek.data.Dataset.from_tensor_slices(
            ek.constant(["x"] if isinstance(layer, layers.StringLookup) else [5])
        ).take(0)
    before = layer.get_config()
    with pytest.raises(
        InvalidArgumentError, match=rf"{type(layer).__name__}\.adapt: the data holds no"
    ):
        layer.adapt(empty)
    assert layer.get_config() == before


def test_a_bad_vocabulary_or_argument_says_what_to_do():
    with pytest.raises(InvalidArgumentError, match=r"repeats \['a'\]"):
        layers.StringLookup(vocabulary=["a", "b", "a"])
    with pytest.raises(InvalidArgumentError, match=r"holds the oov_token '\[UNK\]'"):
        layers.StringLookup(vocabulary=["a", "[UNK]"])
    with pytest.raises(InvalidArgumentError, match=r"was made with vocabulary=.*adapt"):
        layers.StringLookup(vocabulary=["a"]).adapt(["a"])
    with pytest.raises(
        InvalidArgumentError, match=r"num_oov_indices=0.*\['z'\].*num_oov_indices=1"
    ):
        layers.StringLookup(vocabulary=["a"], num_oov_indices=0)(ek.constant(["a", "z"]))
    with pytest.raises(InvalidArgumentError, match=r"invert=True.*output_mode must be 'int'"):
        layers.StringLookup(invert=True, output_mode="one_hot")
    with pytest.raises(UnimplementedError, match=r"dense tensors only; pass sparse=False"):
        layers.CategoryEncoding(num_tokens=3, sparse=True)
    with pytest.raises(UnimplementedError, match=r"no output_mode='tf_idf'"):
        layers.StringLookup(output_mode="tf_idf")
    with pytest.raises(InvalidArgumentError, match=r"exactly one of bin_boundaries= .* num_bins="):
        layers.Discretization()
    with pytest.raises(InvalidArgumentError, match=r"no bin boundaries yet; call adapt"):
        layers.Discretization(num_bins=2)(ek.constant([1.0]))
    with pytest.raises(InvalidArgumentError, match=r"sorted list of numbers"):
        layers.Discretization(bin_boundaries=[2.0, 1.0])


def test_a_failed_call_leaves_the_lookup_as_it_was():
    layer = layers.StringLookup(vocabulary=["a", "b"], num_oov_indices=0)
    before = layer.get_config()
    with pytest.raises(InvalidArgumentError):
        layer(ek.constant(["zz"]))
    assert layer.get_config() == before and layer(ek.constant(["b"])).numpy().tolist() == [1]


def test_tfs_hash_functions_say_eagerkit_bins_differ():
    for name in ("to_hash_bucket_fast", "to_hash_bucket_strong"):
        with pytest.raises(AttributeError, match=r"Hashing\(num_bins.*BLAKE2b.*not in TF's bin"):
            getattr(ek.strings, name)
    from eagerkit.keras.layers import hashing

    assert "eagerkit's bins are not TF's" in hashing.__doc__  # the layer's docs say so too


def test_pad_to_max_tokens_widens_the_encodings_and_invert_gives_codes():
    lookup = layers.StringLookup(
        vocabulary=["a", "b"], max_tokens=5, pad_to_max_tokens=True, output_mode="multi_hot"
    )
    np.testing.assert_array_equal(lookup([["a", "q"]]).numpy(), [[1, 1, 0, 0, 0]])
    with pytest.raises(InvalidArgumentError, match=r"pad_to_max_tokens=True .* give max_tokens"):
        layers.StringLookup(pad_to_max_tokens=True)
    back = layers.IntegerLookup(vocabulary=[5, 6], invert=True)
    assert back(ek.constant([0, 1, 2, 3])).numpy().tolist() == [-1, 5, 6, -1]
