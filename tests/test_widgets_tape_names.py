"""What the tape view calls a tensor that no record made but a layer returned (lesson 07's
images, flattened by a Flatten layer that records nothing because no tape watches them)."""

import numpy as np
import pytest
from eagerkit.widgets import TapeView
from eagerkit.widgets.common.origins import Tracker

import eagerkit as ek
from eagerkit.keras.layers import base as layers_base


class MLP(ek.Model):
    """Lesson 07's model: Flatten, then two Dense layers."""

    def __init__(self):
        super().__init__()
        self.flatten = ek.layers.Flatten()
        self.hidden = ek.layers.Dense(4, activation="relu")
        self.logits = ek.layers.Dense(3)

    def call(self, images):
        return self.logits(self.hidden(self.flatten(images)))


def leaf_labels(view):
    made = {e["to"] for e in view.graph["edges"] if e["from"].startswith("op")}
    tensors = [n for n in view.graph["nodes"] if n["type"] == "tensor"]
    return [n["label"] for n in tensors if n["id"] not in made and n["kind"] != "variable"]


@pytest.mark.parametrize("shape", [(2, 3, 3), (1, 9), (5, 1, 3, 3)])
def test_a_layers_unrecorded_output_is_named_after_the_layer_and_its_input(shape):
    mlp = MLP()
    mlp(ek.zeros([1, *shape[1:]]))
    images = ek.constant(np.ones(shape, np.float32))
    names = {}
    with ek.GradientTape() as tape:
        view = TapeView(tape, names=names)  # made first, as lesson 07's
        logits = mlp(images)
        loss = ek.reduce_sum(logits)
    names.update(images=images, logits=logits, loss=loss)
    tape.gradient(loss, mlp.variables)
    assert leaf_labels(view) == ["flatten(images)"]  # not t0
    assert view.graph["forward"][1]["text"].startswith("t0 = matmul(flatten(images), ")


def test_an_unnamed_input_and_a_layer_in_a_sequential_read_as_the_view_names_them():
    model = ek.Sequential([ek.layers.Flatten(), ek.layers.Flatten(), ek.layers.Dense(2)])
    model(ek.zeros([1, 2, 2]))
    with ek.GradientTape() as tape:
        view = TapeView(tape)  # no names: the input is t0
        out = model(ek.ones([3, 2, 2]))
    tape.gradient(out, model.variables)
    # The second Flatten's input is the first's output: the names nest, as the calls did.
    assert leaf_labels(view) == ["layers[1](layers[0](t0))"]


def test_what_a_layer_records_keeps_its_own_name():
    dense = ek.layers.Dense(2)
    x = ek.ones([1, 3])
    with ek.GradientTape() as tape:
        view = TapeView(tape, names={"x": x})
        y = dense(x)  # recorded: an op made it, so it is t-numbered (or named by the user)
    tape.gradient(y, dense.variables)
    tracker = Tracker.on(tape)
    assert tracker.unrecorded == {}
    assert view.graph["forward"][-1]["text"].startswith("t1 = bias_add(t0, ")


def test_layers_called_with_no_tape_or_before_the_view_are_not_noted():
    flatten = ek.layers.Flatten()
    flatten(ek.ones([2, 2, 2]))  # no tape records: the listener returns at once
    tape = ek.GradientTape()
    with tape:
        early = flatten(ek.ones([2, 2, 2]))  # no Tracker on this tape yet
        tracker = Tracker.on(tape)
        late = flatten(ek.ones([2, 2, 2]))
    assert [entry[0] for entry in tracker.unrecorded.values()] == [late]
    assert id(early) not in tracker.unrecorded


def test_the_layer_listener_sees_each_call_and_a_failed_call_tells_nothing():
    seen = []

    def listener(layer, inputs, outputs):
        seen.append((layer, inputs, outputs))

    layers_base.call_listeners.append(listener)
    try:
        flatten = ek.layers.Flatten()
        x = ek.ones([2, 3, 1])
        out = flatten(x)
        with pytest.raises(ek.errors.InvalidArgumentError):
            flatten(ek.ones([]))  # a scalar has no batch axis: refused, nobody told
    finally:
        layers_base.call_listeners.remove(listener)
    assert seen == [(flatten, x, out)]
