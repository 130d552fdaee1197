"""What every ``ek.image`` function checks first: an image tensor of the right rank, and
whole-number sizes and offsets. The error texts start with TF's own (``'image' (shape
(4,)) must have either 3 or 4 dimensions.``) so a search for TF's message finds ours.
"""

from eagerkit.arguments import whole_number
from eagerkit.errors import InvalidArgumentError
from eagerkit.tensor import convert_to_tensor


def image_tensor(image, op, name="image"):
    """``(tensor, batched)`` for an ``[height, width, channels]`` image or an NHWC batch."""
    x = convert_to_tensor(image)
    if x.ndim not in (3, 4):
        raise InvalidArgumentError(
            f"'{name}' (shape {x.shape}) must have either 3 or 4 dimensions. {op} takes one "
            "image [height, width, channels] or a batch [batch, height, width, channels]; "
            "a grayscale [height, width] image needs x[..., None] first",
            op=op,
        )
    return x, x.ndim == 4


def size_of(x):
    """``(height, width)`` of an image or of the images in a batch."""
    return int(x.shape[-3]), int(x.shape[-2])


def integers(op, **values):
    """The named arguments as Python ints (fractions refused, never truncated)."""
    return [whole_number(value, what, op) for what, value in values.items()]


def require(condition, tf_text, op, x, detail):
    """Raise TF's ``tf_text`` with the image's shape and the numbers behind it unless true."""
    if not condition:
        raise InvalidArgumentError(f"{op}: {tf_text} (image shape {x.shape}: {detail})", op=op)
