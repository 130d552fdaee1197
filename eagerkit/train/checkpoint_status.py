"""What ``Checkpoint.restore`` returns: which values found a home, checked on request.

A restore may be partial on purpose (a checkpoint of a bigger model) or by mistake (a
renamed attribute). ``assert_consumed()`` says which: it fails listing every checkpoint
value that found no variable and every variable that got no value. Values waiting for
variables that are not created yet (deferred restore) count as unconsumed until then.
"""

from eagerkit.train import tracking
from eagerkit.variables import Variable


class LoadStatus:
    """The result of ``Checkpoint.restore(path)``; its methods return it, so they chain."""

    def __init__(self, save_path, root, matched, unconsumed):
        self.save_path = save_path
        self._root = root
        self._matched = matched  # ids of variables that got a value (grows on deferred restore)
        self._unconsumed = unconsumed  # key -> reason; shrinks as deferred values are used

    def assert_consumed(self):
        """Fail unless every saved value was used and every variable got one.

        Examples
        --------
        >>> import eagerkit as ek, os, tempfile
        >>> prefix = os.path.join(tempfile.mkdtemp(), "ckpt")
        >>> path = ek.train.Checkpoint(a=ek.Variable(1.0), b=ek.Variable(2.0)).save(prefix)
        >>> status = ek.train.Checkpoint(a=ek.Variable(0.0)).restore(path)
        >>> status.assert_consumed()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        AssertionError: Unused values in the checkpoint ...: b/... (no object at this path yet: ...)
        """
        self._check_path()
        if self._unconsumed:
            listed = ", ".join(f"{key} ({why})" for key, why in self._unconsumed.items())
            raise AssertionError(f"Unused values in the checkpoint {self.save_path!r}: {listed}")
        return self.assert_existing_objects_matched()

    def assert_existing_objects_matched(self):
        """Fail if a variable that exists now got no value (values still pending are fine)."""
        self._check_path()
        missing = [
            "/".join(path)
            for path, obj in tracking.walk(self._root)
            if isinstance(obj, Variable) and id(obj) not in self._matched
        ]
        if missing:
            raise AssertionError(
                f"These variables got no value from the checkpoint {self.save_path!r}: "
                f"{', '.join(missing)}"
            )
        return self

    def expect_partial(self):
        """Say that a partial restore is intended (eagerkit never warns about it anyway)."""
        return self

    def _check_path(self):
        if self.save_path is None:
            raise AssertionError(
                "No checkpoint specified (save_path=None); nothing is being restored."
            )

    def __repr__(self):
        pending = len(self._unconsumed)
        return f"<ek.train LoadStatus {self.save_path!r}: {pending} value(s) not used yet>"
