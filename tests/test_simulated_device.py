"""The whole engine on '/sim:0', a simulated GPU as strict as cupy (see backends/simulated.py).

Every op case (forward and second-order gradients), copies on the tape, a training loop,
placement errors and the seeds' GPU examples run here, so CI without a GPU catches code
that would only work on numpy.
"""

import numpy as np
import pytest
from device_suite import (
    check_case_on,
    cross_entropy_out_of_range,
    dense_training_step,
    gradient_across_copies,
    in_a_forked_child,
    live_widgets,
    mlp_training,
    seed_gpu_examples,
    traced_step_with_python_numbers,
    train_linear_model,
    training_against_the_cpu,
)
from op_cases import cases

import eagerkit as ek
from eagerkit.backends import sim_context
from eagerkit.backends.simulated import SimArray, counting
from eagerkit.devices import SIMULATED_GPU_VARIABLE
from eagerkit.errors import InvalidArgumentError, NotFoundError

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"  # TF's full name
SIM = "/job:localhost/replica:0/task:0/device:SIM:0"  # TF's full name

CASES = cases()


@pytest.fixture(autouse=True)
def sim():
    device = ek.devices.enable_simulated_gpu()
    yield device
    ek.devices.disable_simulated_gpu()
    ek.set_device_policy("explicit")


@pytest.mark.parametrize(("name", "fn", "args"), CASES, ids=[name for name, _, _ in CASES])
def test_every_op_case_matches_the_cpu_and_passes_check_grads(name, fn, args):
    check_case_on("/sim:0", fn, args)


# --- the backend refuses what cupy refuses -----------------------------------------------------
def test_no_implicit_conversion_to_numpy():
    x = ek.copy_to_device([1.0, 2.0], "/sim:0")
    assert isinstance(x._data, SimArray)
    with pytest.raises(TypeError, match="Implicit conversion of a /sim:0 array to a NumPy"):
        np.asarray(x._data)
    with pytest.raises(TypeError, match="tensor.numpy\\(\\) or tensor.cpu\\(\\)"):
        np.array(x._data)


def test_no_mixing_with_host_arrays_in_one_operation():
    data = ek.copy_to_device([1.0, 2.0], "/sim:0")._data
    message = "cannot be mixed with a host numpy array \\(shape \\(2,\\)\\)"
    with pytest.raises(TypeError, match=message):
        data + np.ones(2)
    with pytest.raises(TypeError, match=message):
        np.ones(2) * data
    with pytest.raises(TypeError, match=message):
        np.where(data > 1, data, np.zeros(2))
    assert isinstance(data * np.float64(2.0) + 1, SimArray)  # scalars mix, as in cupy


def test_python_scalars_only_from_0d_arrays():
    data = ek.copy_to_device([1.0, 2.0], "/sim:0")._data
    for convert in (float, int, bool):
        with pytest.raises(
            TypeError, match=f"shape \\(2,\\) cannot become a Python {convert.__name__}"
        ):
            convert(data)
    assert float(data.sum()) == 3.0


def test_explicit_copies_to_the_host_work():
    x = ek.copy_to_device([[1.0, 2.0]], "/sim:0")
    np.testing.assert_array_equal(x.numpy(), [[1.0, 2.0]])
    assert x.cpu().device == CPU and isinstance(x.cpu()._data, np.ndarray)
    np.testing.assert_array_equal(np.asarray(x), [[1.0, 2.0]])  # Tensor.__array__ copies
    assert str(x) == "ek.Tensor([[1. 2.]], shape=(1, 2), dtype=float32, device=/sim:0)"
    assert str(x.cpu()) == "ek.Tensor([[1. 2.]], shape=(1, 2), dtype=float32)"


# --- placement ---------------------------------------------------------------------------------
def test_creation_ops_honour_nested_device_scopes():
    with ek.device("/sim:0"):
        assert ek.zeros([2]).device == SIM
        with ek.device("cpu:0"):
            assert ek.ones([2]).device == CPU
        made = [
            ek.constant(1.0),
            ek.random_normal([2]),
            ek.range(3),
            ek.fill([2], 7.0),
            ek.eye(2),
            ek.linspace(0.0, 1.0, 3),
            ek.Variable(1.0),
            ek.constant(2.0, shape=[2, 2]),
            ek.truncated_normal([50]),
            ek.random_uniform([2], 0, 5, dtype=ek.int32),
            ek.random_uniform([2]),
            ek.one_hot([0, 2], 3),
        ]
        assert {t.device for t in made} == {SIM}
        assert all(isinstance(t._data, SimArray) for t in made)
    on_sim = made[1]
    assert ek.zeros_like(on_sim).device == ek.ones_like(on_sim).device == SIM
    assert ek.zeros([2]).device == CPU


def test_random_numbers_are_the_same_on_every_device():
    ek.set_random_seed(3)
    on_cpu = ek.random_normal([4]).numpy()
    ek.set_random_seed(3)
    with ek.device("/sim:0"):
        on_sim = ek.random_normal([4])
    np.testing.assert_array_equal(on_sim.numpy(), on_cpu)


def test_conflicting_devices_error_names_op_devices_and_fix():
    on_cpu, on_sim = ek.constant([1.0]), ek.copy_to_device([2.0], "/sim:0")
    with pytest.raises(InvalidArgumentError) as caught:
        ek.add(on_sim, on_cpu)
    message = str(caught.value)
    assert message.startswith("Tensors on conflicting devices: cannot compute add because ")
    assert "input #1 (zero-based) is on /cpu:0 while the op runs on /sim:0" in message
    assert "ek.copy_to_device(x, '/sim:0')" in message and "x.cpu()" in message
    assert "ek.set_device_policy('silent')" in message
    assert caught.value.op == "add"


def test_silent_policy_copies_and_the_gradient_flows_back():
    x = ek.constant([1.0, 2.0])
    on_sim = ek.copy_to_device([3.0, 4.0], "/sim:0")
    ek.set_device_policy("silent")
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = ek.reduce_sum(on_sim * x)  # x is copied to /sim:0, and the copy recorded
    assert y.device == SIM
    assert [r.op.name for r in tape.records] == ["copy_to_device", "multiply", "reduce_sum"]
    grad = tape.gradient(y, x)
    assert grad.device == CPU
    np.testing.assert_array_equal(grad.numpy(), [3.0, 4.0])


def test_warn_policy_copies_with_a_warning():
    ek.set_device_policy("warn")
    with pytest.warns(UserWarning, match="multiply: copying input #1 from /cpu:0 to /sim:0"):
        y = ek.copy_to_device([2.0], "/sim:0") * ek.constant([3.0])
    assert y.device == SIM and y.numpy()[0] == 6.0


def test_missing_kernel_fails_before_running_and_explains():
    with ek.device("/sim:0"):
        a = ek.constant([[1, 2]])
        with pytest.raises(NotFoundError) as caught:
            ek.matmul(a, ek.transpose(a))
    message = str(caught.value)
    assert message.startswith("No registered 'matmul' kernel for /sim:0 with dtype int32.")
    assert "runs on: complex128, complex64, float16, float32, float64" in message
    assert "cuBLAS" in message and "x.cpu()" in message
    # the CPU has the kernel, and a float cast runs on the device
    assert ek.matmul(a.cpu(), ek.transpose(a).cpu()).numpy()[0, 0] == 5
    assert ek.matmul(ek.cast(a, ek.float32), ek.cast(ek.transpose(a), ek.float32)).device == SIM


# --- gradients and training --------------------------------------------------------------------
def test_gradient_flows_across_a_copy_cpu_to_sim_to_cpu():
    on_device, y, grad = gradient_across_copies("/sim:0")
    assert on_device.device == SIM and y.device == CPU
    assert grad.device == CPU
    np.testing.assert_array_equal(grad.numpy(), [2.0, -4.0, 6.0])


def test_second_order_gradient_across_copies():
    x = ek.constant(3.0)
    with ek.GradientTape() as outer:
        outer.watch(x)
        with ek.GradientTape() as inner:
            inner.watch(x)
            y = (ek.copy_to_device(x, "/sim:0") ** 3).cpu()
        dy = inner.gradient(y, x)
    assert dy.device == CPU and float(dy) == 27.0
    assert float(outer.gradient(dy, x)) == 18.0


def test_output_gradients_given_on_the_host_are_copied_to_the_target_device():
    with ek.device("/sim:0"):
        x = ek.constant([1.0, 2.0])
    with ek.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    grad = tape.gradient(y, x, output_gradients=ek.constant([1.0, 10.0]))
    assert grad.device == SIM
    np.testing.assert_array_equal(grad.numpy(), [2.0, 40.0])


def test_training_loop_runs_on_the_device_and_matches_the_cpu():
    losses, (w, b), _ = train_linear_model("/sim:0")
    cpu_losses, (cpu_w, _), _ = train_linear_model("/cpu:0")
    assert w.device == b.device == SIM and isinstance(w._data, SimArray)
    assert losses[-1] < 1e-4 < losses[0]
    np.testing.assert_allclose(losses, cpu_losses, rtol=1e-6)
    np.testing.assert_allclose(w.numpy(), cpu_w.numpy(), rtol=1e-6)


def test_optimizer_state_follows_its_variable():
    losses, (w, b), adam = train_linear_model("/sim:0", ek.train.AdamOptimizer(0.1), steps=5)
    cpu_losses, _, _ = train_linear_model("/cpu:0", ek.train.AdamOptimizer(0.1), steps=5)
    np.testing.assert_allclose(losses, cpu_losses, rtol=1e-6)
    slots = [adam.get_slot(v, name) for v in (w, b) for name in adam.get_slot_names()]
    assert len(slots) == 4 and {s.device for s in slots} == {SIM}


def test_dense_layer_trains_on_the_device():
    layer, loss = dense_training_step("/sim:0")
    cpu_layer, cpu_loss = dense_training_step("/cpu:0")
    assert {v.device for v in layer.trainable_variables} == {SIM}
    assert loss.device == SIM
    np.testing.assert_allclose(float(loss), float(cpu_loss), rtol=1e-6)
    for v, cpu_v in zip(layer.trainable_variables, cpu_layer.trainable_variables, strict=True):
        np.testing.assert_allclose(v.numpy(), cpu_v.numpy(), rtol=1e-6)


def test_variable_assign_keeps_its_device():
    with ek.device("/sim:0"):
        v = ek.Variable([1.0, 2.0])
    v.assign(ek.constant([5.0, 6.0]))  # a CPU value is copied to the variable's device
    v.assign_add(np.array([1.0, 1.0], dtype=np.float32))
    assert v.device == SIM and isinstance(v._data, SimArray)
    np.testing.assert_array_equal(v.numpy(), [6.0, 7.0])


# --- the seeds' GPU examples -------------------------------------------------------------------
def test_seed_gpu_examples_run_on_the_simulated_gpu():
    ek.devices.enable_simulated_gpu(as_gpu=True)
    assert ek.num_gpus() == 1
    printed, on_cpu, on_gpu = seed_gpu_examples()
    assert [line[:9] for line in printed] == ["CPU: Took", "GPU: Took"]
    assert printed[1].endswith("seconds to multiply a (1000, 1000) matrix by itself 10 times")
    assert on_cpu.device == CPU and on_gpu.device == SIM
    np.testing.assert_allclose(on_gpu.numpy(), on_cpu.numpy(), rtol=1e-6)


def test_checkpoints_move_between_devices(tmp_path):
    with ek.device("/sim:0"):
        on_sim = ek.Variable([1.0, 2.0], name="w")
    on_cpu = ek.Variable([0.0, 0.0], name="w")
    saved = ek.train.Checkpoint(w=on_sim).save(str(tmp_path / "sim"))
    ek.train.Checkpoint(w=on_cpu).restore(saved)  # saved on the GPU stand-in, restored on CPU
    assert on_cpu.device == CPU and isinstance(on_cpu._data, np.ndarray)
    np.testing.assert_array_equal(on_cpu.numpy(), [1.0, 2.0])

    on_cpu.assign([7.0, 8.0])
    saved = ek.train.Checkpoint(w=on_cpu).save(str(tmp_path / "cpu"))
    ek.train.Checkpoint(w=on_sim).restore(saved)  # and back
    assert on_sim.device == SIM and isinstance(on_sim._data, SimArray)
    np.testing.assert_array_equal(on_sim.numpy(), [7.0, 8.0])


def test_live_widgets_read_the_device_once_per_flush():
    curve, flow, during, at_the_flushes, norms = live_widgets("/sim:0")
    assert during == 0  # nothing left the simulated GPU while it trained
    assert at_the_flushes == 1 + 2 + 1  # the norms, two histograms, the losses
    np.testing.assert_allclose(flow.history["norms"], [[np.hypot(*n)] for n in norms], rtol=1e-5)
    assert len(curve.history["runs"]["main"]["loss"]["y"]) == 20


# --- what a GPU would spend: kernel launches and waits (backends/simulated.py counts them) ---
def test_a_training_step_never_waits_for_the_device():
    step, _, variables = mlp_training("/sim:0")
    step()  # the first step makes the optimizer's step counter (on the host: never waited for)
    with counting() as counts:
        losses = [step() for _ in range(3)]
    assert counts.host_reads == 0  # no label check, no step counter read from the device
    assert counts.copies_to_device == 0  # no host constant copied over per step
    assert {v.device for v in variables} == {SIM} and losses[-1].device == SIM
    assert float(losses[-1]) < float(losses[0])  # it trains (this float is the one wait)


def test_a_convolution_step_never_waits_nor_copies_and_launches_few_kernels():
    ek.set_random_seed(5)
    with ek.device("/sim:0"):
        images = ek.random_normal([2, 6, 6, 3])
        kernel = ek.Variable(ek.random_normal([3, 3, 3, 4], stddev=0.1))
    optimizer = ek.train.GradientDescentOptimizer(0.1)

    def step():
        with ek.GradientTape() as tape:
            loss = ek.reduce_sum(ek.nn.conv2d(images, kernel, strides=1, padding="SAME"))
        optimizer.apply_gradients(zip(tape.gradient(loss, [kernel]), [kernel], strict=True))
        return loss

    first = step()
    with counting() as counts:
        step()
    # cupy's sliding_window_view copied the window shape over and read a check back, twice
    # a step: the windows are a strided view now, made on the host (conv.windows).
    assert counts.host_reads == counts.copies_to_device == 0
    # Padding (a fill and a copy), im2col's copy and one product, forward and for the
    # filter's gradient, the sum, its gradient's copy and the update.
    assert counts.kernels <= 13, counts
    assert float(step()) < float(first)


def test_a_training_step_launches_about_as_many_kernels_as_hand_written_code():
    step, by_hand, _ = mlp_training("/sim:0")
    step(), by_hand()  # warm: slots, caches
    with counting() as eagerkit_step:
        step()
    with counting() as hand_step:
        by_hand()
    # Fused gradients and updates, cross-entropy's GPU path (one launch picks each row's
    # logit at its label) and the mean's gradient as a broadcast view put eagerkit below
    # hand-written array code (before fusion: 49 against 29; 26 against 29 now).
    assert eagerkit_step.kernels <= hand_step.kernels - 3, (eagerkit_step, hand_step)


def test_the_training_step_on_the_device_matches_the_cpu():
    losses, cpu_losses, variables, cpu_variables = training_against_the_cpu("/sim:0")
    np.testing.assert_allclose(losses, cpu_losses, rtol=1e-5)
    for v, cpu_v in zip(variables, cpu_variables, strict=True):
        np.testing.assert_allclose(v.numpy(), cpu_v.numpy(), rtol=1e-5, atol=1e-6)


def test_cross_entropy_on_a_gpu_gives_nan_rows_for_labels_out_of_range_as_tf_does():
    loss, grad, first_row_on_cpu = cross_entropy_out_of_range("/sim:0")
    np.testing.assert_allclose(loss[0], first_row_on_cpu, rtol=1e-6)
    assert np.isnan(loss[1:]).all() and np.isnan(grad[1:]).all()
    np.testing.assert_allclose(grad[0].sum(), 0.0, atol=1e-6)  # softmax - one-hot
    with pytest.raises(InvalidArgumentError, match="outside the valid range"):  # the CPU checks
        cross_entropy_out_of_range("/cpu:0")


def test_the_optimizer_counts_its_steps_on_the_host():
    with ek.device("/sim:0"):  # even inside a GPU's scope: reading it never waits
        w = ek.Variable([1.0])
        adam = ek.train.AdamOptimizer(0.1)
        adam.apply_gradients([(ek.constant([1.0]), w)])
    assert adam.iterations.device == CPU and int(adam.iterations) == 1
    assert w.device == adam.get_slot(w, "m").device == adam.get_slot(w, "v").device == SIM


# --- forks: refused after use, as CUDA refuses them, when standing in for a GPU -------------------
def _doubled(x):
    return lambda: (x * 2).numpy().tolist()


def test_standing_in_for_a_gpu_it_refuses_a_child_forked_after_use_as_cuda_does(monkeypatch):
    monkeypatch.setenv(SIMULATED_GPU_VARIABLE, "1")
    x = ek.copy_to_device([1.0, 2.0], "/sim:0")  # the parent uses the device
    assert sim_context.initialised()
    refused = "cudaErrorInitializationError: initialization error"
    child = in_a_forked_child(_doubled(x))  # an array the parent made: cupy's own error
    assert child.startswith(f"CUDARuntimeError: {refused}"), child
    assert "start the process with multiprocessing's 'spawn'" in child
    child = in_a_forked_child(lambda: ek.copy_to_device([3.0], "/sim:0"))  # a new one
    call = "copy_to_device(list of 1, '/sim:0')"
    assert child.startswith(f"FailedPreconditionError: {call}: {refused}"), child
    assert _doubled(x)() == [2.0, 4.0]  # the parent itself goes on


def test_a_child_forked_before_any_use_or_without_the_variable_may_use_it(monkeypatch):
    x = ek.copy_to_device([1.0, 2.0], "/sim:0")
    monkeypatch.delenv(SIMULATED_GPU_VARIABLE, raising=False)
    assert in_a_forked_child(_doubled(x)) == "[2.0, 4.0]"  # switched on in code: lenient
    monkeypatch.setenv(SIMULATED_GPU_VARIABLE, "1")
    monkeypatch.setitem(sim_context._context, "used", False)  # as if never used before the fork
    assert not sim_context.initialised()
    assert in_a_forked_child(lambda: ek.copy_to_device([3.0], "/sim:0").numpy().tolist()) == (
        "[3.0]"
    )


def test_ops_on_a_gpu_take_the_fast_dispatch_paths_but_a_missing_kernel(monkeypatch):
    # A GPU lacks integer matmul (cuBLAS): that op alone takes the reference path there, which
    # says so; every other op is computed by the fast paths, as on the CPU.
    from eagerkit import dispatch

    with ek.device("/sim:0"):
        x, counts = ek.constant([[1.0, 2.0], [3.0, 4.0]]), ek.constant([[1, 2], [3, 4]])
        w = ek.Variable([[0.5, 0.0], [0.0, 0.5]])
    labels = ek.copy_to_device([0, 1], "/sim:0")
    slow = []
    reference = dispatch.call
    monkeypatch.setattr(dispatch, "call", lambda *a: slow.append(a[0].name) or reference(*a))
    with ek.GradientTape() as tape:
        y = ek.tanh(x * x + 0.5) @ w - x  # unary, binary, a number, a Variable, matmul
        loss = ek.reduce_mean(ek.nn.sparse_softmax_cross_entropy_with_logits(labels, y))
    tape.gradient(loss, w)
    assert slow == []
    with pytest.raises(NotFoundError, match="No registered 'matmul' kernel for /sim:0"):
        ek.matmul(counts, counts)
    assert slow == ["matmul"]


def test_a_traced_step_with_python_numbers_runs_and_is_optimized_as_on_the_cpu():
    """A Python number in a traced function is a numpy scalar on any device: the graph's
    passes read it as it is (they asked the device to copy it to the host, which cupy
    refused with an AttributeError, so ek.function failed on a real GPU)."""
    (eager, traced), optimizations = traced_step_with_python_numbers("/sim:0")
    _, cpu_optimizations = traced_step_with_python_numbers("/cpu:0")
    assert all(loss.device == SIM for loss in eager[0] + traced[0])
    np.testing.assert_allclose([float(v) for v in traced[0]], [float(v) for v in eager[0]], 1e-6)
    np.testing.assert_allclose(traced[1], eager[1], rtol=1e-6)
    assert optimizations["common_subexpressions"] == cpu_optimizations["common_subexpressions"]
    assert optimizations["common_subexpressions"] == 2  # the two 0.5s and the two products


def test_a_tape_with_python_numbers_on_a_gpu_shows_and_differentiates(sim):
    # x * 0.5 on a GPU keeps 0.5 a numpy scalar (no copy to the device); the tape records it
    # as a tensor whose value is on the host already: TapeView reads it (it said "a tensor's
    # data and its device disagree"), and reading it waits for nothing.
    from eagerkit.widgets import TapeView

    with ek.device("/sim:0"):
        x = ek.constant([1.0, 2.0])
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = ek.reduce_sum(x * 0.5 + 2.0 * x - 1.0)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [2.5, 2.5])
    TapeView(tape)
    with counting() as counts:
        on_host = sim.backend.to_host(np.float32(0.5))
    assert on_host == np.float32(0.5) and on_host.dtype == np.float32
    assert counts.host_reads == counts.copies_to_device == 0
