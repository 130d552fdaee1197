"""Copies between devices, recorded on the tape: ``t.gpu()``, ``t.cpu()``, ``ek.copy_to_device``.

A copy is an op like any other, except that its output lives on another device than its
input. Its VJP copies the gradient back to where the input was, so gradients flow across
devices: ``x (cpu) -> x.gpu() -> ... -> loss`` gives ``dloss/dx`` on the CPU.
"""

from eagerkit import dispatch
from eagerkit.arguments import size
from eagerkit.devices import get_device, scope_device
from eagerkit.errors import InvalidArgumentError
from eagerkit.ops import shape
from eagerkit.registry import defop
from eagerkit.tensor import Tensor, convert_to_tensor


@defop("copy_to_device")
def _copy(xp, x, *, source, target):
    """The array ``x`` (on device ``source``) copied to device ``target``, through the host."""
    if source == target:
        return x  # arrays are never written into, so sharing one is safe
    if x.dtype.kind == "O":
        raise InvalidArgumentError(
            f"copy_to_device: string tensors live on the CPU (as in TF) and cannot be copied "
            f"to {target}; copy the numbers made from them instead (ek.strings.to_number)",
            op="copy_to_device",
        )
    host = get_device(source).backend.to_host(x)
    return get_device(target).backend.asarray(host)


_copy.defvjp(
    lambda ops, g, ans, x, source, target: ops.copy_to_device(g, source=target, target=source)
)


def _run_copy(x, *, target, source=None):
    """Copy ``x`` to ``target`` and record it (``source`` is where ``x`` is; it is checked).

    This replaces the registry's usual call because the output is made on ``target``,
    not on the input's device.
    """
    x = convert_to_tensor(x)
    params = {"source": x._device.name, "target": get_device(target).name}
    output = Tensor(_copy.op.forward(None, x._data, **params), get_device(target))
    if dispatch.anyone_recording():
        dispatch.after(_copy.op, (x,), (x._data,), output, params)
    return output


_copy.op.call = _run_copy  # what VJPs on Tensors call, as xp.copy_to_device(g, ...)


def identity(input, name=None):  # noqa: A002 - TF's argument name
    """The same value, as a new tensor, recorded (the gradient passes through).

    Inside an ``ek.device(...)`` block, a tensor from another device is copied there, as
    TF places ``tf.identity`` by its enclosing ``tf.device`` (TF's way to copy a tensor to
    a device); other ops still run where their inputs are. Outside a block it stays put.

    Examples
    --------
    >>> import eagerkit as ek
    >>> _ = ek.devices.enable_simulated_gpu(as_gpu=True)
    >>> x = ek.constant([1.0, 2.0])
    >>> with ek.device("/gpu:0"):
    ...     y = ek.identity(x)  # copied, as x.gpu() would
    >>> y.device.endswith(("GPU:0", "SIM:0")), ek.identity(y).device == y.device
    (True, True)
    """
    scope = scope_device()
    if (
        isinstance(input, Tensor)
        and scope is not None
        and input._device is not scope
        and input._data.dtype.kind != "O"  # strings live on the CPU, as in TF
    ):
        return _run_copy(input, target=scope)
    return shape.identity(input, name=name)


def copy_to_device(x, device):
    """A copy of ``x`` on ``device`` (a name like ``"/gpu:0"`` or a Device).

    The copy is recorded on the tape, so the gradient is copied back to ``x``'s device.

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.copy_to_device([1.0, 2.0], "CPU:0").device
    '/job:localhost/replica:0/task:0/device:CPU:0'
    """
    return _run_copy(x, target=device)


def gpu(self, gpu_index=0):
    """A copy of this tensor on ``/gpu:<gpu_index>`` (recorded, so gradients flow back).

    Without a GPU this raises an error that says what is missing; a simulated GPU can
    stand in for one.

    Examples
    --------
    >>> import eagerkit as ek
    >>> _ = ek.devices.enable_simulated_gpu(as_gpu=True)
    >>> ek.constant([1.0]).gpu().device
    '/job:localhost/replica:0/task:0/device:SIM:0'
    >>> ek.devices.disable_simulated_gpu()
    """
    return copy_to_device(self, f"/gpu:{size(gpu_index, 'gpu_index', 'gpu')}")


def cpu(self):
    """A copy of this tensor on the CPU (recorded, so gradients flow back).

    Examples
    --------
    >>> import eagerkit as ek
    >>> ek.constant([1.0]).cpu().device
    '/job:localhost/replica:0/task:0/device:CPU:0'
    """
    return copy_to_device(self, "/cpu:0")


Tensor.gpu = gpu
Tensor.cpu = cpu
