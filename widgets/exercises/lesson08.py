"""Lesson 08 (checkpoints, summaries, NaNs): resume a saved run, a stable log-sum-exp."""

import tempfile

import numpy as np

import eagerkit as ek

from .compare import Expect, differences
from .exercise import CustomExercise, student_code
from .function_exercise import FunctionExercise
from .observe import CallsTo


def _small_model():
    # Zeros to start with, then values drawn by the check: no global random state is used.
    return ek.Sequential(
        [
            ek.layers.Dense(5, activation="relu", kernel_initializer="zeros"),
            ek.layers.Dense(3, kernel_initializer="zeros"),
        ]
    )


def _judge_resume(resume, draw):
    """Save a run of the check's own, resume it through the student's function into a fresh
    model, and compare what that model predicts (and the step) with the saved run."""
    images, labels = draw.floats((8, 6)), draw.ints((8,), 0, 3)
    trained, optimizer = _small_model(), ek.train.AdamOptimizer(learning_rate=0.05)
    trained(images)
    for variable in trained.variables:
        variable.assign(draw.floats(tuple(variable.shape), -1.0, 1.0))
    step = ek.Variable(0, dtype=ek.int64, trainable=False, name="global_step")
    for _ in range(draw.size(2, 6)):
        with ek.GradientTape() as tape:
            loss = ek.losses.sparse_softmax_cross_entropy(labels, trained(images))
        grads = tape.gradient(loss, trained.variables)
        optimizer.apply_gradients(zip(grads, trained.variables, strict=True), global_step=step)
    with tempfile.TemporaryDirectory() as directory:
        checkpoint = ek.train.Checkpoint(model=trained, optimizer=optimizer, step=step)
        path = checkpoint.save(f"{directory}/ckpt")
        fresh = _small_model()
        with student_code("in resume(model, path)"), _Restores() as restores:
            got_step = resume(fresh, path)
            predicted = fresh(images)
    if not np.allclose(predicted.numpy(), trained(images).numpy(), rtol=1e-4, atol=1e-5):
        return [
            "the model you resumed predicts differently from the run that was saved: its "
            "weights were not restored. " + _why_not_restored(restores.objects, fresh)
        ]
    return differences(got_step, int(step), what="the step resume returned", expect=_INT)


def _why_not_restored(restored, model):
    """What the Checkpoints the student restored held, said against the model passed in."""
    if not restored:
        return "Your resume never calls restore on a Checkpoint: nothing was read from path."
    if any(obj is model for objects in restored for obj in objects.values()):
        return (
            "Are the names in your Checkpoint(...) the ones the run was saved with "
            "(model=..., optimizer=..., step=...)?"
        )
    return (
        "Your Checkpoint restored into another model, not the model passed to resume: a "
        "model made inside resume is thrown away when it returns. Restore into the model "
        "resume is given."
    )


class _Restores:
    """The objects of every ``ek.train.Checkpoint`` restored while the block runs."""

    def __enter__(self):
        self.objects, self._original = [], ek.train.Checkpoint.restore
        original, objects = self._original, self.objects

        def restore(checkpoint, *args, **kwargs):
            objects.append(dict(checkpoint._objects))
            return original(checkpoint, *args, **kwargs)

        ek.train.Checkpoint.restore = restore
        return self

    def __exit__(self, *exc_info):
        ek.train.Checkpoint.restore = self._original


_INT = Expect(kind="int", quote="return the global step it was saved at, as a Python int")

CustomExercise(
    "8.1",
    "Resume a saved run",
    judge=_judge_resume,
    draws_inputs=True,
    template="def resume(model, path): ...",
    hints=[
        "A Checkpoint restores by name: build one with the same names as the one saved.",
        "The model has no variables yet: restore waits for them, so restore first and let "
        "the model's first call create them.",
        "The step is a variable too: give the Checkpoint an int64 variable to restore into.",
    ],
)


def _logsumexp(logits):
    top = ek.reduce_max(logits, axis=1, keepdims=True)
    return ek.reduce_sum(top, axis=1) + ek.log(ek.reduce_sum(ek.exp(logits - top), axis=1))


def _logits(draw):
    big = draw.distinct((2, 3), -5.0, 5.0) + np.float32(draw.rng.choice([-300.0, 150.0, 250.0]))
    return [
        (np.array([[0.0, 200.0], [1.0, 2.0]], np.float32),),
        (draw.distinct((1, 4)),),  # a batch of one
        (big.astype(np.float32),),  # every exp would overflow or underflow
        (draw.distinct((draw.size(2, 5), 3), -6.0, 6.0),),
    ]


def _written_out(fn, seen, args):
    with CallsTo("reduce_logsumexp") as calls, student_code():
        fn(*args)
    if calls.count:
        return [
            "the values are right, but ek.reduce_logsumexp computed them: the exercise is to "
            "write the max shift yourself"
        ]
    if "reduce_logsumexp" in seen.op_names():  # ek.nn.log_softmax: a log-sum-exp inside
        return [
            "the values are right, but ek.nn.log_softmax computed them (it is a log-sum-exp "
            "with the max shift inside): the exercise is to write the max shift yourself"
        ]
    return []


FunctionExercise(
    "8.2",
    "A log-sum-exp that does not overflow",
    reference=_logsumexp,
    inputs=_logits,
    mechanism=_written_out,
    quantities={
        "each row's largest logit (a max over axis 1), kept as a column (keepdims) so that "
        "it broadcasts against its row": lambda logits: ek.reduce_max(logits, axis=1, keepdims=True)
    },
    combined="your tape makes each row's largest logit (the max): check that it is added "
    "back after the log, once per row (axis 1)",
    template="def logsumexp(logits): ...",
    hints=[
        "A constant taken out of every exp of a row can be put back after the log: the "
        "result does not change, and the right constant keeps every exp at most 1.",
        "The m of each row must broadcast against that row: keep its axis.",
    ],
)
