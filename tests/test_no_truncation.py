"""Fractional values where whole numbers are needed are refused, never truncated: tensors
of ids and indices, and the counts and sizes the property test cannot name by parameter."""

import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError

CALLS = {
    "embedding ids": lambda: ek.keras.layers.Embedding(5, 2)(ek.constant([[0.5]])),
    "gather indices": lambda: ek.gather(ek.ones([3, 2]), [0.5]),
    "one_hot indices": lambda: ek.one_hot([1.5], 3),
    "segment ids": lambda: ek.math.segment_sum(ek.ones([2]), ek.constant([0.0, 0.5])),
    "shape": lambda: ek.zeros([2.7]),
    "batch size": lambda: ek.data.Dataset.range(5).batch(1.5),
    "summary writer queue": lambda: ek.summary.create_file_writer("unused", max_queue=2.5),
    "lbfgs history": lambda: ek.train.lbfgs_minimize(
        lambda: ek.constant(0.0), [ek.Variable(1.0)], history_size=2.5
    ),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=list(CALLS))
def test_a_fraction_is_refused(call, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidArgumentError):
        call()
    assert list(tmp_path.iterdir()) == []  # and nothing was written before it was refused


def test_whole_floats_still_work_as_ids():
    rows = ek.keras.layers.Embedding(5, 2)(ek.constant([[1.0, 4.0]]))
    assert rows.shape == (1, 2, 2)
