"""Where pixels go: flips, quarter turns and transposes (one image HWC or a batch NHWC).

Each is a reversed slice or a transpose, so the gradient of a pixel goes back to where the
pixel came from.
"""

from eagerkit.image.checks import image_tensor, integers
from eagerkit.ops.compare import where
from eagerkit.ops.shape import reshape
from eagerkit.ops.shape import transpose as transpose_axes
from eagerkit.random import uniform


def _flip(x, axis):
    """``x`` reversed along ``axis`` (counted from the end: -3 is height, -2 width)."""
    key = [slice(None)] * x.ndim
    key[axis] = slice(None, None, -1)
    return x[tuple(key)]


def flip_left_right(image):
    """Mirror the image (each image of a batch) left to right.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.image.flip_left_right([[[1], [2], [3]]]).numpy().ravel()
    array([3, 2, 1], dtype=int32)
    """
    x, _ = image_tensor(image, "flip_left_right")
    return _flip(x, x.ndim - 2)


def flip_up_down(image):
    """Mirror the image (each image of a batch) top to bottom.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.image.flip_up_down([[[1]], [[2]]]).numpy().ravel()
    array([2, 1], dtype=int32)
    """
    x, _ = image_tensor(image, "flip_up_down")
    return _flip(x, x.ndim - 3)


def transpose(image, name=None):
    """Swap height and width (a mirror in the main diagonal).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.image.transpose(ek.zeros([2, 5, 3])).shape
    TensorShape([5, 2, 3])
    """
    x, batched = image_tensor(image, "transpose")
    return transpose_axes(x, [0, 2, 1, 3] if batched else [1, 0, 2])


def rot90(image, k=1, name=None):
    """Rotate by ``k`` quarter turns counter-clockwise (``np.rot90`` on height and width).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.image.rot90([[[1], [2]], [[3], [4]]]).numpy()[..., 0]
    array([[2, 4],
           [1, 3]], dtype=int32)
    """
    x, _ = image_tensor(image, "rot90")
    (turns,) = integers("rot90", k=k)
    turns %= 4
    if turns == 1:  # reverse the columns, then swap rows and columns
        return transpose(_flip(x, x.ndim - 2))
    if turns == 2:
        return _flip(_flip(x, x.ndim - 2), x.ndim - 3)
    if turns == 3:
        return _flip(transpose(x), x.ndim - 2)
    return x


def _random_flip(image, seed, axis_from_end, op):
    """Flip with probability 1/2: one coin for an image, one per image for a batch (TF's)."""
    x, batched = image_tensor(image, op)
    axis = x.ndim - axis_from_end
    if not batched:
        flips = uniform([], seed=seed) < 0.5
        return _flip(x, axis) if bool(flips) else x
    coins = uniform([x.shape[0]], seed=seed)
    flips = reshape(coins >= 0.5, [x.shape[0], 1, 1, 1])  # TF rounds the coin: 0.5 flips not
    return where(flips, _flip(x, axis), x)


def random_flip_left_right(image, seed=None):
    """``flip_left_right`` with probability 1/2 (each image of a batch on its own coin).

    Seeded as ``ek.random``: ``ek.random.set_seed`` and ``seed=`` make it repeatable.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.random.set_seed(0)
    >>> ek.image.random_flip_left_right(ek.ones([4, 2, 2, 1]), seed=1).shape
    TensorShape([4, 2, 2, 1])
    """
    return _random_flip(image, seed, 2, "random_flip_left_right")


def random_flip_up_down(image, seed=None):
    """``flip_up_down`` with probability 1/2 (each image of a batch on its own coin).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.image.random_flip_up_down(ek.ones([2, 2, 1]), seed=1).shape
    TensorShape([2, 2, 1])
    """
    return _random_flip(image, seed, 3, "random_flip_up_down")
