"""Fetch a file once: try each mirror, verify its SHA-256, cache it, show progress.

A download goes to a temporary file that is renamed into place only once its checksum is
right, and a set of files (MNIST's four) only once all of them are, so a failed call never
leaves a half-downloaded or wrong file, nor replaces a cached one. Tests replace ``urlopen``
to serve files they write themselves (no network).
"""

import hashlib
import os
import tempfile
import urllib.error
import urllib.request

from eagerkit.errors import DataLossError, UnavailableError

urlopen = urllib.request.urlopen  # replaced in tests
_CHUNK = 1 << 16
_TIMEOUT = 30


def fetch(filename, directory, mirrors, sha256, progress=True):
    """The path of ``directory/filename``, downloaded from the first mirror that has it.

    A cached file is used when its checksum is right (and replaced when it is not).
    Raises ``UnavailableError`` when no mirror answers and ``DataLossError`` when every
    answer has the wrong checksum; then ``directory`` is left as it was.
    """
    return fetch_all({filename: sha256}, directory, mirrors, progress)[filename]


def fetch_all(checksums, directory, mirrors, progress=True):
    """``{file name: path}`` for every file of ``checksums`` (``{name: SHA-256}``), all or none.

    Every file that is missing (or cached with a wrong checksum) is downloaded to a
    temporary file first; only when all of them have arrived with the right checksum are
    they renamed into place. A failure removes the temporaries (and ``directory`` when this
    call made it), so a failed call leaves no half-downloaded file and replaces no cached one.
    """
    paths = {name: os.path.join(directory, name) for name in checksums}
    wanted = [n for n in checksums if not _cached(paths[n], checksums[n])]
    if not wanted:
        return paths
    made = not os.path.isdir(directory)
    os.makedirs(directory, exist_ok=True)
    arrived = {}  # name -> its verified temporary file
    try:
        for name in wanted:
            arrived[name] = _from_a_mirror(name, directory, mirrors, checksums[name], progress)
    except BaseException:
        for temporary in arrived.values():
            os.remove(temporary)
        if made and not os.listdir(directory):
            os.rmdir(directory)
        raise
    for name, temporary in arrived.items():
        os.replace(temporary, paths[name])  # atomic: a reader sees the old file or the new
    return paths


def _cached(path, sha256):
    return os.path.isfile(path) and file_sha256(path) == sha256


def _from_a_mirror(filename, directory, mirrors, sha256, progress):
    """A temporary file in ``directory`` holding ``filename`` with the right checksum."""
    failures, wrong = [], []
    for base in mirrors:
        url = base + filename
        try:
            temporary, digest = _download(url, directory, progress)
        except (urllib.error.URLError, OSError, ValueError) as error:
            failures.append(f"{url} ({getattr(error, 'reason', error)})")
            continue
        if digest != sha256:
            os.remove(temporary)
            wrong.append(f"{url} (SHA-256 {digest[:16]}..., expected {sha256[:16]}...)")
            continue
        return temporary
    if wrong and not failures:
        raise DataLossError(
            f"{filename}: every mirror sent a file with the wrong checksum: {'; '.join(wrong)}. "
            "The download may have been altered; nothing was saved.",
            op="download",
        )
    raise UnavailableError(
        f"could not download {filename}; tried {'; '.join(failures + wrong)}. If you are "
        f"offline, connect and run again, or copy {filename} by hand into {directory}.",
        op="download",
    )


def _download(url, directory, progress):
    """Stream ``url`` into a temporary file in ``directory``; ``(its path, its SHA-256)``."""
    digest = hashlib.sha256()
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".download-", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out, urlopen(url, timeout=_TIMEOUT) as response:
            total = response.headers.get("Content-Length")
            with _progress_bar(progress, total, os.path.basename(url)) as bar:
                while chunk := response.read(_CHUNK):
                    out.write(chunk)
                    digest.update(chunk)
                    bar.update(len(chunk))
    except BaseException:
        os.remove(temporary)
        raise
    return temporary, digest.hexdigest()


def _progress_bar(enabled, total, description):
    try:
        from tqdm.auto import tqdm  # a widget in Jupyter, text in a terminal
    except ImportError as error:
        raise ImportError(
            "downloads show a progress bar with tqdm: pip install 'eagerkit[lab]' "
            "(or pip install tqdm)"
        ) from error

    return tqdm(
        total=int(total) if total else None,
        unit="B",
        unit_scale=True,
        desc=description,
        disable=not enabled,
        leave=False,
    )


def file_sha256(path):
    """The SHA-256 of a file's bytes, as hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()
