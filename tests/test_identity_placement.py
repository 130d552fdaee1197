"""``ek.identity`` inside ``ek.device(...)`` copies to that device, as TF places
``tf.identity`` by its enclosing ``tf.device`` (TF's way to copy a tensor to a device)."""

import eagerkit as ek


def test_identity_in_a_device_block_copies_there_and_the_gradient_comes_back():
    ek.devices.enable_simulated_gpu(as_gpu=True)
    x = ek.Variable([1.0, 2.0])
    with ek.GradientTape() as tape:
        with ek.device("/gpu:0"):
            y = ek.identity(x)
        total = ek.reduce_sum(y * y)
    assert y.device.endswith(("GPU:0", "SIM:0"))
    grad = tape.gradient(total, x)
    assert grad.device.endswith("CPU:0") and grad.numpy().tolist() == [2.0, 4.0]
    with ek.device("/cpu:0"):
        assert ek.identity(y).device.endswith("CPU:0")  # and back


def test_identity_outside_a_block_stays_and_strings_stay_on_the_cpu():
    ek.devices.enable_simulated_gpu(as_gpu=True)
    on_gpu = ek.copy_to_device(ek.constant([1.0]), "/gpu:0")
    assert ek.identity(on_gpu).device == on_gpu.device
    with ek.device("/gpu:0"):
        assert ek.identity(ek.constant("text")).device.endswith("CPU:0")
        assert ek.identity(on_gpu).device == on_gpu.device
    assert ek.identity(ek.ragged.constant([[1], [2, 3]])).to_list() == [[1], [2, 3]]
