"""TF 2's initializers under their top-level names: ``ek.zeros_initializer()``, ...

TF 2 has these beside Keras' (``tf.keras.initializers.Zeros``, ...), and TF's guides use
them where a layer makes its own ``tf.Variable`` instead of calling ``add_weight``. Each is
Keras' initializer of the same kind (the same arguments and defaults, the same values),
under the name TF 2 gives it (a lowercase class name, as TF's).

Examples
--------
>>> import eagerkit as ek
>>> w_init = ek.random_normal_initializer(seed=1)
>>> w = ek.Variable(initial_value=w_init(shape=(2, 3), dtype="float32"), trainable=True)
>>> w.shape, w.dtype
(TensorShape([2, 3]), ek.float32)
>>> ek.zeros_initializer()(shape=(2,), dtype="float32")
<ek.Tensor: shape=(2,), dtype=float32, numpy=array([0., 0.], dtype=float32)>
"""

from eagerkit.keras import initializers


class _TopLevelName:
    """Shown under the name the user called (``ek.zeros_initializer()``)."""

    def __repr__(self):
        return f"ek.{type(self).__name__}()"


class zeros_initializer(_TopLevelName, initializers.Zeros):
    """TF 2's ``tf.zeros_initializer``: all zeros (Keras' ``Zeros``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.zeros_initializer()([2, 2]).numpy().tolist()
    [[0.0, 0.0], [0.0, 0.0]]
    """


class ones_initializer(_TopLevelName, initializers.Ones):
    """TF 2's ``tf.ones_initializer``: all ones (Keras' ``Ones``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.ones_initializer()([3], dtype=ek.float64).numpy().tolist()
    [1.0, 1.0, 1.0]
    """


class constant_initializer(_TopLevelName, initializers.Constant):
    """TF 2's ``tf.constant_initializer(value=0)``: every entry ``value`` (Keras' ``Constant``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.constant_initializer(2.0)([2]).numpy().tolist()
    [2.0, 2.0]
    """

    def __init__(self, value=0):
        super().__init__(value)


class random_normal_initializer(_TopLevelName, initializers.RandomNormal):
    """TF 2's ``tf.random_normal_initializer(mean=0.0, stddev=0.05, seed=None)``: normal
    samples (Keras' ``RandomNormal``); with ``seed`` the same numbers on every call.

    Examples
    --------
    >>> import eagerkit as ek
    >>> init = ek.random_normal_initializer(stddev=1.0, seed=3)
    >>> bool(ek.reduce_all(init([4]) == init([4])))
    True
    """


class random_uniform_initializer(_TopLevelName, initializers.RandomUniform):
    """TF 2's ``tf.random_uniform_initializer(minval=-0.05, maxval=0.05, seed=None)``:
    uniform samples (Keras' ``RandomUniform``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> values = ek.random_uniform_initializer(0.0, 1.0, seed=2)([100]).numpy()
    >>> bool((values >= 0.0).all() and (values < 1.0).all())
    True
    """
