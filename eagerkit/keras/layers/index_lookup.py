"""What ``StringLookup`` and ``IntegerLookup`` share: a vocabulary of tokens and their ids.

The ids are laid out as in Keras 3: first the mask token (only with ``mask_token`` set and
``output_mode="int"``), then ``num_oov_indices`` ids for tokens not in the vocabulary
(out of vocabulary, "OOV"), then the vocabulary itself. ``get_vocabulary()`` lists them in
that order. With one OOV id every unknown token gets it; with several, a hash of the token
(an int: the token modulo the count, as in Keras) picks one, so unknown tokens still differ.

``adapt(data)`` learns the vocabulary: the tokens sorted by how often they occur, most
often first, ties broken by the token itself in descending order (Keras' rule, so a
vocabulary is the same on every run), cut to ``max_tokens`` ids in all.

The layer runs its lookup on host arrays inside ``ek.py_function``, so it works eagerly, in
``Dataset.map`` and in ``ek.function`` (where a vocabulary adapted after the trace is used).
Its config holds the vocabulary (given or adapted), so ``from_config`` and ``model.save`` /
``load_model`` give a layer that looks tokens up the same way.
"""

import collections

import numpy as np

from eagerkit import dtypes
from eagerkit.errors import InvalidArgumentError
from eagerkit.keras.layers.adapt_statistics import batches_of
from eagerkit.keras.layers.base import Layer
from eagerkit.keras.layers.category_outputs import (
    check_dense,
    checked_mode,
    count_argument,
    encode,
    host_array,
)
from eagerkit.py_function import py_function
from eagerkit.tensor import Tensor, convert_to_tensor


class IndexLookup(Layer):
    """The base of ``StringLookup`` and ``IntegerLookup`` (see those for Examples)."""

    _built_at_init = True  # no weights of its own: Keras 3 builds it in the constructor

    _autocast = False  # tokens are text or ids: a float is refused, never cast
    token_kind = "token"  # what the subclass looks up, for messages

    def __init__(
        self,
        max_tokens=None,
        num_oov_indices=1,
        mask_token=None,
        oov_token=None,
        vocabulary=None,
        invert=False,
        output_mode="int",
        pad_to_max_tokens=False,
        sparse=False,
        **kwargs,
    ):
        call = type(self).__name__
        self.output_mode = checked_mode(output_mode, call)
        check_dense(sparse, call)
        num_oov_indices = count_argument(
            num_oov_indices, "num_oov_indices", call, 0,
            "; 1 (the default) gives every unknown token one id",
        )  # fmt: skip
        if invert and self.output_mode != "int":
            raise InvalidArgumentError(
                f"{call}: invert=True maps ids back to tokens, so output_mode must be 'int', "
                f"got {self.output_mode!r}; make the inverting layer with output_mode='int'",
                op=call,
            )
        if max_tokens is not None:  # it counts the mask and OOV ids too
            max_tokens = count_argument(max_tokens, "max_tokens", call, 2, " (or None)")
        if pad_to_max_tokens and max_tokens is None:
            raise InvalidArgumentError(
                f"{call}: pad_to_max_tokens=True pads the outputs to max_tokens, which is "
                "None; give max_tokens too",
                op=call,
            )
        super().__init__(**kwargs)
        self.max_tokens, self.num_oov_indices = max_tokens, num_oov_indices
        self.mask_token, self.oov_token = mask_token, oov_token
        self.invert, self.pad_to_max_tokens, self.sparse = bool(invert), pad_to_max_tokens, False
        self.vocabulary_given = vocabulary is not None
        self._tokens, self._ids = [], {}  # the vocabulary (no special tokens) and its ids
        if vocabulary is not None:
            self.set_vocabulary(vocabulary)

    # --- the vocabulary ---------------------------------------------------------------------
    def _token_start(self):
        """The id of the first vocabulary token (after the mask's and the OOV ids)."""
        return self._oov_start() + self.num_oov_indices

    def _oov_start(self):
        return 1 if self.mask_token is not None and self.output_mode == "int" else 0

    def vocabulary_size(self):
        """How many ids the layer gives: special tokens included (Keras' count).

        Examples
        --------
        >>> import eagerkit as ek
        >>> ek.keras.layers.StringLookup(vocabulary=["a", "b"]).vocabulary_size()
        3
        """
        return self._token_start() + len(self._tokens)

    def get_vocabulary(self, include_special_tokens=True):
        """The token of each id, in id order: mask token, OOV tokens, then the vocabulary.

        Examples
        --------
        >>> import eagerkit as ek
        >>> layer = ek.keras.layers.StringLookup(vocabulary=["a", "b"], mask_token="")
        >>> layer.get_vocabulary(), layer.get_vocabulary(include_special_tokens=False)
        (['', '[UNK]', 'a', 'b'], ['a', 'b'])
        """
        tokens = [self._shown(t) for t in self._tokens]
        if not include_special_tokens:
            return tokens
        mask = [self.mask_token] if self._oov_start() else []
        return mask + [self.oov_token] * self.num_oov_indices + tokens

    def set_vocabulary(self, vocabulary):
        """Use ``vocabulary`` (a list, array or tensor of tokens, or the path of a text file
        with one token a line). A leading mask and OOV tokens, as ``get_vocabulary`` lists
        them, are skipped. A bad vocabulary changes nothing."""
        call = f"{type(self).__name__}.set_vocabulary"
        tokens = self._vocabulary_tokens(vocabulary, call)
        special = [self._key(t) for t in self.get_vocabulary()[: self._token_start()]]
        if tokens[: len(special)] == special:
            tokens = tokens[len(special) :]  # a get_vocabulary() list, specials and all
        for name, token in (("mask_token", self.mask_token), ("oov_token", self.oov_token)):
            if token is not None and self._key(token) in tokens:
                raise InvalidArgumentError(
                    f"{call}: the vocabulary holds the {name} {token!r}, which has its own "
                    f"id; leave it out of the vocabulary (or choose another {name})",
                    op=call,
                )
        repeated = [t for t, n in collections.Counter(tokens).items() if n > 1]
        if repeated:
            shown = [self._shown(t) for t in repeated[:5]]
            raise InvalidArgumentError(
                f"{call}: the vocabulary repeats {shown}; give each {self.token_kind} once",
                op=call,
            )
        if self.max_tokens is not None and self._token_start() + len(tokens) > self.max_tokens:
            raise InvalidArgumentError(
                f"{call}: {len(tokens)} {self.token_kind}s and {self._token_start()} special "
                f"ids are more than max_tokens={self.max_tokens}; give a shorter vocabulary "
                "or a larger max_tokens",
                op=call,
            )
        self._use(tokens)

    def _use(self, tokens):
        self._tokens, self._ids = tokens, {t: i for i, t in enumerate(tokens)}

    def _vocabulary_tokens(self, vocabulary, call):
        if isinstance(vocabulary, str):  # Keras: a path to a file, one token a line
            try:
                with open(vocabulary, encoding="utf-8") as file:
                    vocabulary = file.read().splitlines()
            except OSError as error:
                raise InvalidArgumentError(
                    f"{call}: vocabulary {vocabulary!r} is read as a file of tokens, one a "
                    f"line, but {error.strerror}; pass a list of tokens, or the file's path",
                    op=call,
                ) from None
            vocabulary = [self._from_line(line) for line in vocabulary]
        if isinstance(vocabulary, (list, tuple)) and not vocabulary:
            return []  # an empty vocabulary: every token is unknown
        values = _host(vocabulary)
        if values.ndim > 1:
            raise InvalidArgumentError(
                f"{call}: the vocabulary is a list of {self.token_kind}s (rank 1), got "
                f"shape {list(values.shape)}; pass a flat list, e.g. vocabulary=['a', 'b'] "
                "(or the integer codes [3, 7] for IntegerLookup)",
                op=call,
            )
        self._check_dtype(dtypes.as_dtype(values.dtype), call, "the vocabulary")
        return [self._key(v) for v in values.tolist()]

    # --- learning it ------------------------------------------------------------------------
    def adapt(self, data, steps=None):
        """Learn the vocabulary from ``data``: tokens in a list, array or tensor, or an
        ``ek.data.Dataset`` of them (its first ``steps`` batches; ``(tokens, labels)``
        pairs give their tokens). The most frequent come first. A failed adapt changes
        nothing."""
        call = f"{type(self).__name__}.adapt"
        if self.vocabulary_given:
            raise InvalidArgumentError(
                f"{call}: layer '{self.name}' was made with vocabulary=, which adapt would "
                f"replace; make it without one to learn it, e.g. {type(self).__name__}()"
                ".adapt(data)",
                op=call,
            )
        counts = collections.Counter()
        for batch in batches_of(data, call, steps):
            values = _host(batch)
            self._check_dtype(dtypes.as_dtype(values.dtype), call, "the data")
            counts.update(self._key(v) for v in values.reshape(-1).tolist())
        self._learn(counts, call)

    def _learn(self, counts, call):
        """Make the vocabulary from ``counts`` (a Counter of token keys): Keras' order."""
        for special in (self.mask_token, self.oov_token):
            if special is not None:
                counts.pop(self._key(special), None)  # they have their own ids already
        if not counts:
            raise InvalidArgumentError(
                f"{call}: the data holds no {self.token_kind}s to learn a vocabulary from; "
                "pass the training data, e.g. layer.adapt(train_tokens)",
                op=call,
            )
        ranked = sorted(counts, key=lambda t: (counts[t], t), reverse=True)
        if self.max_tokens is not None:
            ranked = ranked[: max(self.max_tokens - self._token_start(), 0)]
        self._use(ranked)

    # --- looking up -------------------------------------------------------------------------
    def call(self, inputs):
        inputs = convert_to_tensor(inputs)  # call() itself may get an array
        call = type(self).__name__
        if self.invert:
            return py_function(self._tokens_of_ids, [inputs], self._token_dtype())
        self._check_dtype(inputs.dtype, call, "inputs")
        out = dtypes.int64 if self.output_mode == "int" else self.dtype
        return py_function(self._encoded_ids, [inputs], out)

    def _encoded_ids(self, inputs):
        return self._encoded_values(host_array(inputs))

    def _encoded_values(self, values):
        """The layer's output for the numpy array ``values`` of tokens, as numpy."""
        ids = self._ids_of(values)
        depth = self.max_tokens if self.pad_to_max_tokens else self.vocabulary_size()
        dtype = np.int64 if self.output_mode == "int" else self.dtype.as_numpy_dtype
        return encode(ids, self.output_mode, depth, dtype, None, type(self).__name__)

    def _ids_of(self, values):
        """Each token's id: vocabulary, OOV bucket, or the mask's (0; -1, no id, in the
        counting modes, where the mask token has no id and is left out)."""
        keys = [self._key(v) for v in values.reshape(-1).tolist()]
        ids = np.array([self._ids.get(k, -1) for k in keys], np.int64).reshape(values.shape)
        known = ids >= 0
        ids[known] += self._token_start()
        unknown = ~known
        if self.mask_token is not None:
            masked = values == self._mask_value()
            unknown &= ~masked
            ids[masked] = 0 if self.output_mode == "int" else -1
        if unknown.any():
            if self.num_oov_indices == 0:
                shown = sorted({self._shown(k) for k in values[unknown].tolist()})[:5]
                raise InvalidArgumentError(
                    f"{type(self).__name__}: with num_oov_indices=0 every input must be in "
                    f"the vocabulary, but {shown} are not; set num_oov_indices=1 to give "
                    "unknown tokens an id",
                    op=type(self).__name__,
                )
            buckets = self._oov_buckets(values[unknown]) if self.num_oov_indices > 1 else 0
            ids[unknown] = self._oov_start() + buckets
        return ids

    def _tokens_of_ids(self, inputs):
        """invert=True: each id's token; an OOV or unknown id gives the OOV token."""
        ids = host_array(inputs)
        if ids.dtype.kind not in "iu":
            raise InvalidArgumentError(
                f"{type(self).__name__}(invert=True) maps integer ids to tokens, got "
                f"{inputs.dtype.name} inputs; pass ids, e.g. the output of a lookup layer",
                op=type(self).__name__,
            )
        table = [self._raw(t) for t in self.get_vocabulary()]
        # Vocabulary ids give their token; id 0 with a mask token the mask; all else OOV.
        first = 0 if self._oov_start() else self._token_start()
        oov = self._raw(self.oov_token)
        found = [
            table[i] if first <= i < len(table) and not 0 < i < self._token_start() else oov
            for i in ids.reshape(-1).tolist()
        ]
        result = np.empty(len(found), dtype=self._token_dtype().as_numpy_dtype)
        result[:] = found
        return convert_to_tensor(result.reshape(ids.shape), dtype=self._token_dtype())

    def get_config(self):
        return {
            **super().get_config(),
            "max_tokens": self.max_tokens,
            "num_oov_indices": self.num_oov_indices,
            "mask_token": self.mask_token,
            "oov_token": self.oov_token,
            "vocabulary": self.get_vocabulary(include_special_tokens=False) or None,
            "invert": self.invert,
            "output_mode": self.output_mode,
            "pad_to_max_tokens": self.pad_to_max_tokens,
            "sparse": self.sparse,
        }


def _host(batch):
    """A batch's values as a numpy array (text as an object array of bytes)."""
    if isinstance(batch, Tensor):
        return host_array(batch)
    return host_array(convert_to_tensor(batch))
