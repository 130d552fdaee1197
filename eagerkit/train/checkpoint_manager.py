"""CheckpointManager: numbered saves in one directory, keeping only the newest few."""

import os

from eagerkit.train import checkpoint_io, checkpoint_state


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
        if max_to_keep is not None and int(max_to_keep) < 1:
            raise ValueError(
                f"CheckpointManager: max_to_keep must be >= 1 or None, got {max_to_keep!r}"
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
        """Save a new numbered checkpoint, drop the oldest beyond ``max_to_keep``; its path."""
        os.makedirs(self.directory, exist_ok=True)
        path = self.checkpoint._write_numbered(self._prefix)
        kept = [p for p in self._checkpoints if p != path] + [path]
        dropped = []
        if self.max_to_keep is not None and len(kept) > self.max_to_keep:
            dropped, kept = kept[: -self.max_to_keep], kept[-self.max_to_keep :]
        checkpoint_state.write_state(self.directory, kept)  # the state file first: it never lists
        for old in dropped:  # a checkpoint that is already gone
            checkpoint_io.remove(old)
        self._checkpoints = kept
        return path
