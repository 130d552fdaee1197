"""Device policies: what an op does when its inputs sit on different devices, and what
``with ek.device("GPU:0")`` does on a machine without that GPU.

Ops run where their first input is. Another input elsewhere is, by default ("explicit"), an
error that names the op, both devices and the copy that fixes it, like TF's "Tensors on
conflicting devices". Under "warn" or "silent" the input is copied instead; the copy is an
op on the tape, so gradients still flow back to where the input was.

Soft placement (on by default, as in TF2): a ``device`` scope naming a GPU that is missing
(or hidden) places the block on the CPU, so GPU code runs anywhere;
``ek.config.set_soft_device_placement(False)`` makes it the error that says why.
"""

import warnings

from eagerkit.errors import InvalidArgumentError

DEVICE_PLACEMENT_EXPLICIT = "explicit"  # raise, naming the fix (the default, as in TF 1.5)
DEVICE_PLACEMENT_WARN = "warn"  # copy, with a warning
DEVICE_PLACEMENT_SILENT = "silent"  # copy quietly
_POLICIES = (DEVICE_PLACEMENT_EXPLICIT, DEVICE_PLACEMENT_WARN, DEVICE_PLACEMENT_SILENT)
_policy = DEVICE_PLACEMENT_EXPLICIT  # changed only by set_device_policy
soft_placement = True  # ek.config.set_soft_device_placement changes it


def set_device_policy(policy):
    """Choose what an op does with inputs on another device: "explicit" (raise), "warn" or
    "silent" (copy them to the op's device; the copy is recorded, so gradients still flow).

    Returns the previous policy.

    Examples
    --------
    >>> import eagerkit as ek
    >>> previous = ek.set_device_policy("silent")
    >>> ek.set_device_policy(previous)
    'silent'
    """
    if policy not in _POLICIES:
        raise InvalidArgumentError(
            f"set_device_policy: unknown policy {policy!r}; use one of {', '.join(_POLICIES)}",
            op="set_device_policy",
        )
    global _policy
    previous, _policy = _policy, policy
    return previous


def resolve_conflict(op_name, position, tensor, device):
    """Input ``position`` of ``op_name`` is not on ``device``, where the op runs: raise or copy.

    Examples
    --------
    >>> import eagerkit as ek
    >>> on_sim = ek.copy_to_device([1.0], ek.devices.enable_simulated_gpu())
    >>> ek.add(ek.constant([1.0]), on_sim)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    eagerkit.errors.InvalidArgumentError: Tensors on conflicting devices: cannot compute add ...
    """
    if _policy == DEVICE_PLACEMENT_EXPLICIT:
        raise InvalidArgumentError(
            f"Tensors on conflicting devices: cannot compute {op_name} because input "
            f"#{position} (zero-based) is on {tensor._device.name} while the op runs on "
            f"{device.name}, where its first input is. Copy it there with "
            f"{copy_hint(device)} (or the other inputs to {tensor._device.name} with "
            f"{copy_hint(tensor._device)}), or let eagerkit copy for you with "
            "ek.set_device_policy('silent').",
            op=op_name,
        )
    if _policy == DEVICE_PLACEMENT_WARN:
        warnings.warn(
            f"{op_name}: copying input #{position} from {tensor._device.name} to {device.name}",
            stacklevel=4,
        )
    from eagerkit.ops.copy import copy_to_device

    return copy_to_device(tensor, device)


def copy_hint(device):
    """The call that copies a tensor ``x`` to ``device``, for error messages.

    Examples
    --------
    >>> from eagerkit.devices import CPU
    >>> copy_hint(CPU)
    'x.cpu()'
    """
    if device.kind == "cpu":
        return "x.cpu()"
    if device.kind == "gpu":
        index = device.name.rsplit(":", 1)[1]
        return "x.gpu()" if index == "0" else f"x.gpu({index})"
    return f"ek.copy_to_device(x, '{device.name}')"


def soft_placed(name, error, cpu):
    """Where a ``device(name)`` scope goes when ``get_device`` raised ``error``: the CPU when
    soft placement is on and ``name`` is a GPU (missing or hidden), else ``error`` is raised."""
    from eagerkit.devices import canonical_name

    if soft_placement and canonical_name(name).startswith("/gpu:"):
        return cpu
    raise error
