"""CheckpointManager: numbered saves in one directory, keeping only the newest few."""

import os

from eagerkit.arguments import whole_number
from eagerkit.errors import InvalidArgumentError
from eagerkit.train import checkpoint_io, checkpoint_state
from eagerkit.train.atomic_files import all_or_nothing

_OP = "CheckpointManager"


class CheckpointManager:
    """Saves ``checkpoint`` as ``<directory>/<checkpoint_name>-N``, deleting all but the last
    ``max_to_keep`` (``None`` keeps every one).

    Examples
    --------
    >>> import eagerkit as ek, tempfile
    >>> w = ek.Variable(1.0)
    >>> manager = ek.train.CheckpointManager(ek.train.Checkpoint(w=w), tempfile.mkdtemp(), 2)
    >>> paths = [manager.save() for _ in range(3)]
    >>> [p.rsplit("/", 1)[-1] for p in manager.checkpoints]
    ['ckpt-2', 'ckpt-3']
    >>> manager.latest_checkpoint == paths[-1]
    True
    """

    def __init__(self, checkpoint, directory, max_to_keep=5, checkpoint_name="ckpt"):
        from eagerkit.train.checkpoint import Checkpoint

        if not isinstance(checkpoint, Checkpoint):
            raise InvalidArgumentError(
                f"CheckpointManager: checkpoint must be an ek.train.Checkpoint, got "
                f"{type(checkpoint).__name__}; wrap what to save: "
                "ek.train.Checkpoint(model=model, optimizer=optimizer)",
                op="CheckpointManager",
            )
        if max_to_keep is not None:  # 1.5 is refused, not cut to 1
            max_to_keep = whole_number(max_to_keep, "max_to_keep", _OP)
            if max_to_keep < 1:
                raise InvalidArgumentError(
                    f"{_OP}: max_to_keep must be >= 1 or None, got {max_to_keep}", op=_OP
                )
        self.checkpoint = checkpoint
        self.directory = os.fspath(directory)
        self.max_to_keep = max_to_keep
        self._prefix = os.path.join(self.directory, checkpoint_name)
        # Pick up the checkpoints an earlier run left here (those whose files still exist).
        self._checkpoints = [
            p
            for p in checkpoint_state.state_prefixes(self.directory)
            if os.path.exists(checkpoint_io.index_path(p))
        ]

    @property
    def checkpoints(self):
        """The kept checkpoint paths, oldest first."""
        return list(self._checkpoints)

    @property
    def latest_checkpoint(self):
        """The newest kept checkpoint path, or ``None`` before the first save."""
        return self._checkpoints[-1] if self._checkpoints else None

    def save(self):
        """Save a new numbered checkpoint, drop the oldest beyond ``max_to_keep``; its path.

        All or nothing: if a step fails (a full disk, an old checkpoint that cannot be
        deleted), every file is as it was, and so are the manager and the save counter.
        """
        checkpoint = self.checkpoint
        number = checkpoint._next_number()
        path = f"{self._prefix}-{number}"
        arrays, aliases = checkpoint._contents(save_counter=number)
        kept = [p for p in self._checkpoints if p != path] + [path]
        dropped = []
        if self.max_to_keep is not None and len(kept) > self.max_to_keep:
            dropped, kept = kept[: -self.max_to_keep], kept[-self.max_to_keep :]
        touched = [os.path.join(self.directory, checkpoint_state.STATE_FILE)]
        for prefix in (path, *dropped):
            touched += checkpoint_io.files(prefix)
        with all_or_nothing(touched, self.directory):
            checkpoint_io.write(path, arrays, aliases)
            checkpoint_state.write_state(self.directory, kept)  # first: it never lists
            for old in dropped:  # a checkpoint that is already gone
                checkpoint_io.remove(old)
        checkpoint._count_save()
        self._checkpoints = kept
        return path
