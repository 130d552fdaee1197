"""``ek.image``: the ``tf.image`` functions tutorials use most, as ``tf.image`` lays them out.

Images are ``[height, width, channels]`` or batches ``[batch, height, width, channels]``
(NHWC, as in TF). Every function is a composition of ordinary ops, so gradients flow
through all of them (to the pixels, say, for an adversarial example).

Examples
--------
>>> import eagerkit as ek
>>> image = ek.random.uniform([32, 32, 3], seed=1)
>>> ek.image.resize(ek.image.flip_left_right(image), [16, 16]).shape
TensorShape([16, 16, 3])
"""

from eagerkit.image.color import (
    adjust_brightness,
    adjust_contrast,
    convert_image_dtype,
    grayscale_to_rgb,
    per_image_standardization,
    rgb_to_grayscale,
)
from eagerkit.image.crops import (
    central_crop,
    crop_to_bounding_box,
    pad_to_bounding_box,
    random_crop,
    resize_with_crop_or_pad,
)
from eagerkit.image.geometry import (
    flip_left_right,
    flip_up_down,
    random_flip_left_right,
    random_flip_up_down,
    rot90,
    transpose,
)
from eagerkit.image.resize import ResizeMethod, resize

__all__ = [
    "ResizeMethod",
    "adjust_brightness",
    "adjust_contrast",
    "central_crop",
    "convert_image_dtype",
    "crop_to_bounding_box",
    "flip_left_right",
    "flip_up_down",
    "grayscale_to_rgb",
    "pad_to_bounding_box",
    "per_image_standardization",
    "random_crop",
    "random_flip_left_right",
    "random_flip_up_down",
    "resize",
    "resize_with_crop_or_pad",
    "rgb_to_grayscale",
    "rot90",
    "transpose",
]
