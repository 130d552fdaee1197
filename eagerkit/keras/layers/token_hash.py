"""The hash that ``Hashing`` and the lookups' extra OOV buckets use: BLAKE2b, not TF's.

TF hashes a string into ``num_bins`` buckets with FarmHash's Fingerprint64
(``tf.strings.to_hash_bucket_fast``) or, given a ``salt``, with keyed SipHash
(``to_hash_bucket_strong``). eagerkit uses Python's ``hashlib.blake2b`` (8-byte digests;
the salt becomes its ``key``, the way SipHash takes one): stable across runs, machines and
Python versions (unlike ``hash()``), but a different function, so **a value lands in other
bins than in TF**. Models trained here learn their own bins; bins written down from TF do
not carry over.

Examples
--------
>>> import numpy as np
>>> from eagerkit.keras.layers.token_hash import hash_buckets
>>> words = np.array([b"cat", b"dog", b"cat"], dtype=object)
>>> buckets = hash_buckets(words, 8)
>>> bool(buckets[0] == buckets[2]), bool(0 <= buckets.min() and buckets.max() < 8)
(True, True)
"""

import hashlib

import numpy as np


def salt_key(salt):
    """The 16-byte BLAKE2b key of a ``salt``: an int, or TF's pair of ints (None: no key)."""
    if salt is None:
        return b""
    pair = tuple(salt) if isinstance(salt, (list, tuple)) else (salt, salt)
    return b"".join((int(part) % 2**64).to_bytes(8, "little") for part in pair)


def hash_buckets(tokens, num_buckets, key=b""):
    """Each ``bytes`` of the object array ``tokens`` hashed into ``[0, num_buckets)``."""

    def bucket(token):
        digest = hashlib.blake2b(token, digest_size=8, key=key).digest()
        return int.from_bytes(digest, "little") % num_buckets

    flat = [bucket(token) for token in tokens.reshape(-1)]
    return np.array(flat, dtype=np.int64).reshape(tokens.shape)


def as_text(values):
    """Numbers as the bytes of their decimal text (TF's ``as_string``), text as it is."""
    if values.dtype == object:
        return values
    whole = values
    if values.dtype.kind == "f":  # TF: floats become int64 first (nan and inf: int64's least)
        with np.errstate(invalid="ignore"):
            whole = np.where(np.isfinite(values), values, np.iinfo(np.int64).min)
            whole = whole.astype(np.int64)
    return np.array([str(int(v)).encode() for v in whole.reshape(-1)], dtype=object).reshape(
        values.shape
    )
