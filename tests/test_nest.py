"""ek.nest: flatten and pack_sequence_as on structures hypothesis makes (lists, tuples,
namedtuples, dicts, leaves), including the flat list that ``tape.gradient`` packs at every
step, which ``pack_sequence_as`` answers without walking it."""

import collections

import pytest
from hypothesis import given
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit import nest

Pair = collections.namedtuple("Pair", "first second")

leaves = st.integers() | st.none() | st.text(max_size=3)
structures = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=4).map(tuple)
        | st.builds(Pair, inner, inner)
        | st.dictionaries(st.text(min_size=1, max_size=3), inner, max_size=3)
    ),
    max_leaves=12,
)


def walked_leaves(structure):
    """The leaves in TF's order, written apart from nest.flatten: dicts by sorted key."""
    if isinstance(structure, dict):
        return [leaf for key in sorted(structure) for leaf in walked_leaves(structure[key])]
    if isinstance(structure, (list, tuple)):
        return [leaf for item in structure for leaf in walked_leaves(item)]
    return [structure]


def same_structure(a, b):
    """Equal, and of the same types all the way down (a tuple is not a list)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same_structure(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same_structure(x, y) for x, y in zip(a, b, strict=True))
    return a == b


@given(structures)
def test_flatten_lists_the_leaves_in_tfs_order(structure):
    assert ek.nest.flatten(structure) == walked_leaves(structure)


@given(structures)
def test_packing_the_leaves_gives_the_structure_back(structure):
    packed = ek.nest.pack_sequence_as(structure, ek.nest.flatten(structure))
    assert same_structure(packed, structure)


@given(structures, st.data())
def test_packing_new_leaves_puts_each_where_its_old_one_was(structure, data):
    count = len(walked_leaves(structure))
    new = data.draw(st.lists(st.integers(), min_size=count, max_size=count))
    packed = ek.nest.pack_sequence_as(structure, new)
    assert ek.nest.flatten(packed) == new
    # The flat-list shortcut answers as the general walk does (a generator takes the walk).
    assert same_structure(packed, ek.nest.pack_sequence_as(structure, iter(new)))


@pytest.mark.parametrize("structure", [[1, 2], (1, 2), [1, [2]], Pair(1, 2), [1, {"a": 2}]])
@pytest.mark.parametrize("given_count", [1, 3])
def test_a_wrong_number_of_leaves_is_named_with_the_fix(structure, given_count):
    with pytest.raises(ek.errors.InvalidArgumentError) as caught:
        ek.nest.pack_sequence_as(structure, list(range(given_count)))
    message = str(caught.value)
    assert message.startswith("pack_sequence_as: the structure holds 2 leaves but ")
    assert "pass exactly one leaf per place" in message


def test_a_flat_list_of_leaves_comes_back_as_a_new_list_of_the_structures_type():
    leaves_given = ["dw", "db"]
    packed = nest.pack_sequence_as(("w", "b"), leaves_given)
    assert packed == ("dw", "db") and type(packed) is tuple
    packed = nest.pack_sequence_as(["w", "b"], leaves_given)
    assert packed == leaves_given and packed is not leaves_given  # the caller's list is kept
