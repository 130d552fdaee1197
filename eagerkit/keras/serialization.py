"""Keras objects as JSON-able configs and back: ``{"class_name": ..., "config": {...}}``.

A config names a class (or a function) and holds the arguments to rebuild it; it never
holds code. Loading looks each name up in a fixed table, in this order: the
``custom_objects`` given to the call, those of an active ``custom_object_scope``, the
classes and functions registered with ``register_keras_serializable``, then eagerkit's own
layers, losses, metrics, optimizers and activations. A name found nowhere is refused, so
loading a saved model runs nothing but registered constructors.

Examples
--------
>>> import eagerkit as ek
>>> @ek.keras.saving.register_keras_serializable(package="Doc")
... class Twice(ek.keras.layers.Layer):
...     def call(self, inputs):
...         return 2.0 * inputs
>>> config = ek.keras.layers.serialize(Twice(name="twice"))
>>> config["class_name"], config["config"]["name"]
('Doc>Twice', 'twice')
>>> type(ek.keras.layers.deserialize(config)).__name__
'Twice'
"""

import contextlib
import inspect

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError

_REGISTERED = {}  # "Package>Name" -> class or function
_NAME_OF = {}  # id(class or function) -> "Package>Name"
_SCOPES = []  # the dicts of the custom_object_scope blocks now open, innermost last


def register_keras_serializable(package="Custom", name=None):
    """Register a class or function under ``"package>name"`` so configs can name it.

    A class needs ``get_config`` (every Keras layer has one). Registering the same name
    again replaces the earlier entry (a notebook cell run twice), as Keras 3 does.

    Examples
    --------
    >>> import eagerkit as ek
    >>> @ek.keras.utils.register_keras_serializable(package="Doc")
    ... def doubled_error(y_true, y_pred):
    ...     return 2.0 * ek.keras.losses.mean_squared_error(y_true, y_pred)
    >>> ek.keras.utils.get_registered_name(doubled_error)
    'Doc>doubled_error'
    """
    if not isinstance(package, str) or (name is not None and not isinstance(name, str)):
        raise InvalidArgumentError(
            f"register_keras_serializable: package and name must be strings, got "
            f"package={package!r}, name={name!r}",
            op="register_keras_serializable",
        )

    def decorator(obj):
        if inspect.isclass(obj) and not hasattr(obj, "get_config"):
            raise InvalidArgumentError(
                "register_keras_serializable: Cannot register a class that does not have a "
                f"get_config() method: {obj!r}; add get_config() (a Layer subclass has one)",
                op="register_keras_serializable",
            )
        if not callable(obj) or not hasattr(obj, "__name__"):  # (a layer object is callable)
            given = f"a {type(obj).__name__} object" if callable(obj) else describe(obj)
            raise InvalidArgumentError(
                f"register_keras_serializable registers classes and functions, got {given}; "
                "put @register_keras_serializable() above a class or a def",
                op="register_keras_serializable",
            )
        registered = f"{package}>{name or obj.__name__}"
        _REGISTERED[registered] = obj
        _NAME_OF[id(obj)] = registered
        return obj

    return decorator


def get_registered_name(obj):
    """The name a config uses for ``obj``: its registered name, else its ``__name__``."""
    return _NAME_OF.get(id(obj)) or getattr(obj, "__name__", type(obj).__name__)


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The class or function called ``name`` (see the module's docstring for the order),
    or None."""
    custom_objects = checked_custom_objects(custom_objects, "get_registered_object")
    for table in (custom_objects, *reversed(_SCOPES), _REGISTERED, module_objects or {}):
        if name in table:
            return table[name]
    return None


def checked_custom_objects(custom_objects, caller):
    """``custom_objects`` as a dict (None: an empty one); anything else is refused."""
    if custom_objects is None or isinstance(custom_objects, dict):
        return custom_objects or {}
    raise InvalidArgumentError(
        f"{caller}: custom_objects must be a dict of name -> class or function, got "
        f"{describe(custom_objects)}; pass e.g. custom_objects={{'MyLayer': MyLayer}}",
        op=caller,
    )


def get_custom_objects():
    """The registry itself: ``{"Package>Name": object}`` (Keras lets users add to it)."""
    return _REGISTERED


@contextlib.contextmanager
def custom_object_scope(*scopes):
    """Inside the block, configs may name the classes and functions of the given dicts.

    Examples
    --------
    >>> import eagerkit as ek
    >>> def cube(x):
    ...     return x * x * x
    >>> with ek.keras.utils.custom_object_scope({"cube": cube}):
    ...     layer = ek.keras.layers.deserialize(
    ...         {"class_name": "Dense", "config": {"units": 2, "activation": "cube"}})
    >>> layer.activation is cube
    True
    """
    merged = {}
    for scope in scopes:
        if scope is None:
            continue
        if not isinstance(scope, dict):
            raise InvalidArgumentError(
                f"custom_object_scope takes dicts of name -> class or function, got {scope!r}",
                op="custom_object_scope",
            )
        merged.update(scope)
    _SCOPES.append(merged)
    try:
        yield merged
    finally:
        _SCOPES.remove(merged)


CustomObjectScope = custom_object_scope


def serialize_keras_object(obj):
    """``obj`` as a JSON-able value: plain values as they are, a function by its name, an
    object with ``get_config`` as ``{"class_name", "config"}``; anything else is refused.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.keras.saving.serialize_keras_object(ek.keras.losses.Huber(delta=2.0))
    {'class_name': 'Huber', 'config': {'reduction': 'auto', 'name': 'huber_loss', 'delta': 2.0}}
    """
    if obj is None or isinstance(obj, (str, bool, int, float)):
        return obj
    if inspect.isfunction(obj) or inspect.isbuiltin(obj):
        return _function_name(obj)
    if hasattr(obj, "get_config") and not inspect.isclass(obj):
        return {"class_name": get_registered_name(type(obj)), "config": obj.get_config()}
    raise InvalidArgumentError(
        f"serialize_keras_object: cannot write {obj!r:.100} into a config: only numbers, "
        "strings, functions and objects with get_config() can be saved. Register a custom "
        "class or function with @ek.keras.saving.register_keras_serializable()",
        op="serialize_keras_object",
    )


def _function_name(function):
    """A function's name in a config: its registered name, or an eagerkit built-in's name."""
    for candidate in (function, getattr(function, "__wrapped__", function)):
        if id(candidate) in _NAME_OF:
            return _NAME_OF[id(candidate)]
    from eagerkit.keras import builtin_objects

    name = builtin_objects.function_name(function) or getattr(function, "__name__", None)
    if name is None or not name.isidentifier():
        raise InvalidArgumentError(
            f"serialize_keras_object: cannot write the function {function!r} into a config: a "
            "saved model names its functions, and a lambda has no name. Use a def'd function, "
            "registered with "
            "@ek.keras.saving.register_keras_serializable() (or given to load_model in "
            "custom_objects=), or a built-in one by name (e.g. activation='relu')",
            op="serialize_keras_object",
        )
    return name  # loading finds it again only if it is built in, registered or given


def deserialize_keras_object(
    config, module_objects=None, custom_objects=None, printable_module_name="object"
):
    """The object a config describes: a name gives the class or function it names; a
    ``{"class_name", "config"}`` dict gives ``cls.from_config(config)``."""
    custom_objects = checked_custom_objects(custom_objects, "deserialize_keras_object")
    if config is None or isinstance(config, (bool, int, float)):
        return config
    if isinstance(config, str):
        return lookup(config, printable_module_name, custom_objects, module_objects, _CALLER)
    if not (isinstance(config, dict) and "class_name" in config and "config" in config):
        raise InvalidArgumentError(
            f"deserialize_keras_object: Could not interpret serialized {printable_module_name}: "
            f"{config!r:.200}; pass "
            'a name, or a dict {"class_name": ..., "config": {...}} as get_config() writes it',
            op="deserialize_keras_object",
        )
    cls = lookup(
        config["class_name"], printable_module_name, custom_objects, module_objects, _CALLER
    )
    if not isinstance(config["config"], dict):
        raise InvalidArgumentError(
            f"deserialize_keras_object: the config of {printable_module_name} "
            f"'{config['class_name']}' must be a dict, got {config['config']!r:.100}; pass "
            "what get_config() returned",
            op="deserialize_keras_object",
        )
    with custom_object_scope(custom_objects or {}):  # nested configs see them too
        parameters = inspect.signature(cls.from_config).parameters
        if "custom_objects" in parameters:
            return cls.from_config(config["config"], custom_objects=custom_objects)
        return cls.from_config(config["config"])


_CALLER = "deserialize_keras_object"


def lookup(
    name, printable_module_name="object", custom_objects=None, module_objects=None, caller=None
):
    """The class or function ``name`` names, or Keras' "Unknown ..." error (naming
    ``caller``, the public call that looked it up, when given)."""
    found = get_registered_object(name, custom_objects, module_objects)
    if found is None:
        raise InvalidArgumentError(
            f"{caller + ': ' if caller else ''}Unknown {printable_module_name}: '{name}'. "
            "Please ensure you are using a `keras.utils.custom_object_scope` and that this "
            "object is included in the scope, pass it in custom_objects=, or register it with "
            "@keras.saving.register_keras_serializable(). See "
            "https://www.tensorflow.org/guide/keras/save_and_serialize"
            "#registering_the_custom_object for details.",
            op="deserialize_keras_object",
        )
    return found


# --- a family of small Keras objects by name or config (regularizers, constraints) -------
def deserialize_family(config, by_name, custom_objects, kind, example):
    """A ``deserialize`` of one family (``kind``: "regularizer", "constraint"): a name
    (``example``) or a config gives its object; a class's name gives its default object."""
    if not isinstance(config, (str, dict)):
        raise InvalidArgumentError(
            f"{kind}s.deserialize: config must be a name such as {example!r} or a dict "
            f"{{'class_name': ..., 'config': {{...}}}} as serialize() writes it, got "
            f"{describe(config)}",
            op="deserialize",
        )
    found = deserialize_keras_object(config, by_name, custom_objects, printable_module_name=kind)
    return found() if inspect.isclass(found) else found


def resolve_family(identifier, caller, argument, kind, known, deserialize, names_hint):
    """A ``get`` of one family: ``None`` and callables as they are, a config or a name
    (``known`` names, or registered ones) through ``deserialize``; anything else is refused
    naming ``caller`` and its ``argument`` (a layer's ``kernel_constraint``)."""
    if identifier is None or (callable(identifier) and not inspect.isclass(identifier)):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        if identifier in known or get_registered_object(identifier) is not None:
            return deserialize(identifier)
        problem = f"unknown {kind} {identifier!r}"
    elif inspect.isclass(identifier):
        problem = f"got the class {identifier.__name__}, not a {kind} object (add ())"
    else:
        problem = f"a {kind} must be callable, got {describe(identifier)}"
    raise InvalidArgumentError(f"{caller}: {argument}: {problem}; {names_hint}", op=caller)
