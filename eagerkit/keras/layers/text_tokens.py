"""How ``TextVectorization`` turns each string into tokens: standardize, split, n-grams.

- ``standardize="lower_and_strip_punctuation"`` (the default) lower-cases the text and
  removes ASCII punctuation (Keras' ``[!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~']``); ``"lower"``
  and ``"strip_punctuation"`` do one of the two; None leaves the text as it is; a callable
  takes and returns a string tensor (``ek.strings`` ops).
- ``split="whitespace"`` splits at runs of whitespace; ``"character"`` into characters;
  None keeps each string one token; a callable takes a string tensor and returns a
  ``RaggedTensor`` (or nested list) of tokens.
- ``ngrams=2`` adds each pair of neighbouring tokens (joined by a space) after the tokens;
  a tuple, e.g. ``(2, 3)``, chooses which lengths of n-grams to make.

Examples
--------
>>> from eagerkit.keras.layers.text_tokens import standardized, split_tokens, with_ngrams
>>> texts = standardized(["The Brain, is wider!"], "lower_and_strip_punctuation")
>>> texts
['the brain is wider']
>>> rows = split_tokens(texts, "whitespace")
>>> rows
[['the', 'brain', 'is', 'wider']]
>>> with_ngrams(rows[0], (1, 2))[4:]
['the brain', 'brain is', 'is wider']
"""

import re

import numpy as np

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import Tensor, convert_to_tensor

PUNCTUATION = re.compile(r"[!\"#$%&()\*\+,\-\./:;<=>?@\[\\\]^_`{|}~']")  # ASCII's, as Keras
STANDARDIZE = (None, "lower_and_strip_punctuation", "lower", "strip_punctuation")
SPLIT = (None, "whitespace", "character")


def checked_option(value, options, what, call):
    """A ``standardize=`` or ``split=`` argument: one of ``options`` or a callable."""
    if value in options or callable(value):
        return value
    raise InvalidArgumentError(
        f"{call}: {what} must be one of {', '.join(map(repr, options))} or a function, got "
        f"{value!r:.40}",
        op=call,
    )


def checked_ngrams(ngrams, call):
    """``ngrams``: None, a whole number n (lengths 1 to n) or a tuple of lengths."""
    lengths = (
        None if ngrams is None else tuple(range(1, ngrams + 1)) if isinstance(ngrams, int)
        else tuple(ngrams) if isinstance(ngrams, (tuple, list)) else ()
    )  # fmt: skip
    if lengths is not None and (
        not lengths or not all(isinstance(n, int) and n > 0 for n in lengths)
    ):
        raise InvalidArgumentError(
            f"{call}: ngrams must be None, a whole number > 0 or a tuple of them, got "
            f"{ngrams!r:.40}; e.g. ngrams=2 for single words and pairs",
            op=call,
        )
    return lengths


def standardized(texts, standardize):
    """Each text (a list of ``str``) standardized."""
    if callable(standardize):
        result = standardize(convert_to_tensor([t.encode("utf-8") for t in texts]))
        return [_text(t) for t in np.asarray(_values(result), dtype=object).reshape(-1)]
    if standardize in ("lower", "lower_and_strip_punctuation"):
        texts = [t.lower() for t in texts]
    if standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
        texts = [PUNCTUATION.sub("", t) for t in texts]
    return texts


def split_tokens(texts, split):
    """Each text's tokens, a list per text."""
    if split == "whitespace":
        return [t.split() for t in texts]
    if split == "character":
        return [list(t) for t in texts]
    if split is None:
        return [[t] for t in texts]
    result = split(convert_to_tensor([t.encode("utf-8") for t in texts], dtypes.string))
    rows = result.to_list() if hasattr(result, "to_list") else _values(result)
    return [[_text(token) for token in row] for row in rows]


def with_ngrams(tokens, lengths):
    """The n-grams of one row of tokens for each length in ``lengths`` (n=1: the tokens)."""
    if lengths is None:
        return tokens
    grams = []
    for n in lengths:
        grams += [" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]
    return grams


def _values(result):
    return result.numpy().tolist() if isinstance(result, Tensor) else result


def _text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)
