"""Writing files so that a crash (or a kill) at any moment leaves the old file or the new one.

A file is written to a temporary file beside it and renamed into place: ``os.replace`` is
atomic, so readers see the whole old file or the whole new one, never half of either. The
temporary file's name holds the writer's process id, so a later save can tell the leftovers
of a killed writer (``clean_up``) from a file another process is still writing.
"""

import hashlib
import os
import re
import tempfile

_TEMPORARY = re.compile(r"^\.tmp-(\d+)-.*\.part$")


def replace_atomically(path, write_to):
    """Write through ``write_to(file)`` to a temporary file, rename it ``path``; its SHA-256."""
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(
        dir=directory, prefix=f".tmp-{os.getpid()}-", suffix=".part"
    )
    try:
        with os.fdopen(handle, "wb") as f:
            write_to(f)
            f.flush()
            os.fsync(f.fileno())  # on disk before the rename makes it visible
        with open(temporary, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        os.replace(temporary, path)
    except BaseException:
        os.remove(temporary)
        raise
    return digest


def clean_up(directory):
    """Remove the temporary files that writers killed mid-write left in ``directory``."""
    for name in _listdir(directory):
        match = _TEMPORARY.match(name)
        if match and not _is_running(int(match.group(1))):
            _remove_if_there(os.path.join(directory, name))


def sha256_of(path):
    """The SHA-256 of the file at ``path`` (hex)."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _is_running(pid):
    if pid == os.getpid():
        return True  # our own: a write in progress in another thread
    try:
        os.kill(pid, 0)  # signal 0 only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, it is someone else's
    return True


def _remove_if_there(path):
    try:
        os.remove(path)
    except FileNotFoundError:
        pass  # another cleaner was quicker


def _listdir(directory):
    try:
        return os.listdir(directory)
    except FileNotFoundError:
        return []
