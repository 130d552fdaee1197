"""ek.datasets: digits, the synthetic birth-life data, and the MNIST downloader (offline:
the tests write idx files and serve them through a fake URL opener)."""

import gzip
import hashlib
import io
import os
import struct
import urllib.error

import numpy as np
import pytest

import eagerkit as ek
from eagerkit.datasets import birth_life, download, mnist
from eagerkit.errors import DataLossError, UnavailableError


def test_load_digits_sizes_scaling_and_split():
    (x_train, y_train), (x_test, y_test) = ek.datasets.load_digits()
    assert x_train.shape == (1437, 8, 8) and x_test.shape == (360, 8, 8)
    assert x_train.dtype == np.float32 and y_train.dtype == np.int32
    assert x_train.min() == 0.0 and x_train.max() == 1.0
    assert set(np.unique(y_test)) == set(range(10))
    assert np.bincount(y_test).min() >= 35  # stratified: every digit well represented
    (again, _), _ = ek.datasets.load_digits()
    np.testing.assert_array_equal(again, x_train)  # the split is fixed by the seed
    (other, _), _ = ek.datasets.load_digits(seed=1)
    assert not np.array_equal(other, x_train)
    (small, _), (large, _) = ek.datasets.load_digits(test_size=0.5)
    assert len(small) + len(large) == 1797


def test_birth_life_data_follows_the_recipe():
    x, y = ek.datasets.birth_life_data(seed=0)
    assert x.shape == y.shape == (190,) and x.dtype == y.dtype == np.float32
    assert 1.05 <= x.min() and x.max() <= 7.1
    assert 2.4 < x.mean() < 3.2 and np.mean(x) > np.median(x)  # right-skewed
    slope, intercept = np.polyfit(x, y, 1)
    assert abs(slope - birth_life.SLOPE) < 0.8 and abs(intercept - birth_life.INTERCEPT) < 2.5
    residuals = y - (birth_life.INTERCEPT + birth_life.SLOPE * x)
    assert 4.0 < residuals.std() < 7.0
    np.testing.assert_array_equal(ek.datasets.birth_life_data(seed=0)[1], y)
    assert not np.array_equal(ek.datasets.birth_life_data(seed=1)[1], y)


# --- MNIST, offline ------------------------------------------------------------------------------
def idx_bytes(array):
    header = struct.pack(">BBBB", 0, 0, 0x08, array.ndim)
    header += struct.pack(f">{array.ndim}I", *array.shape)
    return gzip.compress(header + array.astype(np.uint8).tobytes())


@pytest.fixture
def fake_mnist():
    """Tiny MNIST-shaped files: 5 training and 3 test images of 28x28 pixels."""
    rng = np.random.default_rng(0)
    arrays = {
        "train-images-idx3-ubyte.gz": rng.integers(0, 256, size=(5, 28, 28)),
        "train-labels-idx1-ubyte.gz": np.array([5, 0, 4, 1, 9]),
        "t10k-images-idx3-ubyte.gz": rng.integers(0, 256, size=(3, 28, 28)),
        "t10k-labels-idx1-ubyte.gz": np.array([7, 2, 1]),
    }
    files = {name: idx_bytes(a) for name, a in arrays.items()}
    checksums = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    return arrays, files, checksums


class FakeResponse(io.BytesIO):
    def __init__(self, data):
        super().__init__(data)
        self.headers = {"Content-Length": str(len(data))}


def serve(monkeypatch, files, log, down=()):
    def fake_urlopen(url, timeout):
        log.append(url)
        if any(url.startswith(base) for base in down):
            raise urllib.error.URLError("[Errno -3] Temporary failure in name resolution")
        return FakeResponse(files[url.rsplit("/", 1)[-1]])

    monkeypatch.setattr(download, "urlopen", fake_urlopen)


def test_load_mnist_downloads_verifies_caches(tmp_path, monkeypatch, fake_mnist):
    arrays, files, checksums = fake_mnist
    log = []
    serve(monkeypatch, files, log, down=("https://mirror-a/",))
    mirrors = ("https://mirror-a/", "https://mirror-b/")
    (x_train, y_train), (x_test, y_test) = ek.datasets.load_mnist(
        path=tmp_path, mirrors=mirrors, checksums=checksums, progress=False
    )
    assert x_train.shape == (5, 28, 28) and x_test.shape == (3, 28, 28)
    assert x_train.dtype == np.float32 and y_train.dtype == np.int32
    np.testing.assert_allclose(x_train, arrays["train-images-idx3-ubyte.gz"] / 255.0, rtol=1e-6)
    assert y_train.tolist() == [5, 0, 4, 1, 9] and y_test.tolist() == [7, 2, 1]
    assert sorted(os.listdir(tmp_path)) == sorted(files)  # cached, no temporary files left
    assert len(log) == 8  # each file: mirror a failed, mirror b answered
    log.clear()
    ek.datasets.load_mnist(path=tmp_path, mirrors=mirrors, checksums=checksums, progress=False)
    assert log == []  # the second call reads the cache


def test_a_damaged_cache_is_fetched_again(tmp_path, monkeypatch, fake_mnist):
    _, files, checksums = fake_mnist
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "t10k-labels-idx1-ubyte.gz").write_bytes(b"half a fi")
    log = []
    serve(monkeypatch, files, log)
    (_, _), (_, y_test) = ek.datasets.load_mnist(
        path=tmp_path, mirrors=("https://m/",), checksums=checksums, progress=False
    )
    assert log == ["https://m/t10k-labels-idx1-ubyte.gz"] and y_test.tolist() == [7, 2, 1]


def test_offline_error_says_what_to_do(tmp_path, monkeypatch, fake_mnist):
    _, files, checksums = fake_mnist
    serve(monkeypatch, files, [], down=("https://",))
    with pytest.raises(UnavailableError) as caught:
        ek.datasets.load_mnist(path=tmp_path, checksums=checksums, progress=False)
    message = str(caught.value)
    assert "could not download train-images-idx3-ubyte.gz" in message
    assert (
        "https://storage.googleapis.com/cvdf-datasets/mnist/train-images-idx3-ubyte.gz" in message
    )
    assert "Temporary failure in name resolution" in message
    assert "put the four files" in message and f"load_mnist(path='{tmp_path}')" in message
    assert "load_digits()" in message
    assert os.listdir(tmp_path) == []


def test_wrong_checksum_is_data_loss_and_nothing_is_kept(tmp_path, monkeypatch, fake_mnist):
    _, files, checksums = fake_mnist
    serve(monkeypatch, files, [])
    wrong = dict(checksums, **{"train-images-idx3-ubyte.gz": "0" * 64})
    with pytest.raises(DataLossError, match="every mirror sent a file with the wrong checksum"):
        ek.datasets.load_mnist(
            path=tmp_path, mirrors=("https://m/",), checksums=wrong, progress=False
        )
    assert os.listdir(tmp_path) == []


def test_real_checksums_are_the_published_ones():
    assert mnist.SHA256["train-images-idx3-ubyte.gz"] == (
        "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609"
    )
    assert set(mnist.SHA256) == set(mnist.FILES.values())
    assert all(len(h) == 64 and int(h, 16) >= 0 for h in mnist.SHA256.values())


def test_read_idx_errors(tmp_path):
    path = str(tmp_path / "images-idx3-ubyte")
    with open(path, "wb") as f:
        f.write(struct.pack(">BBBBIII", 0, 0, 0x08, 3, 2, 2, 2) + bytes(5))
    with pytest.raises(DataLossError, match=r"announces shape \(2, 2, 2\) \(8 bytes\) but 5"):
        ek.datasets.read_idx(path)
    with open(path, "wb") as f:
        f.write(b"PK\x03\x04 not idx")
    with pytest.raises(DataLossError, match="is not an idx file of unsigned bytes"):
        ek.datasets.read_idx(path)


def test_progress_bar_is_tqdm(tmp_path, monkeypatch, fake_mnist):
    _, files, checksums = fake_mnist
    serve(monkeypatch, files, [])
    seen = []
    import tqdm.auto

    class RecordingBar(tqdm.auto.tqdm):
        def update(self, n=1):
            seen.append((self.desc, self.total, n))
            return super().update(n)

    monkeypatch.setattr(tqdm.auto, "tqdm", RecordingBar)
    download.fetch(
        "t10k-labels-idx1-ubyte.gz",
        str(tmp_path),
        ("https://m/",),
        checksums["t10k-labels-idx1-ubyte.gz"],
        progress=True,
    )
    size = len(files["t10k-labels-idx1-ubyte.gz"])
    assert seen == [("t10k-labels-idx1-ubyte.gz", size, size)]


# --- a failed load_mnist changes no file --------------------------------------------------------
def files_in(directory):
    """``{name: bytes}`` of a directory: what a failed call must leave as it was."""
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def serve_until(monkeypatch, files, log, failing, how):
    """A fake mirror that fails on ``failing`` (``how``: "offline", "wrong bytes" or
    "cut off": the connection drops after half the file), and serves the rest."""

    class CutOff(FakeResponse):
        def read(self, size=-1):
            if self.tell() >= len(self.getvalue()) // 2:
                raise ConnectionResetError("[Errno 104] Connection reset by peer")
            return super().read(min(size, 16))

    def fake_urlopen(url, timeout):
        log.append(url)
        name = url.rsplit("/", 1)[-1]
        if name != failing:
            return FakeResponse(files[name])
        if how == "offline":
            raise urllib.error.URLError("[Errno -3] Temporary failure in name resolution")
        if how == "wrong bytes":
            return FakeResponse(files[name][:-1] + b"!")
        return CutOff(files[name])

    monkeypatch.setattr(download, "urlopen", fake_urlopen)


@pytest.mark.parametrize("how", ["offline", "wrong bytes", "cut off"])
@pytest.mark.parametrize("failing", ["train-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"])
def test_a_failed_download_leaves_no_file_of_the_four(
    tmp_path, monkeypatch, fake_mnist, how, failing
):
    _, files, checksums = fake_mnist
    log = []
    serve_until(monkeypatch, files, log, failing, how)
    with pytest.raises((UnavailableError, DataLossError), match=failing):
        ek.datasets.load_mnist(
            path=tmp_path, mirrors=("https://m/",), checksums=checksums, progress=False
        )
    assert f"https://m/{failing}" in log
    assert files_in(tmp_path) == {}  # neither the files that came, nor a .part file


@pytest.mark.parametrize("how", ["offline", "wrong bytes", "cut off"])
def test_a_failed_download_keeps_the_cached_files_as_they_were(
    tmp_path, monkeypatch, fake_mnist, how
):
    _, files, checksums = fake_mnist
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    damaged = "t10k-images-idx3-ubyte.gz"
    (tmp_path / damaged).write_bytes(b"half a fi")  # fetched again, and that fails
    before = files_in(tmp_path)
    serve_until(monkeypatch, files, [], damaged, how)
    with pytest.raises((UnavailableError, DataLossError)):
        ek.datasets.load_mnist(
            path=tmp_path, mirrors=("https://m/",), checksums=checksums, progress=False
        )
    assert files_in(tmp_path) == before  # the damaged copy was not removed nor replaced


def test_a_failed_download_does_not_leave_the_directory_it_made(tmp_path, monkeypatch, fake_mnist):
    _, files, checksums = fake_mnist
    serve_until(monkeypatch, files, [], "train-labels-idx1-ubyte.gz", "offline")
    with pytest.raises(UnavailableError):
        ek.datasets.load_mnist(
            path=tmp_path / "new", mirrors=("https://m/",), checksums=checksums, progress=False
        )
    assert files_in(tmp_path) == {}


@pytest.mark.parametrize(
    "arguments, message",
    [
        ({"path": 3}, r"path must be a directory \(a str or pathlib.Path\), got 3"),
        ({"mirrors": "https://m/"}, r"mirrors must be a non-empty list or tuple .*, got 'https"),
        ({"mirrors": ()}, "mirrors must be a non-empty list or tuple of base URLs"),
        ({"checksums": np.bool_}, r"checksums must map each .* got np.bool"),
        (
            {"checksums": {"train-images-idx3-ubyte.gz": "0" * 64}},
            "checksums must .* missing for t10k-images",
        ),
    ],
    ids=["path", "one mirror as a str", "no mirror", "checksums a type", "checksums of one"],
)
def test_bad_arguments_are_refused_before_anything_is_fetched(
    tmp_path, monkeypatch, fake_mnist, arguments, message
):
    _, files, checksums = fake_mnist
    log = []
    serve(monkeypatch, files, log)
    given = {"path": tmp_path, "mirrors": ("https://m/",), "checksums": checksums}
    with pytest.raises(ek.errors.InvalidArgumentError, match=f"^load_mnist: {message}"):
        ek.datasets.load_mnist(**{**given, **arguments}, progress=False)
    assert log == [] and files_in(tmp_path) == {}


def test_a_path_given_as_bytes_is_the_same_directory(tmp_path, monkeypatch, fake_mnist):
    _, files, checksums = fake_mnist
    serve(monkeypatch, files, [])
    (_, y_train), _ = ek.datasets.load_mnist(
        path=os.fsencode(tmp_path), mirrors=("https://m/",), checksums=checksums, progress=False
    )
    assert y_train.tolist() == [5, 0, 4, 1, 9] and sorted(files_in(tmp_path)) == sorted(files)


@pytest.mark.parametrize("test_size", [True, 1.5, 0.001, 2**63, "0.2"])
def test_load_digits_names_a_bad_test_size_with_the_fix(test_size):
    # scikit-learn said "Invalid value for test_size: True", and nothing about what is valid
    with pytest.raises(
        ek.errors.InvalidArgumentError,
        match=r"^load_digits: test_size must be a fraction in \(0, 1\) or a number of test images",
    ):
        ek.datasets.load_digits(test_size=test_size)


def test_load_digits_takes_a_numpy_count():  # scikit-learn refuses an np.uint8
    (_, _), (x_test, _) = ek.datasets.load_digits(test_size=np.uint8(255))
    assert len(x_test) == 255


def test_read_idx_of_a_missing_file_names_the_call_and_the_fix(tmp_path):
    with pytest.raises(ek.errors.NotFoundError, match=r"^read_idx: no such file: .*check the path"):
        ek.datasets.read_idx(str(tmp_path / "nope-idx1-ubyte"))
