"""A restore's plan: every saved value matched to its variable and checked, before any is set.

``Checkpoint.restore`` reads the whole checkpoint, then ``plan`` matches each key (by every
path it was saved under: checkpoint_paths.py) to a variable, an optimizer slot or an
iterator, or to the owner that will create it later, and collects every mismatch. Only a
plan without errors is carried out, so a failed restore changes nothing.
"""

from eagerkit.errors import InvalidArgumentError
from eagerkit.train import checkpoint_keys as keys
from eagerkit.train import checkpoint_paths
from eagerkit.train.optimizer import Optimizer
from eagerkit.variables import Variable

SLOT, STATE, VALUE = keys.SLOT, keys.STATE, keys.VALUE


class Plan:
    def __init__(self):
        self.assignments = []  # (variable, array)
        self.slots = []  # (variable, optimizer, slot name, array)
        self.states = []  # (iterator, array): positions to restore
        self.deferred = []  # (owner, attribute name, key, [(optimizer, slot name, array)])
        self.unresolved = {}  # key -> why it matches nothing
        self.errors = []


def plan_restore(root, arrays, aliases, save_path):
    """Match every key (by each path it was saved under) to its targets and check them;
    raise (changing nothing) on mismatches."""
    plan = Plan()
    aliases_of = {}
    for alias, key in aliases.items():
        aliases_of.setdefault(key, []).append(alias)
    deferred = {}  # key -> its entries in plan.deferred, one per path whose owner exists
    for key, array in arrays.items():
        if f"/{SLOT}/" in key:
            continue
        if key.endswith("/" + STATE):
            _plan_state(plan, root, key, array, aliases_of)
            continue
        if not key.endswith("/" + VALUE):
            raise InvalidArgumentError(
                f"checkpoint {save_path!r}: unknown key {key!r}", op="restore"
            )
        targets, waiting = {}, []
        for route in checkpoint_paths.routes(key, aliases_of):
            owner, name, target = _resolve(root, checkpoint_paths.split_value_key(route))
            if target is not None:
                targets.setdefault(id(target), target)  # one object by two paths: once
            elif owner is not None:  # the owner may create it later (checkpoint.v = ... too)
                waiting.append((owner, name, key, []))
        for target in targets.values():
            _check_match(plan, key, target, array)
            plan.assignments.append((target, array))
        if not targets and waiting:
            deferred[key] = waiting
            plan.deferred.extend(waiting)
        elif not targets:
            plan.unresolved[key] = "no object at this path"
    for key, array in arrays.items():
        if f"/{SLOT}/" not in key:
            continue
        variable_path, rest = key.split(f"/{SLOT}/")
        optimizer_path, slot_name = rest.rsplit("/", 1)
        slot_name = keys.unescape(slot_name)
        optimizer = _resolve(root, keys.split(optimizer_path))[2]
        variable_key = f"{variable_path}/{VALUE}"
        if not isinstance(optimizer, Optimizer):
            plan.unresolved[key] = "no optimizer at this path"
        elif variable_key in deferred:
            for entry in deferred[variable_key]:
                entry[3].append((optimizer, slot_name, array))
        else:
            variable = _first_target(root, variable_key, aliases_of)
            if variable is None:
                plan.unresolved[key] = "no variable at this path"
                continue
            _check_match(plan, key, variable, array)
            plan.slots.append((variable, optimizer, slot_name, array))
    if plan.errors:
        shown = "\n  ".join(plan.errors[:10])
        raise InvalidArgumentError(
            f"checkpoint {save_path!r} does not match the objects being restored "
            f"(nothing was changed):\n  {shown}\nRestore into a model built the same way "
            "as the one that was saved.",
            op="restore",
        )
    return plan


def _plan_state(plan, root, key, array, aliases_of):
    """Match a saved iterator position to the iterator at its path (restored with the rest)."""
    target = _first_target(root, key, aliases_of)
    if callable(getattr(target, "_restore_checkpoint_state", None)):
        plan.states.append((target, array))
    elif target is None:
        plan.unresolved[key] = "no object at this path"
    else:
        plan.errors.append(f"{key}: saved an iterator, found a {type(target).__name__}")


def _resolve(root, names):
    """``(owner, name, target)`` for a path (checkpoint_paths.resolve), the counter too."""
    from eagerkit.train.checkpoint import Checkpoint  # it imports this module

    if names == ["save_counter"] and isinstance(root, Checkpoint):
        return None, None, root.save_counter  # not a dependency: nested ones save none
    return checkpoint_paths.resolve(root, names)


def _first_target(root, key, aliases_of):
    """The object at the first of ``key``'s paths that reaches one, or ``None``."""
    for route in checkpoint_paths.routes(key, aliases_of):
        suffix = VALUE if route.endswith("/" + VALUE) else STATE
        target = _resolve(root, keys.split(route[: -len(suffix) - 1]))[2]
        if target is not None:
            return target
    return None


def _check_match(plan, key, target, array):
    if not isinstance(target, Variable):
        plan.errors.append(f"{key}: saved a variable, found a {type(target).__name__}")
    elif target.dtype.name != array.dtype.name or target.shape != array.shape:
        plan.errors.append(
            f"{key}: saved {array.dtype.name} shape {array.shape}, the variable "
            f"'{target.name}' is {target.dtype.name} shape {target.shape}"
        )
