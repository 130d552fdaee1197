"""A checkpointed value waiting for its variable, which a layer makes on its first call.

``Checkpoint.restore`` leaves one of these with ``tracking.defer`` for every value whose
variable does not exist yet. When the variable appears it is checked and assigned, and the
restore's status records it; if the first call that made the variable then fails, the
build is taken back and ``undo`` puts the value back in wait (tracking.taking_back_restores).
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.variables import Variable


class DeferredValue:
    """``array``, saved under ``key``, for the variable an owner will call ``name``."""

    def __init__(self, key, name, array, slot_values, matched, unconsumed):
        self.key, self.name, self.array = key, name, array
        self.slot_values = slot_values  # [(optimizer, slot name, array)] for that variable
        self.matched, self.unconsumed = matched, unconsumed  # the LoadStatus's records

    def __call__(self, variable):
        """Assign the value to the newly created ``variable`` (or raise, changing nothing)."""
        if not isinstance(variable, Variable):
            found = f"a {type(variable).__name__}"
        elif variable.dtype.name != self.array.dtype.name or variable.shape != self.array.shape:
            found = f"the variable '{variable.name}', {variable.dtype.name} shape {variable.shape}"
        else:
            found = None
        if found is not None:
            raise InvalidArgumentError(
                f"restoring a checkpointed value into a newly created variable failed: "
                f"{self.key}: saved {self.array.dtype.name} shape {self.array.shape}, found "
                f"{found}; the value keeps waiting for a variable of the saved shape",
                op="restore",
            )
        variable._write(variable._device.backend.asarray(self.array), "restore")
        for optimizer, slot_name, slot_array in self.slot_values:
            optimizer._defer_slot_value(
                variable, slot_name, variable._device.backend.asarray(slot_array)
            )
        self.matched.add(id(variable))
        self.unconsumed.pop(self.key, None)

    def undo(self, variable):
        """The build that made ``variable`` is being taken back: wait again, as before."""
        for optimizer, slot_name, _ in self.slot_values:
            optimizer._forget_pending_slot(variable, slot_name)
        self.matched.discard(id(variable))
        self.unconsumed[self.key] = f"waiting for '{self.name}' to be created"
