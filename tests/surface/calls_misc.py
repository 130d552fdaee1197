"""Valid calls of the gradient-function API, ``ek.function``, devices, ``ek.config``,
``ek.debugging``, ``ek.testing`` and ``ek.nest``, and of what their calls return."""

import eagerkit as ek

from .declare import call, fresh
from .values import F3, F23, P3, P23, variable


def _square(x):
    return x * x


def _product(x, y):
    return x * y


def _reads_a_variable():
    v = variable()
    return lambda: ek.reduce_sum(v * v)


@ek.custom_gradient
def _clipped_identity(x):
    """The identity, whose gradient is clipped to [-1, 1] (a custom gradient)."""
    return ek.identity(x), lambda dy: ek.clip_by_value(dy, -1.0, 1.0)


def _double(x):
    return 2.0 * x


def _traced():
    return ek.function(_double)


CALLS = {
    # the function-style gradient API, and what it returns
    "ek.gradients_function": call(_square),
    "ek.gradients_function()": call(P3, numpy=lambda x: [2 * x]),
    "ek.value_and_gradients_function": call(_product),
    "ek.value_and_gradients_function()": call(P3, F3, numpy=lambda x, y: (x * y, [y, x])),
    "ek.implicit_gradients": call(fresh(_reads_a_variable)),
    "ek.implicit_gradients()": call(check=lambda r: len(r) == 1),
    "ek.implicit_value_and_gradients": call(fresh(_reads_a_variable)),
    "ek.implicit_value_and_gradients()": call(check=lambda r: float(r[0]) == 30.0),
    "ek.custom_gradient": call(lambda x: (x, lambda dy: dy)),
    "ek.custom_gradient()": call(P3, on=lambda: _clipped_identity, numpy=lambda x: x),
    "ek.grad_pass_through": call(ek.round),
    "ek.grad_pass_through()": call(
        P3, on=lambda: ek.grad_pass_through(ek.round), numpy=lambda x: x.round()
    ),
    "ek.function": call(_double),
    "ek.function()": call(P3, numpy=lambda x: 2 * x, strict=True),  # a list is a Python value
    "ek.function().get_concrete_function": call(P3, strict=True),
    "ek.function().get_concrete_function()": call(P3, numpy=lambda x: 2 * x, strict=True),
    "ek.function().experimental_get_tracing_count": call(check=lambda r: r == 0),
    "ek.function().__repr__": call(check=lambda r: r.startswith("<ek.function")),
    "ek.function().get_concrete_function().__repr__": call(),
    # eager mode, devices, dtypes
    "ek.enable_eager_execution": call(),
    "ek.executing_eagerly": call(check=lambda r: r is True),
    "ek.device": call("/cpu:0"),
    "ek.list_devices": call(repeatable=False),
    "ek.num_gpus": call(repeatable=False),
    "ek.set_device_policy": call("explicit"),
    "ek.as_dtype": call("float32", check=lambda r: r == ek.float32),
    "ek.devices.canonical_name": call("CPU:0", check=lambda r: r == "/cpu:0"),
    "ek.devices.register_device": call(ek.devices.CPU),  # again: nothing else changes
    "ek.devices.get_device": call("/cpu:0", check=lambda r: r is ek.devices.CPU),
    "ek.devices.visible_device_names": call(repeatable=False),
    "ek.devices.all_device_names": call(repeatable=False),
    "ek.devices.set_hidden_devices": call([]),
    "ek.devices.enable_simulated_gpu": call(),
    "ek.devices.disable_simulated_gpu": call(),
    "ek.devices.current_device": call(check=lambda r: r is ek.devices.CPU),
    "ek.devices.scope_device": call(check=lambda r: r is None),
    "ek.config.list_physical_devices": call("CPU", check=lambda r: len(r) == 1),
    "ek.config.get_visible_devices": call("CPU", check=lambda r: len(r) == 1),
    "ek.config.list_logical_devices": call("CPU", check=lambda r: len(r) == 1),
    "ek.config.set_visible_devices": call(fresh(lambda: ek.config.list_physical_devices())),
    # debugging and testing
    "ek.debugging.assert_greater_equal": call(P23, P23),
    "ek.debugging.assert_less_equal": call(F23, P23),
    "ek.debugging.assert_none_equal": call(F23, P23 + 10.0),
    "ek.debugging.assert_positive": call(P23),
    "ek.debugging.assert_negative": call(F23 - 10.0),
    "ek.debugging.assert_non_negative": call(P23 - 1.0),
    "ek.debugging.assert_non_positive": call(-P23),
    "ek.debugging.assert_near": call(F23, F23 + 1e-7),
    # TF 2's top level has these four of tf.debugging's asserts (the same functions: the
    # walk finds each once, here)
    "ek.assert_equal": call(F23, F23),
    "ek.assert_greater": call(P23, F23 - 10.0),
    "ek.assert_less": call(F23 - 10.0, P23),
    "ek.assert_rank": call(F23, 2),
    "ek.gradients": call(P23, P23, raises=RuntimeError),  # TF 2 eagerly: use the tape
    "ek.debugging.assert_shapes": call([(F23, ("N", 3)), (P23, ("N", 3))]),
    "ek.debugging.check_numerics": call(F23, "weights", numpy=lambda x, m: x),
    "ek.debugging.enable_check_numerics": call(),
    "ek.debugging.disable_check_numerics": call(),
    "ek.debugging.enable_traceback_filtering": call(),
    "ek.debugging.disable_traceback_filtering": call(),
    "ek.debugging.is_traceback_filtering_enabled": call(check=lambda r: r is True),
    "ek.testing.check_grads": call(_square, ek.constant([1.0, 2.0], dtype=ek.float64)),
    "ek.testing.first_gradient_error": call(
        _square, ek.constant([1.0, 2.0], dtype=ek.float64), check=lambda r: r is None
    ),
    "ek.nest.flatten": call([1, [2, (3, 4)]], check=lambda r: r == [1, 2, 3, 4]),
    "ek.nest.pack_sequence_as": call([1, [2, 3]], [4, 5, 6], check=lambda r: r == [4, [5, 6]]),
    "ek.nest.map_structure": call(_square, [-1, (-2,)], check=lambda r: r == [1, (4,)]),
    "ek.nest.assert_same_structure": call({"a": [1]}, {"a": [2]}, check=lambda r: r is None),
    "ek.nest.is_nested": call((1,), check=lambda r: r is True),
}
