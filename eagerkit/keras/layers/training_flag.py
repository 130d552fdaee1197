"""Keras' ``training`` flag, passed down from a call to the calls inside it.

``fit`` calls a model with ``training=True``, ``predict`` and ``evaluate`` with ``False``. A
subclassed model's ``call`` need not hand the flag on: a layer called inside another layer's
call runs with the flag that call runs with, unless it is given one itself. So a Dropout in a
model whose ``call(self, x)`` takes no ``training`` still drops during ``fit``, and not in
``predict``, as in Keras. In order, a call runs with:

1. the ``training`` it is given (by keyword or by position), if not None;
2. else the flag of the layer call it runs inside;
3. else the default of its ``call``'s ``training`` parameter (None where it has none).

Where ``call`` takes a ``training`` parameter (or ``**kwargs``), it gets the flag from 1 or 2;
where it takes none, the flag is not passed (Sequential hands one to every layer).

Examples
--------
>>> import eagerkit as ek
>>> class Shows(ek.keras.layers.Layer):
...     def call(self, inputs, training=False):
...         print("training:", training)
...         return inputs
>>> class Model(ek.keras.Model):
...     def __init__(self):
...         super().__init__()
...         self.inner = Shows()
...     def call(self, x):  # takes no training, passes none on
...         return self.inner(x)
>>> _ = Model()(ek.ones([1, 2]), training=True)
training: True
>>> _ = Model()(ek.ones([1, 2]))
training: False
"""

import inspect

# The flag of the innermost layer call running now (None: no call running, or none said).
current = [None]

_NOT_TAKEN = -1  # call() has no training parameter and no **kwargs
_BY_KEYWORD = 1 << 30  # call() takes it by keyword only (or through **kwargs)
_PARAMETER = {}  # layer class -> (training's position among call's arguments after inputs,
#                                  its default)


def _parameter(cls):
    """Where ``cls.call`` takes ``training`` and its default, looked up once per class."""
    parameters = list(inspect.signature(cls.call).parameters.values())
    found = next((p for p in parameters if p.name == "training"), None)
    if found is None:
        takes_any = any(p.kind is p.VAR_KEYWORD for p in parameters)
        return (_BY_KEYWORD if takes_any else _NOT_TAKEN), None
    default = None if found.default is found.empty else found.default
    if found.kind is found.POSITIONAL_OR_KEYWORD:
        return parameters.index(found) - 2, default  # after self and inputs
    return _BY_KEYWORD, default


def resolve(cls, args, kwargs):
    """The flag a call of a ``cls`` layer with ``(inputs, *args, **kwargs)`` runs with; puts it
    in ``kwargs`` where ``call`` takes it and was not given it, drops it where it takes none."""
    position, default = _PARAMETER.get(cls) or _PARAMETER.setdefault(cls, _parameter(cls))
    if position == _NOT_TAKEN:
        given = kwargs.pop("training", None)
        return given if given is not None else current[0]
    if 0 <= position < len(args):
        given = args[position]  # given by position: call gets it as it is
        return given if given is not None else current[0]
    given = kwargs.get("training")
    if given is not None:
        return given
    if current[0] is not None:
        kwargs["training"] = current[0]
        return current[0]
    return default
