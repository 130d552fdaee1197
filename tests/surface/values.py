"""Valid arguments the declared calls share: small tensors with easy, exact values.

Tensors are immutable, so one of each serves every call; what a call may change (a
Variable, a layer, a file) is made fresh by the call's declaration.
"""

import numpy as np

import eagerkit as ek

F3 = ek.constant([0.5, -1.5, 2.0])  # float32[3]
P3 = ek.constant([0.5, 1.5, 2.0])  # positive
F23 = ek.constant([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
P23 = ek.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
U23 = ek.constant([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])  # inside (-1, 1): asin, atanh
F32 = ek.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
SPD = ek.constant([[4.0, 1.0], [1.0, 3.0]])  # symmetric positive definite
I3 = ek.constant([0, 2, 1])  # int32 indices into 3 classes
I23 = ek.constant([[1, 2, 3], [4, 5, 6]])
B3 = ek.constant([True, False, True])
S2 = ek.constant(["Hello", "World"])
IMAGE = ek.constant(np.arange(48, dtype=np.float32).reshape(1, 4, 4, 3) / 48.0)
ONE_IMAGE = IMAGE[0]  # [4, 4, 3]
GRAY = ek.constant(np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1) / 16.0)
KERNEL = ek.constant(np.full((2, 2, 3, 2), 0.1, dtype=np.float32))  # 2x2, 3 -> 2 channels
PROBS = ek.constant([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6]])  # rows sum to 1
ONE_HOT = ek.constant([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
LABELS = ek.constant([0, 2])  # the classes of ONE_HOT
BINARY = ek.constant([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])


def variable(value=((1.0, 2.0), (3.0, 4.0)), **kwargs):
    return ek.Variable(np.array(value, dtype=np.float32), **kwargs)


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
