"""ek.keras.datasets.mnist.load_data(): TF's return format on eagerkit's own downloader,
tested offline as the downloader is (tiny idx files served by a fake URL opener)."""

import os

import numpy as np
import pytest
from test_datasets import fake_mnist, serve  # noqa: F401 - fake_mnist is a fixture

import eagerkit as ek
from eagerkit.datasets import mnist
from eagerkit.errors import InvalidArgumentError, UnavailableError


@pytest.fixture
def cache(tmp_path, monkeypatch, fake_mnist):  # noqa: F811
    """eagerkit's data cache in tmp_path; the fake files' checksums are the published ones."""
    arrays, files, checksums = fake_mnist
    monkeypatch.setenv("EAGERKIT_DATA", str(tmp_path))
    monkeypatch.setattr(mnist, "SHA256", checksums)
    log = []
    serve(monkeypatch, files, log)
    return tmp_path, arrays, log


def test_load_data_returns_tfs_format_and_shares_load_mnists_cache(cache):
    tmp_path, arrays, log = cache
    (x_train, y_train), (x_test, y_test) = ek.keras.datasets.mnist.load_data()
    assert x_train.shape == (5, 28, 28) and x_test.shape == (3, 28, 28)
    assert {a.dtype for a in (x_train, y_train, x_test, y_test)} == {np.dtype(np.uint8)}
    np.testing.assert_array_equal(x_train, arrays["train-images-idx3-ubyte.gz"])
    np.testing.assert_array_equal(x_test, arrays["t10k-images-idx3-ubyte.gz"])
    assert y_train.tolist() == [5, 0, 4, 1, 9] and y_test.tolist() == [7, 2, 1]
    assert all(a.flags.writeable for a in (x_train, y_train, x_test, y_test))  # as TF's
    assert len(log) == 4 and all(url.startswith(mnist.MIRRORS[0]) for url in log)
    assert sorted(os.listdir(tmp_path / "mnist")) == sorted(mnist.FILES.values())
    log.clear()
    ek.keras.datasets.mnist.load_data()
    (scaled, _), _ = ek.datasets.load_mnist(checksums=mnist.SHA256, progress=False)  # cached
    assert log == []
    np.testing.assert_allclose(scaled, x_train / 255.0, rtol=1e-6)


@pytest.mark.parametrize(
    "path, folder",
    [("other.npz", "other"), ("plain", "plain"), ("deeper/mnist.npz", "deeper/mnist")],
)
def test_path_names_a_cache_entry_as_tfs_does(cache, path, folder):
    tmp_path, _, _ = cache
    ek.keras.datasets.mnist.load_data(path=path)
    assert sorted(os.listdir(tmp_path / folder)) == sorted(mnist.FILES.values())
    absolute = tmp_path / "elsewhere" / "mnist.npz"  # an absolute path is used as it is
    ek.keras.datasets.mnist.load_data(path=absolute)
    assert sorted(os.listdir(tmp_path / "elsewhere" / "mnist")) == sorted(mnist.FILES.values())


def test_offline_it_says_what_to_do_and_leaves_nothing(tmp_path, monkeypatch, fake_mnist):  # noqa: F811
    _, files, checksums = fake_mnist
    monkeypatch.setenv("EAGERKIT_DATA", str(tmp_path))
    serve(monkeypatch, files, [], down=("https://",))
    with pytest.raises(UnavailableError) as caught:
        ek.keras.datasets.mnist.load_data()
    message = str(caught.value)
    assert message.startswith("load_data: could not download train-images-idx3-ubyte.gz")
    assert f"put the four files ({', '.join(mnist.FILES.values())}) into " in message
    assert "call ek.keras.datasets.mnist.load_data(path='mnist.npz') again" in message
    assert "load_digits()" in message
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("path", [3, None, "", b"mnist.npz", ".npz", "/", ["mnist.npz"]])
def test_a_bad_path_is_refused_before_anything_is_fetched(cache, path):
    tmp_path, _, log = cache
    with pytest.raises(InvalidArgumentError, match=r"^load_data: path must .*'mnist.npz'"):
        ek.keras.datasets.mnist.load_data(path=path)
    assert log == [] and os.listdir(tmp_path) == []


def test_only_mnist_is_there():
    assert ek.keras.datasets.__all__ == ["mnist"]
    assert ek.keras.datasets.mnist.__all__ == ["load_data"]
    assert "Only MNIST" in ek.keras.datasets.mnist.__doc__
