"""ek.nest: flatten, pack_sequence_as, map_structure, assert_same_structure and is_nested on
structures hypothesis makes (lists, tuples, namedtuples, dicts, OrderedDicts, defaultdicts,
leaves), including the flat list that ``tape.gradient`` packs at every step, which
``pack_sequence_as`` answers without walking it."""

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
        | st.dictionaries(st.text(min_size=1, max_size=3), inner, max_size=3).map(
            collections.OrderedDict
        )
        | st.dictionaries(st.text(min_size=1, max_size=3), inner, max_size=3).map(
            lambda d: collections.defaultdict(list, d)
        )
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
    """Equal, and of the same types all the way down (a tuple is not a list, an OrderedDict
    is not a dict), dicts in the same key order, defaultdicts with the same default."""
    if type(a) is not type(b):
        return False
    if isinstance(a, collections.defaultdict) and a.default_factory is not b.default_factory:
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


@given(structures, st.data())
def test_map_structure_maps_each_leaf_and_keeps_the_structure(structure, data):
    """One structure: each leaf mapped where it was, the structure's own types kept (an
    OrderedDict stays one, as in TF); two structures: the leaves paired in order."""
    mapped = ek.nest.map_structure(lambda leaf: f"<{leaf!r}>", structure)  # leaves, not nests
    assert ek.nest.flatten(mapped) == [f"<{leaf!r}>" for leaf in walked_leaves(structure)]
    assert same_structure(mapped, ek.nest.pack_sequence_as(structure, ek.nest.flatten(mapped)))
    count = len(walked_leaves(structure))
    other = ek.nest.pack_sequence_as(
        structure, data.draw(st.lists(st.integers(), min_size=count, max_size=count))
    )
    pairs = ek.nest.map_structure(lambda a, b: f"{a!r}|{b!r}", structure, other)
    assert ek.nest.flatten(pairs) == [
        f"{a!r}|{b!r}" for a, b in zip(walked_leaves(structure), walked_leaves(other), strict=True)
    ]


@given(structures, structures)
def test_assert_same_structure_agrees_with_walking_both(first, second):
    """Silent exactly when the two nest alike (leaves aside); otherwise TF's errors: a
    TypeError for two sequence types, else a ValueError (both eagerkit errors)."""
    alike = _nests_alike(first, second)
    if alike:
        ek.nest.assert_same_structure(first, second)
        return
    with pytest.raises((TypeError, ValueError)) as caught:
        ek.nest.assert_same_structure(first, second)
    assert isinstance(caught.value, ek.errors.InvalidArgumentError)
    assert "the two structures don't have the same nested structure" in str(caught.value)


def _nests_alike(a, b):
    """Written apart from nest: the same container types and sizes (dict keys as sets)."""
    if isinstance(a, (list, tuple, dict)) != isinstance(b, (list, tuple, dict)):
        return False
    if not isinstance(a, (list, tuple, dict)):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return set(a) == set(b) and all(_nests_alike(a[k], b[k]) for k in a)
    return len(a) == len(b) and all(_nests_alike(x, y) for x, y in zip(a, b, strict=True))


def test_nest_errors_are_tfs_types_and_name_the_fix():
    with pytest.raises(TypeError, match="is a list and .* a tuple; pass check_types=False"):
        ek.nest.assert_same_structure([1, 2], (1, 2))
    ek.nest.assert_same_structure([1, 2], (1, 2), check_types=False)
    with pytest.raises(ValueError, match="different keys: \\['a'\\] and \\['b'\\]"):
        ek.nest.assert_same_structure({"a": 1}, {"b": 1})
    with pytest.raises(ValueError, match="is a nest, while 1 is not"):
        ek.nest.map_structure(lambda a, b: a, [1], 1)
    with pytest.raises(TypeError, match="func must be callable, got 3"):
        ek.nest.map_structure(3, [1])
    with pytest.raises(ValueError, match="must provide at least one structure"):
        ek.nest.map_structure(abs)
    with pytest.raises(ZeroDivisionError):  # the user's own function's error, as it is
        ek.nest.map_structure(lambda leaf: leaf / 0, [1])


@pytest.mark.parametrize(
    ("value", "nested"),
    [
        ([], True),
        ((), True),
        ({}, True),
        (Pair(1, 2), True),
        ("ab", False),
        (None, False),
        (3, False),
        (ek.constant([1.0]), False),
    ],
)
def test_is_nested_says_which_values_are_structure(value, nested):
    assert ek.nest.is_nested(value) is nested
