"""``Dataset.cardinality()`` and ``ek.data.experimental.cardinality``: TF's counts (-1 for
infinite, -2 for unknown), checked against what reading the dataset gives; and ``fit``,
``evaluate`` and ``predict`` refuse an infinite dataset without steps before the first step
(it would run forever)."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

INFINITE, UNKNOWN = ek.data.INFINITE_CARDINALITY, ek.data.UNKNOWN_CARDINALITY

# Pipeline steps a user chains, each as (name, its arguments' strategy, how to apply it).
STEPS = {
    "batch": (
        st.tuples(st.integers(1, 4), st.booleans()),
        lambda ds, a: ds.batch(a[0], drop_remainder=a[1]),
    ),
    "repeat": (st.integers(0, 3), lambda ds, n: ds.repeat(n)),
    "repeat()": (st.none(), lambda ds, _: ds.repeat()),
    "take": (st.integers(-1, 8), lambda ds, n: ds.take(n)),
    "skip": (st.integers(-1, 8), lambda ds, n: ds.skip(n)),
    "map": (st.none(), lambda ds, _: ds.map(lambda x: x)),
    "shuffle": (st.integers(1, 5), lambda ds, n: ds.shuffle(n, seed=0)),
    "prefetch": (st.none(), lambda ds, _: ds.prefetch(1)),
    "filter": (st.none(), lambda ds, _: ds.filter(lambda x: True)),
}
chains = st.lists(
    st.sampled_from(sorted(STEPS)).flatmap(lambda n: STEPS[n][0].map(lambda a: (n, a))),
    max_size=5,
)


def built(size, chain):
    ds = ek.data.Dataset.range(size)
    for name, argument in chain:
        ds = STEPS[name][1](ds, argument)
    return ds


def read_count(ds, limit=None):
    """``(elements, errors)`` that reading gives. A batch of batches [0, 1] and [2] cannot
    stack: that element raises and the iterator goes on, as TF's; take and skip do not count
    it (steps.py), so TF's counts hold for pipelines without such errors."""
    count, errors, it = 0, 0, iter(ds)
    while limit is None or count + errors < limit:
        try:
            next(it)
        except StopIteration:
            break
        except InvalidArgumentError:
            errors += 1
            continue
        count += 1
    return count, errors


def filtered_then_repeated(chain):
    """Whether a filter comes before a ``repeat()`` in ``chain``."""
    names = [name for name, _ in chain]
    return "filter" in names and "repeat()" in names[names.index("filter") :]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 7), chains)
def test_the_count_is_what_reading_gives_or_infinite_or_unknown(size, chain):
    ds = built(size, chain)
    count = ds.cardinality()
    assert count.dtype == ek.int64 and count.shape == ()
    count = int(count)
    if count >= 0:
        read, errors = read_count(ds)
        assume(errors == 0)
        if filtered_then_repeated(chain):
            # TF counts an unknown input repeated forever as infinite, and take(n) of that as
            # n, though the filter may have let nothing through: then reading gives fewer.
            assert read <= count
        else:
            assert read == count
    elif count == INFINITE:
        assert any(name == "repeat()" for name, _ in chain)
        if not any(name == "filter" for name, _ in chain):  # TF: unknown repeated, infinite
            read, errors = read_count(ds, limit=40)
            assume(errors == 0)
            assert read == 40  # it goes on
    else:
        assert count == UNKNOWN and any(name == "filter" for name, _ in chain)


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda: ek.data.Dataset.from_tensor_slices(np.zeros([5, 2])), 5),
        (lambda: ek.data.Dataset.range(10).batch(3), 4),
        (lambda: ek.data.Dataset.range(10).batch(3, drop_remainder=True), 3),
        (lambda: ek.data.Dataset.range(3).repeat(), INFINITE),
        (lambda: ek.data.Dataset.range(0).repeat(), 0),  # TF: an empty input stays empty
        (lambda: ek.data.Dataset.range(3).repeat().take(7), 7),
        (lambda: ek.data.Dataset.range(3).repeat().skip(7), INFINITE),
        (lambda: ek.data.Dataset.range(3).repeat().skip(-1), 0),  # it reads nothing
        (lambda: ek.data.Dataset.range(3).filter(lambda x: x > 0), UNKNOWN),
        (lambda: ek.data.Dataset.range(3).filter(lambda x: x > 0).repeat(), INFINITE),
        # TF's count, though reading gives nothing: the filter's empty output is not known
        (lambda: ek.data.Dataset.range(0).filter(lambda x: True).repeat().take(1), 1),
        (lambda: ek.data.Dataset.range(3).filter(lambda x: x > 0).take(2), UNKNOWN),
        (lambda: ek.data.Dataset.from_generator(lambda: iter([1]), ek.int32), UNKNOWN),
    ],
    ids=[
        "slices",
        "batch",
        "batch, drop_remainder",
        "repeat()",
        "empty repeat()",
        "repeat().take",
        "repeat().skip",
        "repeat().skip(-1)",
        "filter",
        "filter().repeat()",
        "empty filter().repeat().take",
        "filter().take",
        "from_generator",
    ],
)
def test_tf_counts(make, expected):
    assert int(make().cardinality()) == expected
    assert int(ek.data.experimental.cardinality(make())) == expected


def test_tf_constants():
    assert (INFINITE, UNKNOWN) == (-1, -2)
    assert ek.data.experimental.INFINITE_CARDINALITY == INFINITE
    assert ek.data.experimental.UNKNOWN_CARDINALITY == UNKNOWN


def test_the_lines_of_a_file_are_unknown_and_csv_batches_repeat_forever(tmp_path):
    path = tmp_path / "rows.csv"
    path.write_text("x,label\n1.0,0\n2.0,1\n")
    assert int(ek.data.TextLineDataset(str(path)).cardinality()) == UNKNOWN
    csv = ek.data.experimental.make_csv_dataset
    assert int(csv(str(path), batch_size=2, label_name="label").cardinality()) == INFINITE
    once = csv(str(path), batch_size=2, label_name="label", num_epochs=1, shuffle=False)
    assert int(once.cardinality()) == UNKNOWN


def test_cardinality_of_something_else_is_refused():
    with pytest.raises(InvalidArgumentError, match="dataset must be an ek.data.Dataset, got"):
        ek.data.experimental.cardinality([1, 2])


# --- fit, evaluate, predict on an infinite dataset ---------------------------------------------
class Counting(ek.keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.hooks = []

    def on_train_begin(self, logs=None):
        self.hooks.append("train")

    def on_test_begin(self, logs=None):
        self.hooks.append("test")

    def on_predict_begin(self, logs=None):
        self.hooks.append("predict")


def _model_and_data():
    model = ek.keras.Sequential([ek.keras.Input((2,)), ek.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    pairs = (np.ones([4, 2], np.float32), np.ones([4, 1], np.float32))
    return model, ek.data.Dataset.from_tensor_slices(pairs).batch(2)


CALLS = {
    "fit": (lambda m, ds, cb: m.fit(ds.repeat(), verbose=0, callbacks=[cb]), "steps_per_epoch"),
    "fit, validation_data": (
        lambda m, ds, cb: m.fit(ds, validation_data=ds.repeat(), verbose=0, callbacks=[cb]),
        "validation_steps",
    ),
    "evaluate": (lambda m, ds, cb: m.evaluate(ds.repeat(), verbose=0, callbacks=[cb]), "steps"),
    "predict": (
        lambda m, ds, cb: m.predict(ds.map(lambda x, y: x).repeat(), verbose=0, callbacks=[cb]),
        "steps",
    ),
}


@pytest.mark.parametrize("case", sorted(CALLS))
def test_an_infinite_dataset_without_steps_is_refused_before_the_first_step(case):
    call, steps = CALLS[case]
    model, ds = _model_and_data()
    before, callback = [w.copy() for w in model.get_weights()], Counting()
    with pytest.raises(
        ValueError, match=rf"infinitely repeating dataset, please specify a `{steps}`"
    ):
        call(model, ds, callback)
    assert callback.hooks == []  # not one step, not one callback
    for old, new in zip(before, model.get_weights(), strict=True):
        np.testing.assert_array_equal(old, new)


def test_with_steps_an_infinite_dataset_runs_that_many():
    model, ds = _model_and_data()
    history = model.fit(ds.repeat(), steps_per_epoch=3, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2
    model.evaluate(ds.repeat(), steps=2, verbose=0)
    assert model.predict(ds.map(lambda x, y: x).repeat(), steps=3, verbose=0).shape == (6, 1)
    history = model.fit(ds, validation_data=ds.repeat(), validation_steps=1, verbose=0)
    assert "val_loss" in history.history
