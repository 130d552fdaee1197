"""Writing files so that a crash (or a kill) at any moment leaves the old file or the new one.

A file is written to a temporary file beside it and renamed into place: ``os.replace`` is
atomic, so readers see the whole old file or the whole new one, never half of either. The
temporary file's name holds the writer's process id, so a later save can tell the leftovers
of a killed writer (``clean_up``) from a file another process is still writing.

A save that changes several files (a checkpoint's two files, the state file, the old
checkpoints a manager drops) runs inside ``all_or_nothing``: if any step raises (a full disk,
a file that cannot be deleted), every file it names is put back as it was.
"""

import contextlib
import hashlib
import itertools
import os
import re
import shutil
import tempfile

_TEMPORARY = re.compile(r"^\.tmp-(\d+)-.*\.part$")
_copies = itertools.count()  # numbers the copies all_or_nothing keeps


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


@contextlib.contextmanager
def all_or_nothing(paths, directory):
    """Inside, change the files at ``paths`` (write, replace, remove them) and create
    ``directory`` if needed; if the block raises, each file gets back its old bytes (or is
    removed, if it did not exist) and the directories made are removed again.

    The old files are kept as hard links (a copy where links are not supported), so even a
    file replaced with ``os.replace`` comes back.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "a.txt")
    >>> with open(path, "w") as f:
    ...     _ = f.write("old")
    >>> try:
    ...     with all_or_nothing([path], folder):
    ...         os.remove(path)
    ...         raise OSError("No space left on device")
    ... except OSError:
    ...     pass
    >>> open(path).read(), sorted(os.listdir(folder))
    ('old', ['a.txt'])
    """
    made = _missing_directories(directory)
    os.makedirs(directory, exist_ok=True)
    kept = {}
    try:
        for path in paths:
            if os.path.exists(path):
                kept[path] = _keep_a_copy(path)
        yield
    except BaseException:
        _put_back(paths, kept, made)
        raise
    for backup in kept.values():  # the save is done: a copy left here is only clutter
        with contextlib.suppress(OSError):
            os.remove(backup)


def _put_back(paths, kept, made):
    """Undo a failed block of ``all_or_nothing``, as far as the file system lets us (each
    step is tried even if one before it failed: the error that matters is the first)."""
    for path in paths:
        with contextlib.suppress(OSError):
            if path in kept:
                os.replace(kept[path], path)
            else:
                _remove_if_there(path)
    for backup in kept.values():  # left only where rename() found both names one file
        with contextlib.suppress(OSError):
            _remove_if_there(backup)
    for folder in made:  # deepest first; only if still empty
        with contextlib.suppress(OSError):
            os.rmdir(folder)


def _keep_a_copy(path):
    """A second name for ``path``'s current bytes, beside it (a temporary-file name, so the
    copy a killed process leaves behind is cleaned up like its other temporary files)."""
    directory, name = os.path.split(os.path.abspath(path))
    backup = os.path.join(directory, f".tmp-{os.getpid()}-{next(_copies)}-{name}.part")
    try:
        os.link(path, backup)  # the old bytes keep a name however ``path`` is changed
    except OSError:  # no hard links here (some network and FAT file systems): copy
        shutil.copy2(path, backup)
    return backup


def _missing_directories(directory):
    """The directories ``os.makedirs(directory)`` would create, deepest first."""
    missing = []
    current = os.path.abspath(directory)
    while not os.path.isdir(current):
        missing.append(current)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    return missing


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
