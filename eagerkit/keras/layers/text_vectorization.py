"""TextVectorization: strings of text to token ids (or multi-hot/count vectors of them).

The Keras text tutorials start with it: each string is standardized (lower case, no
punctuation), split into words, and each word looked up in a vocabulary that ``adapt``
learns, most frequent first. Id 0 is padding (``""``) and id 1 an unknown word
(``"[UNK]"``), so ``get_vocabulary()`` starts ``['', '[UNK]', ...]``. How a string becomes
tokens is in ``text_tokens.py``; the lookup is a ``StringLookup`` inside the layer.
"""

import collections

import numpy as np

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError, UnimplementedError
from eagerkit.keras.layers import text_tokens
from eagerkit.keras.layers.adapt_statistics import batches_of
from eagerkit.keras.layers.base import Layer
from eagerkit.keras.layers.category_outputs import (
    check_dense,
    checked_mode,
    count_argument,
    host_array,
)
from eagerkit.keras.layers.lookup_layers import StringLookup
from eagerkit.py_function import py_function
from eagerkit.tensor import convert_to_tensor

CALL = "TextVectorization"


class TextVectorization(Layer):
    """Text to ids: standardize, split, look each token up (see ``text_tokens.py``).

    ``output_mode="int"`` gives one row of ids per string, padded with 0 to the longest
    in the batch, or cut/padded to ``output_sequence_length``; ``"multi_hot"`` and
    ``"count"`` give one vector of ``vocabulary_size()`` per string. ``max_tokens``
    bounds the vocabulary (the padding and OOV ids included).

    Examples
    --------
    >>> import eagerkit as ek
    >>> vectorizer = ek.keras.layers.TextVectorization()
    >>> vectorizer.adapt(["The Brain is wider than the Sky", "For put them side by side"])
    >>> vectorizer.get_vocabulary()[:5]
    ['', '[UNK]', 'the', 'side', 'wider']
    >>> vectorizer(["The sky is blue!", "side by side"]).numpy()
    array([[ 2,  7,  9,  1],
           [ 3, 11,  3,  0]])
    >>> short = ek.keras.layers.TextVectorization(output_sequence_length=2, vocabulary=["a"])
    >>> short(["a b a", "a"]).numpy()
    array([[2, 1],
           [2, 0]])
    """

    _autocast = False  # text stays text

    def __init__(
        self,
        max_tokens=None,
        standardize="lower_and_strip_punctuation",
        split="whitespace",
        ngrams=None,
        output_mode="int",
        output_sequence_length=None,
        pad_to_max_tokens=False,
        vocabulary=None,
        idf_weights=None,
        sparse=False,
        ragged=False,
        encoding="utf-8",
        **kwargs,
    ):
        output_mode = checked_mode(output_mode, CALL)
        check_dense(sparse, CALL)
        if ragged or idf_weights is not None:
            raise UnimplementedError(
                f"{CALL}: eagerkit gives padded int outputs (no ragged=True) and has no "
                f"'tf_idf' (no idf_weights), got ragged={ragged!r}; remove them and use "
                "output_sequence_length= to choose the padded length",
                op=CALL,
            )
        standardize = text_tokens.checked_option(
            standardize, text_tokens.STANDARDIZE, "standardize", CALL
        )
        split = text_tokens.checked_option(split, text_tokens.SPLIT, "split", CALL)
        lengths = text_tokens.checked_ngrams(ngrams, CALL)
        if output_sequence_length is not None:
            if output_mode != "int":
                raise InvalidArgumentError(
                    f"{CALL}: output_sequence_length pads or cuts rows of ids, so it needs "
                    f"output_mode='int', got {output_mode!r}; leave it out",
                    op=CALL,
                )
            output_sequence_length = count_argument(
                output_sequence_length, "output_sequence_length", CALL, 1
            )
        super().__init__(**kwargs)
        self.standardize, self.split, self.ngrams = standardize, split, ngrams
        self._lengths = lengths
        self.output_mode, self.output_sequence_length = output_mode, output_sequence_length
        self.max_tokens, self.pad_to_max_tokens = max_tokens, pad_to_max_tokens
        self.encoding = encoding
        self._lookup = StringLookup(
            max_tokens=max_tokens, mask_token="", vocabulary=vocabulary,
            output_mode=output_mode, pad_to_max_tokens=pad_to_max_tokens, encoding=encoding,
        )  # fmt: skip

    # --- the vocabulary (the lookup's) ------------------------------------------------------
    def get_vocabulary(self, include_special_tokens=True):
        """The token of each id: ``''`` (padding, int mode), ``'[UNK]'``, then the words."""
        return self._lookup.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        """How many ids: the padding and OOV ids included."""
        return self._lookup.vocabulary_size()

    def set_vocabulary(self, vocabulary):
        """Use ``vocabulary`` (a list of words, or a file of them, one a line)."""
        self._lookup.set_vocabulary(vocabulary)

    def adapt(self, data, steps=None):
        """Learn the vocabulary from ``data``: strings in a list, array or tensor, or an
        ``ek.data.Dataset`` of them. A failed adapt changes nothing."""
        call = f"{CALL}.adapt"
        if self._lookup.vocabulary_given:
            raise InvalidArgumentError(
                f"{call}: layer '{self.name}' was made with vocabulary=, which adapt would "
                "replace; make it without one to learn it, e.g. "
                "TextVectorization().adapt(texts)",
                op=call,
            )
        counts = collections.Counter()
        for batch in batches_of(data, call, steps):
            for row in self._token_rows(host_array(convert_to_tensor(batch)), call):
                counts.update(token.encode("utf-8") for token in row)
        if not counts:
            raise InvalidArgumentError(
                f"{call}: the data holds no words to learn a vocabulary from; pass the "
                "training texts, e.g. layer.adapt(train_texts)",
                op=call,
            )
        self._lookup._learn(counts, call)

    # --- vectorizing ------------------------------------------------------------------------
    def call(self, inputs):
        inputs = convert_to_tensor(inputs)  # call() itself may get an array
        if inputs.dtype != dtypes.string:
            raise InvalidArgumentError(
                f"{CALL}: layer '{self.name}' vectorizes text, got {inputs.dtype.name} "
                "inputs; pass strings, e.g. ek.strings.as_string(x) for numbers",
                op=CALL,
            )
        out = dtypes.int64 if self.output_mode == "int" else self.dtype
        return py_function(self._vectorized, [inputs], out)

    def _vectorized(self, inputs):
        values = host_array(inputs)
        rows = self._token_rows(values, CALL)
        longest = max((len(row) for row in rows), default=0)
        width = self.output_sequence_length or longest
        padded = np.full((len(rows), width), b"", dtype=object)
        for i, row in enumerate(rows):
            cut = [token.encode("utf-8") for token in row[:width]]
            padded[i, : len(cut)] = cut
        encoded = self._lookup._encoded_values(padded)
        return encoded[0] if values.ndim == 0 else encoded

    def _token_rows(self, values, call):
        """The tokens of each string of ``values`` (rank 0, 1, or [batch, 1])."""
        if values.ndim == 2 and values.shape[1] == 1:
            values = values[:, 0]  # Keras' (batch, 1) column of texts
        if values.ndim > 1 or values.dtype != object:
            raise InvalidArgumentError(
                f"{call}: layer '{self.name}' takes strings, one text each, shaped [batch] "
                f"or [batch, 1], got {values.dtype} of shape {list(values.shape)}; pass a "
                "list of texts, e.g. ['the cat sat', 'a dog']",
                op=call,
            )
        texts = [text.decode("utf-8") for text in values.reshape(-1)]
        texts = text_tokens.standardized(texts, self.standardize)
        rows = text_tokens.split_tokens(texts, self.split)
        return [text_tokens.with_ngrams(row, self._lengths) for row in rows]

    def get_config(self):
        return {
            **super().get_config(),
            "max_tokens": self.max_tokens,
            "standardize": self.standardize,
            "split": self.split,
            "ngrams": self.ngrams,
            "output_mode": self.output_mode,
            "output_sequence_length": self.output_sequence_length,
            "pad_to_max_tokens": self.pad_to_max_tokens,
            "sparse": False,
            "ragged": False,
            "vocabulary": self.get_vocabulary(include_special_tokens=False) or None,
            "encoding": self.encoding,
        }
