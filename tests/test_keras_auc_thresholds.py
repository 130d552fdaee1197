"""Keras' ``AUC`` pinned by hand: the thresholds it makes from ``num_thresholds`` (epsilon
below 0 and above 1), every curve ("ROC", "PR") with every ``summation_method``
("interpolation", "minoring", "majoring") on a batch worked out on paper, whose predictions
sit exactly at 0, at 1 and on thresholds, and how Keras counts a prediction on a threshold:
not above it when compared, but with thresholds ``i / (n - 1)`` Keras does not compare, it
buckets by ``ceil(p * (n - 1))`` in float32, which puts some float32 predictions sitting
exactly on a threshold above it (computed here with exact fractions).
"""

import math
from fractions import Fraction

import numpy as np
import pytest

from eagerkit import keras

AUC = keras.metrics.AUC
EPS = 1e-7  # Keras' backend.epsilon()


@pytest.mark.parametrize(
    "num_thresholds, inner",
    [(2, []), (3, [0.5]), (5, [0.25, 0.5, 0.75]), (11, [i / 10 for i in range(1, 10)])],
)
def test_thresholds_from_num_thresholds_straddle_zero_and_one(num_thresholds, inner):
    metric = AUC(num_thresholds=num_thresholds)
    assert metric.thresholds == [-EPS, *inner, 1 + EPS]
    assert metric.num_thresholds == num_thresholds
    ends = np.float32(metric.thresholds[0]), np.float32(metric.thresholds[-1])
    assert ends[0] < 0 and ends[1] > 1  # still outside [0, 1] as float32 (1 + 1e-7 is 1 + 2**-23)


def test_given_thresholds_are_sorted_between_the_two_ends():
    metric = AUC(thresholds=[0.75, 0.25])
    assert metric.thresholds == [-EPS, 0.25, 0.75, 1 + EPS] and metric.num_thresholds == 4


# One batch worked on paper: labels 0 1 0 1 1, predictions at 0, on 0.5 (twice), at 1, and on
# 0.25. A prediction is positive when above a threshold; on it, it is not.
#   n = 3, thresholds (-eps, 0.5, 1 + eps): tp 3 1 0, fp 2 0 0, fn 0 2 3, tn 0 2 2
#     ROC: recall 1 1/3 0, false-positive rate 1 0 0
#     PR: recall 1 1/3 0, precision 3/5 1 0 (no positive prediction: 0)
#   n = 5, thresholds (-eps, 0.25, 0.5, 0.75, 1 + eps): tp 3 2 1 1 0, fp 2 1 0 0 0,
#     fn 0 1 2 2 3, tn 0 1 2 2 2; the 0.25 on its threshold is a false negative there
#     ROC: recall 1 2/3 1/3 1/3 0, false-positive rate 1 1/2 0 0 0
#     PR: recall 1 2/3 1/3 1/3 0, precision 3/5 2/3 1 1 0
# PR interpolation (Davis & Goadrich), per step: slope dTP/dP, intercept TP_b - slope P_b,
# slope (dTP + intercept ln(P_a / P_b)) / (TP_b + FN_b); n = 3: (1 + ln(5) / 4) / 3 + 1 / 3;
# n = 5: (1/2 + ln(5/3) / 4) / 3 + (1/2 + ln(3) / 4) / 3 + 0 + 1 / 3: the same sum.
Y_TRUE = [0, 1, 0, 1, 1]
Y_PRED = [0.0, 0.5, 0.5, 1.0, 0.25]
PR_INTERPOLATED = (2 + math.log(5) / 4) / 3
BY_HAND = {
    (3, "ROC", "interpolation"): 1 * (1 + 1 / 3) / 2,
    (3, "ROC", "minoring"): 1 * (1 / 3),
    (3, "ROC", "majoring"): 1 * 1,
    (3, "PR", "interpolation"): PR_INTERPOLATED,
    (3, "PR", "minoring"): (2 / 3) * (3 / 5) + (1 / 3) * 0,
    (3, "PR", "majoring"): (2 / 3) * 1 + (1 / 3) * 1,
    (5, "ROC", "interpolation"): (1 / 2) * (1 + 2 / 3) / 2 + (1 / 2) * (2 / 3 + 1 / 3) / 2,
    (5, "ROC", "minoring"): (1 / 2) * (2 / 3) + (1 / 2) * (1 / 3),
    (5, "ROC", "majoring"): (1 / 2) * 1 + (1 / 2) * (2 / 3),
    (5, "PR", "interpolation"): PR_INTERPOLATED,
    (5, "PR", "minoring"): (1 / 3) * (3 / 5) + (1 / 3) * (2 / 3) + 0 + (1 / 3) * 0,
    (5, "PR", "majoring"): (1 / 3) * (2 / 3) + (1 / 3) * 1 + 0 + (1 / 3) * 1,
}


@pytest.mark.parametrize("num_thresholds, curve, method", BY_HAND)
def test_every_curve_and_summation_on_a_batch_worked_by_hand(num_thresholds, curve, method):
    metric = AUC(num_thresholds=num_thresholds, curve=curve, summation_method=method)
    metric.update_state(Y_TRUE, Y_PRED)
    expected = BY_HAND[num_thresholds, curve, method]
    assert float(metric.result()) == pytest.approx(expected, rel=1e-6)
    inner = [0.5] if num_thresholds == 3 else [0.25, 0.5, 0.75]
    given = AUC(thresholds=inner, curve=curve, summation_method=method)
    given.update_state(Y_TRUE, Y_PRED)  # the same thresholds given as a list: the same area
    assert float(given.result()) == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize("num_thresholds", [2, 3, 5, 200])
def test_predictions_at_zero_and_one_are_above_every_threshold_but_the_ends(num_thresholds):
    metric = AUC(num_thresholds=num_thresholds)
    metric.update_state([1, 1], [0.0, 1.0])
    counts = {v.name.split("/")[-1].split(":")[0]: v.numpy() for v in metric.variables}
    tp = [2.0, *[1.0] * (num_thresholds - 2), 0.0]  # 0 is above -eps only; 1 all but 1 + eps
    assert counts["true_positives"].tolist() == tp
    assert counts["false_negatives"].tolist() == [2.0 - c for c in tp]


def counted_above_own_threshold_by_keras(k, steps):
    """Whether Keras' AUC (thresholds i / steps) counts the float32 prediction sitting exactly
    on threshold k as above it: its bucket is ceil of the float32 product p * steps, less 1.
    The product is exact as a Fraction (24 bits times at most 8), then rounded once to
    float32, as float32 hardware rounds it."""
    p = np.float32(k / steps)
    product = np.float32(float(Fraction(float(p)) * steps))
    return math.ceil(product) - 1 >= k


def test_a_float32_prediction_on_an_even_threshold_is_bucketed_as_keras_buckets_it():
    steps = 199  # num_thresholds=200, Keras' default
    on_threshold = np.array([np.float32(k / steps) for k in range(1, steps)])
    keras_above = {k for k in range(1, steps) if counted_above_own_threshold_by_keras(k, steps)}
    assert 103 in keras_above and 1 not in keras_above  # both kinds occur
    metric = AUC()
    for k, p in zip(range(1, steps), on_threshold, strict=True):
        metric.reset_state()
        metric.update_state([1], [p])
        (tp,) = [v.numpy() for v in metric.variables if "true_positives" in v.name]
        assert tp[k] == (1.0 if k in keras_above else 0.0), k  # on threshold k itself
        assert tp[k - 1] == 1.0 and tp[k + 1] == 0.0  # above the one before, not the next
    strict = AUC(thresholds=[0.3, 0.6])  # not evenly spaced: compared, never above its own
    strict.update_state([1, 1], [np.float32(0.3), np.float32(0.6)])
    (tp,) = [v.numpy() for v in strict.variables if "true_positives" in v.name]
    assert tp.tolist() == [2.0, 1.0, 0.0, 0.0]
