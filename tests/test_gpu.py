"""The device suite on a real '/gpu:0' (cupy): every op case, the tape across copies, training.

Skipped, with the reason cupy gives, on machines without cupy or without a CUDA device.
"""

import warnings

import numpy as np
import pytest
from device_suite import (
    check_case_on,
    cross_entropy_out_of_range,
    dense_training_step,
    fused_run_of,
    gradient_across_copies,
    in_a_forked_child,
    kernel_arguments,
    live_widgets,
    mlp_training,
    outputs,
    seed_gpu_examples,
    traced_step_with_python_numbers,
    train_linear_model,
    training_against_the_cpu,
)
from op_cases import cases

import eagerkit as ek
from eagerkit.backends import fusion
from eagerkit.backends.cupy_backend import FusedKernel, gpu_status
from eagerkit.backends.simulated import counting
from eagerkit.errors import NotFoundError
from eagerkit.graph.fused_runs import FUSABLE

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"  # TF's full name
GPU = "/job:localhost/replica:0/task:0/device:GPU:0"  # TF's full name

GPU_COUNT, NO_GPU_REASON = gpu_status()
pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(
        GPU_COUNT == 0, reason=f"needs cupy and a CUDA device ({str(NO_GPU_REASON).split('. ')[0]})"
    ),
]
CASES = cases()


@pytest.mark.parametrize(("name", "fn", "args"), CASES, ids=[name for name, _, _ in CASES])
def test_every_op_case_matches_the_cpu_and_passes_check_grads(name, fn, args):
    check_case_on("/gpu:0", fn, args)


def test_gradient_flows_across_copies_cpu_to_gpu_to_cpu():
    on_device, y, grad = gradient_across_copies("/gpu:0")
    assert on_device.device == GPU and y.device == grad.device == CPU
    np.testing.assert_array_equal(grad.numpy(), [2.0, -4.0, 6.0])


def test_training_loop_on_the_gpu_matches_the_cpu():
    losses, (w, b), _ = train_linear_model("/gpu:0")
    cpu_losses, _, _ = train_linear_model("/cpu:0")
    assert w.device == b.device == GPU
    assert losses[-1] < 1e-4 < losses[0]
    np.testing.assert_allclose(losses, cpu_losses, rtol=1e-4, atol=1e-6)


def test_dense_layer_trains_on_the_gpu():
    layer, loss = dense_training_step("/gpu:0")
    assert {v.device for v in layer.trainable_variables} == {GPU}
    assert loss.device == GPU


def test_integer_matmul_has_no_gpu_kernel():
    with ek.device("/gpu:0"):
        a = ek.constant([[1, 2]])
        with pytest.raises(NotFoundError, match="No registered 'matmul' kernel for /gpu:0"):
            ek.matmul(a, ek.transpose(a))


def test_seed_gpu_examples_run_on_the_gpu():
    printed, on_cpu, on_gpu = seed_gpu_examples()
    assert printed[1].startswith("GPU: Took")
    assert on_gpu.device == GPU
    np.testing.assert_allclose(on_gpu.numpy(), on_cpu.numpy(), rtol=1e-4, atol=1e-5)


def test_live_widgets_read_the_device_once_per_flush():
    curve, flow, during, at_the_flushes, norms = live_widgets("/gpu:0")
    assert during == 0  # nothing left the GPU while it trained
    assert at_the_flushes == 1 + 2 + 1  # the norms, two histograms, the losses
    np.testing.assert_allclose(flow.history["norms"], [[np.hypot(*n)] for n in norms], rtol=1e-5)
    assert len(curve.history["runs"]["main"]["loss"]["y"]) == 20


# --- fused kernels and the training step (tests/test_fusion.py and test_simulated_device.py
# prove the same on the CPU and /sim:0; here cupy.fuse compiles them) ---------------------
GATHERS = {"label_logit"}  # not elementwise over one shape: its own test below
WITH_CUDA_BODIES = sorted(n for n, k in fusion.KERNELS.items() if k.cuda and n not in GATHERS)


@pytest.mark.parametrize("name", sorted(set(fusion.KERNELS) - GATHERS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_every_fused_kernel_compiles_and_matches_its_steps_on_the_cpu(name, dtype):
    arrays, scalars = kernel_arguments(name, (4, 3), dtype)
    device = ek.devices.get_device("/gpu:0")
    on_gpu = [device.backend.asarray(a) for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a kernel cupy cannot fuse warns: here, a failure
        got = getattr(device.xp.kernels, name)(*on_gpu, *scalars)
    expected = fusion.KERNELS[name].function(np, *arrays, *scalars)
    for result, want in zip(outputs(got), outputs(expected), strict=True):
        host = device.backend.to_host(result)
        assert host.dtype == want.dtype
        np.testing.assert_allclose(host, want, rtol=2e-6 if dtype == np.float32 else 1e-13)


@pytest.mark.parametrize("name", WITH_CUDA_BODIES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_each_cuda_body_gives_the_bits_of_its_steps_fused_by_cupy(name, dtype):
    """The CUDA body (the fast path) against cupy.fuse of its Python definition."""
    kernel = fusion.KERNELS[name]
    device = ek.devices.get_device("/gpu:0")
    arrays, scalars = kernel_arguments(name, (64, 3), dtype)
    on_gpu = [device.backend.asarray(a) for a in arrays]
    cupy = device.backend.cupy
    by_fuse = FusedKernel(cupy, device.xp, kernel.function, name)
    by_cuda = FusedKernel(cupy, device.xp, kernel.function, name, kernel.cuda)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a body that does not compile warns: a failure
        fused, written = by_fuse(*on_gpu, *scalars), by_cuda(*on_gpu, *scalars)
    assert written.dtype == fused.dtype == dtype
    np.testing.assert_array_equal(device.backend.to_host(written), device.backend.to_host(fused))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("label_dtype", [np.int32, np.int64])
def test_label_logit_reads_each_rows_logit_at_its_label_whatever_the_strides(dtype, label_dtype):
    device = ek.devices.get_device("/gpu:0")
    rows = np.random.default_rng(3).standard_normal((6, 5)).astype(dtype)
    labels = np.array([[0], [4], [5], [-1], [2], [3]], label_dtype)  # 5 and -1: out of range
    expected = fusion.KERNELS["label_logit"].function(np, rows, labels)
    np.testing.assert_array_equal(expected[[2, 3], 0], [0, 0])
    gpu_labels = device.backend.asarray(labels)
    c_ordered = device.backend.asarray(rows)
    transposed = device.backend.asarray(rows.T.copy()).T  # a view, column-major
    wider = device.backend.asarray(np.pad(rows, ((0, 0), (0, 3))))[:, :5]  # rows 8 elements apart
    for on_gpu in (c_ordered, transposed, wider):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            picked = device.xp.kernels.label_logit(on_gpu, gpu_labels)
        assert picked.dtype == dtype and picked.shape == (6, 1)
        np.testing.assert_array_equal(device.backend.to_host(picked), expected)


def test_the_compiled_mlp_step_launches_no_more_kernels_on_the_gpu_than_on_sim():
    """CUPTI, through PyTorch's profiler, counts what /sim:0 predicts for ek.function."""
    torch = pytest.importorskip("torch")
    from torch.profiler import ProfilerActivity, profile

    ek.devices.enable_simulated_gpu()
    step = ek.function(mlp_training("/gpu:0", batch=32)[0])
    step(), step()  # traced, then warm
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as recorded:
        step()
        torch.cuda.synchronize()
    names = [e.name for e in recorded.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    kernels = [n for n in names if "memcpy" not in n.lower() and "memset" not in n.lower()]
    sim_step = ek.function(mlp_training("/sim:0", batch=32)[0])
    sim_step()
    with counting() as on_sim:
        sim_step()
    # cuBLAS may split a product in two kernels (splitKreduce): at most one more a product
    assert len(kernels) <= on_sim.kernels + 5, sorted(kernels)
    copies = [n for n in names if "htod" in n.lower() or "dtoh" in n.lower()]
    assert copies == [], names  # nothing crosses between host and device in a step


@pytest.mark.parametrize("name", sorted(FUSABLE))
def test_ek_function_compiles_each_run_of_elementwise_ops_with_cupy_fuse(name):
    replayed, eager, on_cpu, source = fused_run_of(name, "/gpu:0")
    assert f"-> {name}" in source and replayed.device == GPU
    np.testing.assert_allclose(replayed.numpy(), eager.numpy(), rtol=2e-6)
    np.testing.assert_allclose(replayed.numpy(), on_cpu.numpy(), rtol=2e-6)


def test_the_mlp_training_step_on_the_gpu_matches_the_cpu():
    losses, cpu_losses, variables, cpu_variables = training_against_the_cpu("/gpu:0")
    np.testing.assert_allclose(losses, cpu_losses, rtol=1e-5)
    for v, cpu_v in zip(variables, cpu_variables, strict=True):
        assert v.device == GPU
        np.testing.assert_allclose(v.numpy(), cpu_v.numpy(), rtol=1e-4, atol=1e-6)


def test_cross_entropy_on_the_gpu_gives_nan_rows_for_labels_out_of_range():
    loss, grad, first_row_on_cpu = cross_entropy_out_of_range("/gpu:0")
    np.testing.assert_allclose(loss[0], first_row_on_cpu, rtol=1e-6)
    assert np.isnan(loss[1:]).all() and np.isnan(grad[1:]).all()


def test_adam_and_momentum_steps_on_the_gpu_match_the_cpu():
    optimizers = [
        lambda: ek.train.AdamOptimizer(0.1),
        lambda: ek.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
    ]
    for make in optimizers:
        values = {}
        for name in ("/gpu:0", "/cpu:0"):
            with ek.device(name):
                w, g = ek.Variable([1.0, -2.0, 3.0]), ek.constant([0.5, 0.25, -1.0])
            optimizer = make()
            for _ in range(3):
                optimizer.apply_gradients([(g, w)])
            values[name] = w.numpy()
            assert int(optimizer.iterations) == 3 and optimizer.iterations.device == CPU
        np.testing.assert_allclose(values["/gpu:0"], values["/cpu:0"], rtol=1e-6)


def test_a_child_forked_after_the_gpu_was_used_gets_the_error_sim_0_gives():
    # What tests/exercise_lessons.py avoids (forks after CUDA started), and what /sim:0
    # reproduces under EAGERKIT_SIMULATED_GPU=1 (tests/test_simulated_device.py).
    (ek.copy_to_device([1.0, 2.0], "/gpu:0") * 2).numpy()  # CUDA in use here
    child = in_a_forked_child(lambda: ek.copy_to_device([3.0], "/gpu:0").numpy().tolist())
    assert "cudaErrorInitializationError: initialization error" in child, child


def test_a_traced_step_with_python_numbers_runs_on_the_gpu():
    (eager, traced), optimizations = traced_step_with_python_numbers("/gpu:0")
    assert all(loss.device == GPU for loss in eager[0] + traced[0])
    np.testing.assert_allclose([float(v) for v in traced[0]], [float(v) for v in eager[0]], 1e-5)
    np.testing.assert_allclose(traced[1], eager[1], rtol=1e-5)
    assert optimizations["common_subexpressions"] == 2
