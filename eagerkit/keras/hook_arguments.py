"""The arguments of eagerkit's own callback hooks, checked before the hook runs.

``fit`` calls ``on_epoch_end(epoch, logs)``, ``on_train_batch_end(batch, logs)``,
``on_train_begin(logs)`` ...: a whole number >= 0 and a dict of metric values (or None).
Called by hand with something else (a string for ``batch``, a list for ``logs``), a hook
would fail deep inside with Python's words (``can't concat int to bytes``); this says which
argument and what to pass instead. Users' own callbacks are left as they wrote them.

Examples
--------
>>> import eagerkit as ek
>>> ek.keras.callbacks.History().on_epoch_end(0, logs=["loss"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
eagerkit.errors.InvalidArgumentError: History.on_epoch_end: logs must be a dict ...
"""

import functools
import numbers

from eagerkit.arguments import describe
from eagerkit.errors import InvalidArgumentError


def checked(owner, hook, method):
    """``method`` (hook ``hook`` of class ``owner``) checking its arguments first."""
    counted = "epoch" if hook.startswith("on_epoch") else "batch" if "batch" in hook else None

    @functools.wraps(method)
    def hook_with_checks(self, *args, **kwargs):
        where = f"{owner}.{hook}"
        rest = list(args)
        if counted is not None:
            count = rest.pop(0) if rest else kwargs.get(counted, 0)
            if isinstance(count, bool) or not isinstance(count, numbers.Integral) or count < 0:
                raise InvalidArgumentError(
                    f"{where}: {counted} must be a whole number >= 0 (the {counted} index fit "
                    f"passes), got {describe(count)}; pass e.g. {counted}=0",
                    op=where,
                )
        logs = rest[0] if rest else kwargs.get("logs")
        if logs is not None and not isinstance(logs, dict):
            raise InvalidArgumentError(
                f"{where}: logs must be a dict of metric values (or None), got "
                f"{describe(logs)}; pass e.g. logs={{'loss': 0.5}}",
                op=where,
            )
        return method(self, *args, **kwargs)

    return hook_with_checks
