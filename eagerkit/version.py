"""``ek.version``: the version, where TF's tutorials print it (``tf.version.VERSION``, also
``ek.__version__``).

>>> import eagerkit as ek
>>> ek.version.VERSION == ek.__version__
True
"""

VERSION = "0.1.0"

__all__ = ["VERSION"]
