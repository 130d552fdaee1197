"""ek.nn.in_top_k / ek.math.in_top_k take TF 2's order (targets, predictions, k) and TF 1's
(predictions, targets, k): the dtypes decide (predictions float, targets integer), and two
floats or two integers are refused with the cast that fixes them."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(0, 4), st.sampled_from([np.float32, np.float64]))
def test_tf1_and_tf2_orders_give_the_same_answer(data, k, float_dtype):
    batch, classes = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 4))
    scores = st.sampled_from([0.0, 1.0, 2.0, 3.0])  # ties included
    predictions = data.draw(hnp.arrays(float_dtype, (batch, classes), elements=scores))
    int_dtype = data.draw(st.sampled_from([np.int32, np.int64]))
    targets = data.draw(hnp.arrays(int_dtype, batch, elements=st.integers(0, classes - 1)))
    tf2 = ek.math.in_top_k(targets, predictions, k)
    tf1 = ek.nn.in_top_k(predictions, targets, k)
    keywords = ek.nn.in_top_k(predictions=predictions, targets=targets, k=k)
    higher = (predictions > predictions[np.arange(batch), targets][:, None]).sum(1)
    np.testing.assert_array_equal(tf2.numpy(), higher < k)
    np.testing.assert_array_equal(tf1.numpy(), tf2.numpy())
    np.testing.assert_array_equal(keywords.numpy(), tf2.numpy())


def test_the_ta_answer_in_tf1_order():
    # TA D's 7.2: the accuracy as the mean of ek.nn.in_top_k(logits, labels, 1)
    logits = ek.constant([[2.0, 1.0, 0.0], [0.0, 3.0, 1.0], [1.0, 0.0, 4.0]])
    labels = ek.constant([0, 2, 2])
    hits = ek.nn.in_top_k(logits, labels, 1)
    assert hits.numpy().tolist() == [True, False, True]
    assert float(ek.reduce_mean(ek.cast(hits, ek.float32))) == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    "first, second, fix",
    [
        ([[0.5, 0.2]], [[0.1, 0.9]], r"targets are integer class ids: pass ek.cast\(targets"),
        ([0.0], [[0.1, 0.9]], r"got float32 and float32, so neither order fits"),
        ([[1, 2]], [0], r"predictions are float scores: pass ek.cast\(predictions, ek.float32"),
        (["a"], [[0.1]], r"predictions must be float scores and targets integer class ids"),
    ],
)
def test_two_floats_or_two_integers_are_refused_with_the_fix(first, second, fix):
    with pytest.raises(InvalidArgumentError, match=fix) as caught:
        ek.nn.in_top_k(first, second, 1)
    message = str(caught.value)
    assert "TF 2: in_top_k(targets, predictions, k); TF 1: in_top_k(predictions, targets" in message
