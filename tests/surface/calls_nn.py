"""Valid calls of ``ek.nn``, ``ek.linalg``, ``ek.random``, ``ek.strings`` and ``ek.image``."""

import math

import numpy as np

import eagerkit as ek

from .declare import call, fresh
from .values import (
    F3,
    F23,
    F32,
    GRAY,
    IMAGE,
    KERNEL,
    LABELS,
    ONE_HOT,
    ONE_IMAGE,
    P3,
    P23,
    S2,
    SPD,
    softmax,
)

_relu = np.vectorize(lambda v: max(v, 0.0), otypes=[np.float32])
_gelu = np.vectorize(lambda v: v * 0.5 * (1 + math.erf(v / math.sqrt(2))), otypes=[np.float32])


SEQUENCE = ek.constant(np.arange(15, dtype=np.float32).reshape(1, 5, 3) / 15.0)  # [1, 5, 3]


def _sigmoid_xent(labels, logits):
    return np.maximum(logits, 0) - logits * labels + np.log1p(np.exp(-np.abs(logits)))


def _softmax_xent(labels, logits):
    return -(labels * np.log(softmax(logits))).sum(-1)


CALLS = {
    "ek.nn.relu": call(F23, numpy=_relu),
    "ek.nn.elu": call(F23, numpy=lambda x: np.where(x > 0, x, np.expm1(x))),
    "ek.nn.gelu": call(F23, numpy=_gelu),
    "ek.nn.leaky_relu": call(F23, numpy=lambda x: np.where(x > 0, x, 0.2 * x)),
    "ek.nn.softplus": call(F23, numpy=lambda x: np.log1p(np.exp(x))),
    "ek.nn.softmax": call(F23, numpy=softmax),
    "ek.nn.log_softmax": call(F23, numpy=lambda x: np.log(softmax(x))),
    "ek.nn.l2_loss": call(F23, numpy=lambda x: (x**2).sum() / 2),
    "ek.nn.bias_add": call(F23, ek.constant([1.0, 2.0, 3.0]), numpy=np.add),
    "ek.nn.xw_plus_b": call(F23, F32, ek.constant([1.0, 2.0]), numpy=lambda x, w, b: x @ w + b),
    "ek.nn.relu_layer": call(
        F23, F32, ek.constant([1.0, -9.0]), numpy=lambda x, w, b: np.maximum(x @ w + b, 0)
    ),
    "ek.nn.sigmoid_cross_entropy_with_logits": call(
        labels=ONE_HOT, logits=F23, numpy=_sigmoid_xent
    ),
    "ek.nn.weighted_cross_entropy_with_logits": call(
        ONE_HOT, F23, 1.0, numpy=lambda z, x, w: _sigmoid_xent(z, x)
    ),
    "ek.nn.compute_average_loss": call(
        F3,
        sample_weight=P3,
        global_batch_size=4,
        numpy=lambda losses, sample_weight, global_batch_size: (losses * sample_weight).sum() / 4,
    ),
    "ek.nn.softmax_cross_entropy_with_logits": call(
        labels=ONE_HOT, logits=F23, numpy=_softmax_xent
    ),
    "ek.nn.sparse_softmax_cross_entropy_with_logits": call(
        labels=LABELS,
        logits=F23,
        numpy=lambda labels, logits: _softmax_xent(ONE_HOT.numpy(), logits),
    ),
    "ek.nn.conv2d": call(
        IMAGE,
        KERNEL,
        1,
        "VALID",
        check=lambda r: np.testing.assert_allclose(
            r.numpy()[0, 0, 0], 0.1 * IMAGE.numpy()[0, :2, :2].sum() * np.ones(2), rtol=1e-5
        ),
    ),
    "ek.nn.conv1d": call(
        SEQUENCE,
        np.full((2, 3, 2), 0.1, np.float32),
        1,
        "VALID",
        numpy=lambda x, w, *_: (x[:, :-1] + x[:, 1:]).sum(-1, keepdims=True) * 0.1 * np.ones(2),
    ),
    "ek.nn.conv2d_transpose": call(
        IMAGE,
        np.full((2, 2, 2, 3), 0.1, np.float32),
        [1, 8, 8, 2],
        2,
        "SAME",
        numpy=lambda x, w, *_: (
            np.repeat(np.repeat(x.sum(-1) * 0.1, 2, 1), 2, 2)[..., None] * np.ones(2, np.float32)
        ),
    ),
    "ek.nn.conv1d_transpose": call(
        SEQUENCE,
        np.full((2, 2, 3), 0.1, np.float32),
        [1, 10, 2],
        2,
        numpy=lambda x, w, *_: np.repeat(x.sum(-1) * 0.1, 2, 1)[..., None] * np.ones(2, np.float32),
    ),
    "ek.nn.max_pool1d": call(
        SEQUENCE, 2, 2, "VALID", numpy=lambda x, *_: x[:, :4].reshape(1, 2, 2, 3).max(2)
    ),
    "ek.nn.avg_pool1d": call(
        SEQUENCE, 2, 2, "VALID", numpy=lambda x, *_: x[:, :4].reshape(1, 2, 2, 3).mean(2)
    ),
    "ek.nn.max_pool": call(
        IMAGE, 2, 2, "VALID", numpy=lambda x, *_: x.reshape(1, 2, 2, 2, 2, 3).max((2, 4))
    ),
    "ek.nn.avg_pool": call(
        IMAGE, 2, 2, "VALID", numpy=lambda x, *_: x.reshape(1, 2, 2, 2, 2, 3).mean((2, 4))
    ),
    "ek.linalg.matrix_transpose": call(F23, numpy=np.transpose),
    "ek.linalg.svd": call(
        SPD, compute_uv=False, numpy=lambda a, compute_uv: np.linalg.svd(a, compute_uv=False)
    ),
    # random: seeded, so the answer repeats; stateless draws depend on the seed alone
    "ek.random.shuffle": call(P23, seed=1, check=lambda r: _same_rows(r, P23)),
    "ek.random.stateless_normal": call([2, 3], seed=[1, 2], check=lambda r: _shape(r, (2, 3))),
    "ek.random.stateless_truncated_normal": call([4], seed=[1, 2], check=lambda r: _within(r, 2)),
    "ek.random.stateless_uniform": call([4], seed=[1, 2], check=lambda r: _within(r, 1)),
    "ek.random.get_global_generator": call(),
    "ek.random.set_global_generator": call(fresh(lambda: ek.random.Generator.from_seed(1))),
    "ek.random.Generator": call(seed=1),
    "ek.random.Generator.from_seed": call(1),
    "ek.random.Generator.from_non_deterministic_state": call(repeatable=False),
    "ek.random.Generator.normal": call([2, 3], check=lambda r: _shape(r, (2, 3))),
    "ek.random.Generator.truncated_normal": call([4], check=lambda r: _within(r, 2)),
    "ek.random.Generator.uniform": call([4], check=lambda r: _within(r, 1)),
    "ek.random.Generator.reset_from_seed": call(3),
    "ek.random.Generator.split": call(2, check=lambda r: len(r) == 2),
    "ek.random.Generator.__repr__": call(check=lambda r: r.startswith("<ek.random.Generator")),
    # (Enum's functional API, Algorithm(1, names=...), makes a new Enum: not fuzzed)
    "ek.random.Algorithm": call(
        1,
        check=lambda r: r is ek.random.Algorithm.PHILOX,
        fixed=("names", "module", "qualname", "type", "start", "boundary"),
    ),
    "ek.random.Generator.from_state": call([0, 0, 7], "philox"),
    "ek.random.Generator.from_key_counter": call(7, [0, 0], "philox"),
    "ek.random.Generator.reset": call([0, 0, 7]),
    "ek.random.Generator.reset_from_key_counter": call(7, [1, 0]),
    "ek.random.Generator.make_seeds": call(3, check=lambda r: _shape(r, (2, 3))),
    "ek.random.Generator.uniform_full_int": call([4], check=lambda r: _shape(r, (4,))),
    # text
    "ek.strings.as_string": call(
        ek.constant([1.5, 2.0]), numpy=lambda x: [b"1.500000", b"2.000000"]
    ),
    "ek.strings.join": call(
        [S2, S2], separator="-", numpy=lambda v, separator: [b"Hello-Hello", b"World-World"]
    ),
    "ek.strings.reduce_join": call(S2, separator=" ", check=lambda r: r.numpy() == b"Hello World"),
    "ek.strings.length": call(S2, numpy=lambda s: [5, 5]),
    "ek.strings.lower": call(S2, numpy=lambda s: [b"hello", b"world"]),
    "ek.strings.upper": call(S2, numpy=lambda s: [b"HELLO", b"WORLD"]),
    "ek.strings.strip": call(ek.constant([" a ", "b\n"]), numpy=lambda s: [b"a", b"b"]),
    "ek.strings.regex_replace": call(S2, "o", "0", numpy=lambda *a: [b"Hell0", b"W0rld"]),
    "ek.strings.to_number": call(ek.constant(["1.5", "-2"]), numpy=lambda s: [1.5, -2.0]),
    # images: [batch, height, width, channels], values in [0, 1)
    "ek.image.adjust_brightness": call(IMAGE, 0.25, numpy=np.add),
    "ek.image.adjust_contrast": call(
        IMAGE,
        2.0,
        numpy=lambda x, c: (x - x.mean((1, 2), keepdims=True)) * c + x.mean((1, 2), keepdims=True),
    ),
    "ek.image.central_crop": call(ONE_IMAGE, 0.5, numpy=lambda x, f: x[1:3, 1:3]),
    "ek.image.convert_image_dtype": call(
        ek.constant([[[0.5]]]), ek.uint8, numpy=lambda x, d: [[[127]]]
    ),
    "ek.image.crop_to_bounding_box": call(ONE_IMAGE, 1, 0, 2, 3, numpy=lambda x, *_: x[1:3, 0:3]),
    "ek.image.pad_to_bounding_box": call(
        ONE_IMAGE, 1, 0, 5, 4, numpy=lambda x, *_: np.pad(x, [(1, 0), (0, 0), (0, 0)])
    ),
    "ek.image.resize_with_crop_or_pad": call(ONE_IMAGE, 2, 2, numpy=lambda x, *_: x[1:3, 1:3]),
    "ek.image.flip_left_right": call(IMAGE, numpy=lambda x: x[:, :, ::-1]),
    "ek.image.flip_up_down": call(IMAGE, numpy=lambda x: x[:, ::-1]),
    "ek.image.transpose": call(IMAGE, numpy=lambda x: x.transpose(0, 2, 1, 3)),
    "ek.image.rot90": call(ONE_IMAGE, numpy=lambda x: np.rot90(x)),
    "ek.image.grayscale_to_rgb": call(GRAY, numpy=lambda x: np.repeat(x, 3, -1)),
    "ek.image.rgb_to_grayscale": call(
        IMAGE, numpy=lambda x: (x * [0.2989, 0.587, 0.114]).sum(-1, keepdims=True)
    ),
    "ek.image.per_image_standardization": call(
        ONE_IMAGE, numpy=lambda x: (x - x.mean()) / max(x.std(), 1 / math.sqrt(x.size))
    ),
    "ek.image.random_flip_left_right": call(IMAGE, seed=1, check=lambda r: _shape(r, (1, 4, 4, 3))),
    "ek.image.random_flip_up_down": call(IMAGE, seed=1, check=lambda r: _shape(r, (1, 4, 4, 3))),
    "ek.image.random_crop": call(
        IMAGE, [1, 2, 3, 3], seed=1, check=lambda r: _shape(r, (1, 2, 3, 3))
    ),
    "ek.image.resize": call(
        IMAGE, [2, 2], method="nearest", check=lambda r: _shape(r, (1, 2, 2, 3))
    ),
}


def _shape(result, shape):
    assert tuple(result.shape) == shape, result


def _within(result, bound):
    assert (np.abs(result.numpy()) <= bound).all(), result


def _same_rows(result, original):
    assert sorted(map(tuple, result.numpy())) == sorted(map(tuple, original.numpy())), result
