"""The Keras guide "Working with preprocessing layers" (keras.io/guides/preprocessing_layers)
and the lookup/encoding parts of TF's tutorials "Classify structured data using Keras
preprocessing layers" and "Load CSV data", ported with ``import eagerkit as tf`` and
``from eagerkit import keras``: each example runs and gives the guide's values.

Where eagerkit differs (on purpose):

- ``Hashing`` puts values in other bins than TF (BLAKE2b, not FarmHash/SipHash): the guide
  prints only the shape, which is the same; the test checks the bins are stable instead.
- the tutorials read a CSV of pets or Titanic passengers from the web; here a few rows of
  the same columns, written in the test, stand in.

Examples skipped, with why: image augmentation (``RandomFlip``, ``RandomRotation``: not in
eagerkit, see ``missing_names``) and ``output_mode="tf_idf"`` (eagerkit has no TF-IDF). The
multi-hot bigrams example is checked against the words and pairs it must mark (its printed
vector is not reproduced here).
"""

import numpy as np
import pytest

import eagerkit as tf
from eagerkit import keras
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras import layers


def test_text_vectorization_adapts_to_the_odyssey_and_gives_the_guides_ids():
    data = [
        "ξεῖν᾽, ἦ τοι μὲν ὄνειροι ἀμήχανοι ἀκριτόμυθοι",
        "γίγνοντ᾽, οὐδέ τι πάντα τελείεται ἀνθρώποισι.",
        "δοιαὶ γάρ τε πύλαι ἀμενηνῶν εἰσὶν ὀνείρων:",
        "αἱ μὲν γὰρ κεράεσσι τετεύχαται, αἱ δ᾽ ἐλέφαντι:",
        "τῶν οἳ μέν κ᾽ ἔλθωσι διὰ πριστοῦ ἐλέφαντος,",
        "οἵ ῥ᾽ ἐλεφαίρονται, ἔπε᾽ ἀκράαντα φέροντες:",
        "οἱ δὲ διὰ ξεστῶν κεράων ἔλθωσι θύραζε,",
        "οἵ ῥ᾽ ἔτυμα κραίνουσι, βροτῶν ὅτε κέν τις ἴδηται.",
    ]
    layer = layers.TextVectorization()
    layer.adapt(data)
    vectorized_text = layer(data)
    assert vectorized_text.dtype == tf.int64
    np.testing.assert_array_equal(
        vectorized_text.numpy(),
        [
            [37, 12, 25, 5, 9, 20, 21, 0, 0],
            [51, 34, 27, 33, 29, 18, 0, 0, 0],
            [49, 52, 30, 31, 19, 46, 10, 0, 0],
            [7, 5, 50, 43, 28, 7, 47, 17, 0],
            [24, 35, 39, 40, 3, 6, 32, 16, 0],
            [4, 2, 15, 14, 22, 23, 0, 0, 0],
            [36, 48, 6, 38, 42, 3, 45, 0, 0],
            [4, 2, 13, 41, 53, 8, 44, 26, 11],
        ],
    )


ADAPT_DATA = [
    "The Brain is wider than the Sky",
    "For put them side by side",
    "The one the other will contain",
    "With ease and You beside",
]


def test_encoding_text_as_a_sequence_of_token_indices():
    adapt_data = tf.constant(ADAPT_DATA)
    text_vectorizer = layers.TextVectorization(output_mode="int")
    text_vectorizer.adapt(adapt_data)
    encoded = text_vectorizer(["The Brain is deeper than the sea"]).numpy()
    np.testing.assert_array_equal(encoded, [[2, 19, 14, 1, 9, 2, 1]])  # the guide's print

    inputs = keras.Input(shape=(None,), dtype="int64")
    x = layers.Embedding(input_dim=text_vectorizer.vocabulary_size(), output_dim=16)(inputs)
    x = layers.GRU(8)(x)
    outputs = layers.Dense(1)(x)
    model = keras.Model(inputs, outputs)
    train_dataset = tf.data.Dataset.from_tensor_slices((["The Brain is wider than the Sky"], [1]))
    train_dataset = train_dataset.batch(1).map(lambda x, y: (text_vectorizer(x), y))
    model.compile(optimizer="rmsprop", loss="mse")
    model.fit(train_dataset, verbose=0)

    inputs = keras.Input(shape=(1,), dtype="string")  # the end-to-end model takes text
    x = text_vectorizer(inputs)
    assert x.shape.as_list() == [None, None]  # rows as long as the texts' words
    outputs = model(x)
    end_to_end_model = keras.Model(inputs, outputs)
    test_data = tf.constant(["The Brain is deeper than the sea"])
    test_output = end_to_end_model(test_data)
    np.testing.assert_allclose(test_output.numpy(), model(tf.constant(encoded)).numpy())


def test_encoding_text_as_a_dense_matrix_of_ngrams_with_multi_hot_encoding():
    text_vectorizer = layers.TextVectorization(output_mode="multi_hot", ngrams=2)
    text_vectorizer.adapt(tf.constant(ADAPT_DATA))
    vocabulary = text_vectorizer.get_vocabulary()
    assert vocabulary[:3] == ["[UNK]", "the", "side"] and len(vocabulary) == 41
    encoded = text_vectorizer(["The Brain is deeper than the sea"]).numpy()
    words = "the brain is deeper than the sea".split()
    grams = set(words) | {" ".join(pair) for pair in zip(words, words[1:], strict=False)}
    marked = {vocabulary[i] for i in np.flatnonzero(encoded[0])}
    assert marked == {g for g in grams if g in vocabulary} | {"[UNK]"}
    assert marked == {"[UNK]", "the", "brain", "is", "than", "the brain", "brain is", "than the"}


def test_string_lookup_with_a_given_vocabulary():
    vocab = ["a", "b", "c", "d"]
    data = tf.constant([["a", "c", "d"], ["d", "z", "b"]])
    layer = layers.StringLookup(vocabulary=vocab)
    vectorized_data = layer(data)
    assert vectorized_data.dtype == tf.int64
    np.testing.assert_array_equal(vectorized_data.numpy(), [[1, 3, 4], [4, 0, 2]])


def test_string_lookup_adapts_most_frequent_first():
    data = tf.constant([["a", "c", "d"], ["d", "z", "b"]])
    layer = layers.StringLookup()
    layer.adapt(data)
    assert layer.get_vocabulary() == ["[UNK]", "d", "z", "c", "b", "a"]
    assert layer.vocabulary_size() == 6


def test_encoding_string_categorical_features_via_one_hot():
    data = tf.constant([["a"], ["b"], ["c"], ["b"], ["c"], ["a"]])
    lookup = layers.StringLookup(output_mode="one_hot")
    lookup.adapt(data)
    test_data = tf.constant([["a"], ["b"], ["c"], ["d"], ["e"], [""]])
    encoded_data = lookup(test_data)
    assert encoded_data.dtype == tf.float32 and encoded_data.shape == (6, 4)
    expected = [[0, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]]
    np.testing.assert_array_equal(encoded_data.numpy(), expected)


def test_encoding_integer_categorical_features_via_one_hot():
    data = tf.constant([[10], [20], [20], [10], [30], [0]])
    lookup = layers.IntegerLookup(output_mode="one_hot", mask_token=0)
    lookup.adapt(data)
    test_data = tf.constant([[10], [10], [20], [50], [60], [0]])
    encoded_data = lookup(test_data)
    expected = [[0, 0, 1, 0], [0, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]]
    np.testing.assert_array_equal(encoded_data.numpy(), expected)
    assert lookup.get_vocabulary() == [-1, 20, 10, 30]  # the mask has no id in one_hot


def test_integer_lookup_adapt_from_the_api_docs():
    data = tf.constant([[12, 1138, 42], [42, 1000, 36]])
    layer = layers.IntegerLookup()
    layer.adapt(data)
    assert layer.get_vocabulary() == [-1, 42, 1138, 1000, 36, 12]
    np.testing.assert_array_equal(layer(data).numpy(), [[5, 2, 1], [1, 3, 4]])


def test_applying_the_hashing_trick_to_an_integer_categorical_feature():
    data = np.random.default_rng(0).integers(0, 100000, size=(10000, 1))
    hasher = layers.Hashing(num_bins=64, salt=1337)
    encoder = layers.CategoryEncoding(num_tokens=64, output_mode="multi_hot")
    encoded_data = encoder(hasher(data))
    assert encoded_data.shape == (10000, 64)
    assert np.all(encoded_data.numpy().sum(axis=1) == 1)  # one bin per single value
    bins = hasher(data).numpy()
    np.testing.assert_array_equal(hasher(data).numpy(), bins)  # a value keeps its bin
    assert len(np.unique(bins)) == 64  # 10000 values fill every bin


def test_category_encoding_examples_of_the_api_docs():
    one_hot = layers.CategoryEncoding(num_tokens=4, output_mode="one_hot")
    np.testing.assert_array_equal(
        one_hot([3, 2, 0, 1]).numpy(), [[0, 0, 0, 1], [0, 0, 1, 0], [1, 0, 0, 0], [0, 1, 0, 0]]
    )
    multi_hot = layers.CategoryEncoding(num_tokens=4, output_mode="multi_hot")
    np.testing.assert_array_equal(
        multi_hot([[0, 1], [0, 0], [1, 2], [3, 1]]).numpy(),
        [[1, 1, 0, 0], [1, 0, 0, 0], [0, 1, 1, 0], [0, 1, 0, 1]],
    )
    count = layers.CategoryEncoding(num_tokens=4, output_mode="count")
    weights = [[0.1, 0.2], [0.1, 0.1], [0.2, 0.3], [0.4, 0.2]]
    np.testing.assert_allclose(
        count([[0, 1], [0, 0], [1, 2], [3, 1]], count_weights=weights).numpy(),
        [[0.1, 0.2, 0, 0], [0.2, 0, 0, 0], [0, 0.2, 0.3, 0], [0, 0.2, 0, 0.4]],
        rtol=1e-6,
    )


def test_discretization_examples_of_the_api_docs():
    x = np.array([[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.3, 0.0]])
    fixed = layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
    np.testing.assert_array_equal(fixed(x).numpy(), [[0, 2, 3, 1], [1, 3, 2, 1]])
    learned = layers.Discretization(num_bins=4, epsilon=0.01)
    learned.adapt(x)
    np.testing.assert_allclose(learned.bin_boundaries, [0.0, 0.5, 1.3])
    np.testing.assert_array_equal(learned(x).numpy(), [[0, 2, 3, 2], [1, 3, 3, 1]])


# --- "Classify structured data using Keras preprocessing layers" ---------------------------
PETS = {  # a few rows of the PetFinder columns the tutorial encodes
    "Type": ["Cat", "Dog", "Dog", "Cat", "Dog", "Cat", "Dog", "Dog"],
    "Age": [3, 1, 1, 4, 1, 3, 12, 1],
    "PhotoAmt": [1.0, 2.0, 7.0, 8.0, 3.0, 2.0, 0.0, 4.0],
}
TARGET = [1, 1, 0, 1, 0, 1, 0, 1]


def df_to_dataset(batch_size=4):
    features = {key: np.array(value)[:, np.newaxis] for key, value in PETS.items()}
    return tf.data.Dataset.from_tensor_slices((features, TARGET)).batch(batch_size)


def get_category_encoding_layer(name, dataset, dtype, max_tokens=None):
    if dtype == "string":
        index = layers.StringLookup(max_tokens=max_tokens)
    else:
        index = layers.IntegerLookup(max_tokens=max_tokens)
    feature_ds = dataset.map(lambda x, y: x[name])
    index.adapt(feature_ds)
    encoder = layers.CategoryEncoding(num_tokens=index.vocabulary_size())
    return lambda feature: encoder(index(feature))


def test_the_structured_data_tutorials_category_encoding_layers():
    train_ds = df_to_dataset()
    [(batch, _)] = train_ds.take(1)
    type_layer = get_category_encoding_layer("Type", train_ds, "string")
    # Dog (5) before Cat (3): ids [UNK]=0, Dog=1, Cat=2; multi-hot over 3 ids
    np.testing.assert_array_equal(
        type_layer(batch["Type"]).numpy(), [[0, 0, 1], [0, 1, 0], [0, 1, 0], [0, 0, 1]]
    )
    age_layer = get_category_encoding_layer("Age", train_ds, "int64", max_tokens=3)
    # max_tokens=3: [OOV], 1 (4 times), 3 (twice); 4 and 12 are out of the vocabulary
    np.testing.assert_array_equal(
        age_layer(batch["Age"]).numpy(), [[0, 0, 1], [0, 1, 0], [0, 1, 0], [1, 0, 0]]
    )


def test_the_structured_data_tutorials_model_trains_on_the_encoded_features():
    train_ds = df_to_dataset()
    all_inputs, encoded_features = [], []
    photo = keras.Input(shape=(1,), name="PhotoAmt")
    normalizer = layers.Normalization(axis=None)
    normalizer.adapt(train_ds.map(lambda x, y: x["PhotoAmt"]))
    all_inputs.append(photo)
    encoded_features.append(normalizer(photo))
    for header, dtype in (("Age", "int64"), ("Type", "string")):
        col = keras.Input(shape=(1,), name=header, dtype=dtype)
        encoding_layer = get_category_encoding_layer(header, train_ds, dtype, max_tokens=5)
        all_inputs.append(col)
        encoded_features.append(encoding_layer(col))
    all_features = layers.concatenate(encoded_features)
    x = layers.Dense(8, activation="relu")(all_features)
    output = layers.Dense(1)(x)
    model = keras.Model(all_inputs, output)
    model.compile(
        optimizer="adam",
        loss=keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    history = model.fit(train_ds, epochs=3, verbose=0)
    assert len(history.history["loss"]) == 3 and np.isfinite(history.history["loss"]).all()
    sample = {"Type": "Cat", "Age": 3, "PhotoAmt": 2.0}
    input_dict = {name: tf.convert_to_tensor([value]) for name, value in sample.items()}
    predictions = model.predict(input_dict, verbose=0)
    assert predictions.shape == (1, 1) and np.isfinite(predictions).all()


# --- "Load CSV data": the Titanic's string columns, one-hot in the model ------------------
def test_the_load_csv_tutorials_string_columns_are_one_hot_inside_the_model():
    titanic_features = {
        "sex": np.array(["male", "female", "female", "male"]),
        "class": np.array(["Third", "First", "Third", "Second"]),
        "age": np.array([22.0, 38.0, 26.0, 35.0], dtype=np.float32),
    }
    inputs = {
        name: keras.Input(
            shape=(1,), name=name, dtype=tf.string if col.dtype.kind == "U" else tf.float32
        )
        for name, col in titanic_features.items()
    }
    preprocessed_inputs = [inputs["age"]]
    for name, input_ in inputs.items():
        if input_.dtype == tf.float32:
            continue
        lookup = layers.StringLookup(vocabulary=np.unique(titanic_features[name]))
        one_hot = layers.CategoryEncoding(num_tokens=lookup.vocabulary_size())
        preprocessed_inputs.append(one_hot(lookup(input_)))
    preprocessed = layers.Concatenate()(preprocessed_inputs)
    titanic_preprocessing = keras.Model(inputs, preprocessed)
    features_dict = {name: values[:2, np.newaxis] for name, values in titanic_features.items()}
    got = titanic_preprocessing(features_dict).numpy()
    # age | [UNK], female, male | [UNK], First, Second, Third
    np.testing.assert_array_equal(got, [[22, 0, 0, 1, 0, 0, 0, 1], [38, 0, 1, 0, 0, 1, 0, 0]])


def test_a_lookup_refuses_floats_and_names_the_fix():
    with pytest.raises(InvalidArgumentError, match=r"StringLookup.*looks up strings.*float32"):
        layers.StringLookup(vocabulary=["a"])(tf.constant([1.5]))
