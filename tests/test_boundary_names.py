"""The call an error names is the one the user wrote, said once, the same on every machine:
``ek.device(...)``, not the ``get_device`` inside it; an ek.function's own message, not
``Function(int32[2]):`` before it; a long path by its end, not by a temporary folder."""

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit import arguments


@pytest.fixture
def hidden_gpu_hard_placement():
    ek.devices.enable_simulated_gpu(as_gpu=True)
    ek.config.set_visible_devices([], "GPU")
    ek.config.set_soft_device_placement(False)
    yield
    ek.config.set_soft_device_placement(True)
    ek.config.set_visible_devices(ek.config.list_physical_devices())
    ek.devices.disable_simulated_gpu()


def test_a_hidden_device_names_ek_device_the_call_the_user_made(hidden_gpu_hard_placement):
    with pytest.raises(ek.errors.InvalidArgumentError) as caught:
        with ek.device("/gpu:0"):
            pass
    message = str(caught.value)
    assert message.startswith("device '/gpu:0' was hidden with ek.config.set_visible_devices")
    assert "get_device" not in message
    assert "set_visible_devices(ek.config.list_physical_devices())" in message  # the fix
    # Called directly, get_device names itself.
    with pytest.raises(ek.errors.InvalidArgumentError, match=r"^get_device\('/gpu:0'\): "):
        ek.devices.get_device("/gpu:0")


def test_ek_device_refuses_an_unknown_device_when_called_not_when_entered():
    with pytest.raises(ek.errors.InvalidArgumentError, match="unknown device '/tpu:3'"):
        ek.device("/tpu:3")  # no `with` needed: the call itself is wrong


def test_a_call_that_does_not_fit_an_input_signature_says_so_once():
    @ek.function(input_signature=[ek.TensorSpec(shape=[None], dtype=ek.float32)])
    def sum_of_squares(v):
        return ek.reduce_sum(v * v)

    with pytest.raises(TypeError) as caught:
        sum_of_squares(ek.constant([1, 2]))
    assert str(caught.value).startswith(
        "ek.function 'sum_of_squares': argument 0 has shape (2,) and dtype int32, which does "
        "not match its input_signature entry TensorSpec(shape=(None,), dtype=ek.float32"
    )
    assert isinstance(caught.value, ek.errors.InvalidArgumentError)
    with pytest.raises(TypeError, match=r"^ek.function 'sum_of_squares' has an input_signature"):
        sum_of_squares(ek.constant([1.0]), ek.constant([2.0]))


folder = st.text(st.characters(whitelist_categories=("Ll", "Nd")), min_size=8, max_size=30)


@given(start=st.lists(folder, min_size=1, max_size=4))
def test_a_long_path_is_described_by_its_end_whatever_folder_it_is_in(start):
    path = os.sep + os.sep.join([*start, "broken", "ckpt-3"])
    assert arguments.describe(path) == repr(f"...{os.sep}broken{os.sep}ckpt-3")


def test_a_long_string_that_is_no_path_is_cut_and_a_short_one_kept():
    assert arguments.describe("x" * 40) == "'" + "x" * 20 + "..."
    assert arguments.describe("/tmp/a") == "'/tmp/a'"


def test_a_restore_from_a_temporary_folder_names_the_call_by_the_files_name(tmp_path):
    prefix = str(tmp_path / "broken" / "ckpt-3")
    os.makedirs(os.path.dirname(prefix))
    with open(prefix + ".index.json", "w") as index:
        index.write("{")  # a cut index
    with pytest.raises(ek.errors.DataLossError) as caught:
        ek.train.Checkpoint(v=ek.Variable(1.0)).restore(prefix)
    assert str(caught.value).startswith("Checkpoint.restore('.../broken/ckpt-3'): checkpoint ")
