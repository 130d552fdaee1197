"""Tapes the TapeView must draw well: every lesson's, the hard cases of issues 9 and 17, and
the loops and attention inside Keras' SimpleRNN, Bidirectional and MultiHeadAttention.

Each function returns a view with the gradient already taken (so edge labels exist), the
view made before the records (so it knows their lines and folds them). ``CORPUS`` names
them for parametrized tests; ``BIG`` names the ones issue 17 found unreadable.
"""

import numpy as np
from eagerkit.widgets import TapeView

import eagerkit as ek

OPS = [lambda a, b: a + b, lambda a, b: a * b, lambda a, b: ek.tanh(a), lambda a, b: a - 2.0]


def random_tape(records, seed):
    """A tape of ``records`` ops, each on one or two earlier tensors chosen at random."""
    rng = np.random.default_rng(seed)
    leaves = [ek.constant(float(v)) for v in rng.normal(size=4)]
    tape = ek.GradientTape(persistent=True)
    with tape:
        for leaf in leaves:
            tape.watch(leaf)
        pool = list(leaves)
        while len(tape.records) < records:
            a, b = (pool[i] for i in rng.integers(0, len(pool), size=2))
            make = OPS[rng.integers(0, len(OPS))]
            pool.append(make(a, b))
    return tape, leaves, pool[-1]


def lesson02_fan_out():
    x = ek.constant(3.0)
    w = ek.Variable(2.0, name="w")
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(x)
        h = x * w
        y = h * h + w
    view = TapeView(tape, names=locals())
    tape.gradient(y, [x, w])
    return view


def lesson02_record():
    return TapeView.record(lambda x, w: x * w + w, 2.0, 3.0)


def lesson02_magic():
    a = ek.constant([1.0, 2.0, 3.0])
    with ek.GradientTape(persistent=True) as tape:
        tape.watch(a)
        loss = ek.reduce_sum(ek.square(a - 2.0))
    view = TapeView(tape, names=locals())
    tape.gradient(loss, a)
    return view


def lesson02_branch():
    a, b, c = ek.constant(1.0), ek.constant(2.0), ek.constant(-1.0)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch([a, c])
        y = a * b
        if a < 0:
            y = y * c
    view = TapeView(tape, names=locals())
    tape.gradient(y, [a, b, c])
    return view


def value_used_three_times():
    def f(c):
        return c * c + c

    return TapeView.record(f, 3.0)


def edges_skipping_levels():
    def f(x):
        h = x
        for _ in range(6):
            h = ek.sin(h) * 2.0
        return h + x * x  # x's last two uses skip six levels

    return TapeView.record(f, 0.5)


def nested_tapes():
    x = ek.constant(2.0)
    with ek.GradientTape(persistent=True) as outer:
        outer.watch(x)
        view = TapeView(outer, names=locals())  # watching before the inner tape opens
        with ek.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        dy_dx = inner.gradient(y, x)
    outer.gradient(dy_dx, x)
    return view


def mlp_step():
    ek.random.set_seed(1)
    model = ek.keras.Sequential([ek.layers.Dense(8, activation="relu"), ek.layers.Dense(3)])
    x = ek.constant(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))
    labels = ek.constant(np.array([0, 1, 2, 1], dtype=np.int32))
    with ek.GradientTape(persistent=True) as tape:
        model(x)  # build first, so the view sees one clean step
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names=locals())
        logits = model(x)
        loss = ek.losses.sparse_softmax_cross_entropy(labels, logits)
    tape.gradient(loss, model.trainable_variables)
    return view


def cnn_step():
    model = ek.keras.Sequential(
        [
            ek.layers.Conv2D(4, 3, activation="relu"),
            ek.layers.MaxPool2D(2),
            ek.layers.Flatten(),
            ek.layers.Dense(16, activation="relu"),
            ek.layers.Dense(10),
        ]
    )
    images = ek.constant(np.linspace(0, 1, 2 * 8 * 8, dtype=np.float32).reshape(2, 8, 8, 1))
    labels = ek.constant(np.array([3, 7], dtype=np.int32))
    model(images)
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names=locals())
        logits = model(images)
        loss = ek.losses.sparse_softmax_cross_entropy(labels, logits)
    tape.gradient(loss, model.trainable_variables)
    return view


def tape_of_300_records():
    tape, leaves, out = random_tape(300, seed=300)
    view = TapeView(tape)
    tape.gradient(out, leaves)
    return view


def hand_unrolled_rnn(steps=20):
    """A scalar RNN unrolled by hand: ``h = tanh(w_h*h + w_x*x_t)`` in a Python loop."""
    w_h, w_x = ek.Variable(0.5, name="w_h"), ek.Variable(-0.3, name="w_x")
    xs = [ek.constant(float(np.sin(t))) for t in range(steps)]
    h = ek.constant(0.1)
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names={"w_h": w_h, "w_x": w_x})
        for x_t in xs:
            h = ek.tanh(w_h * h + w_x * x_t)
        loss = h * h
    view._given.append((loss, "loss"))
    tape.gradient(loss, [w_h, w_x])
    return view


def chain_with_skip_edges(records=300):
    """``records`` ops in a chain whose input feeds every step: 150 turns of a loop."""
    x = ek.constant(0.5)
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names={"x": x})
        tape.watch(x)
        h = x
        for _ in range(records // 2):
            h = ek.sin(h) + x
    tape.gradient(h, x)
    return view


class CharRNN:
    """Lesson 15's model (a vanilla RNN over characters), small enough for a test."""

    def __init__(self, vocab=20, embed=16, hidden=96):
        ek.set_random_seed(0)
        self.embedding = ek.Variable(0.1 * ek.random_normal([vocab, embed]), name="embed/table")
        self.w_x = ek.Variable(ek.random_normal([embed, hidden]) / 4.0, name="rnn/w_x")
        self.w_h = ek.Variable(ek.random_normal([hidden, hidden]) / 10.0, name="rnn/w_h")
        self.b = ek.Variable(ek.zeros([hidden]), name="rnn/b")
        self.w_out = ek.Variable(ek.random_normal([hidden, vocab]) / 10.0, name="out/w")
        self.b_out = ek.Variable(ek.zeros([vocab]), name="out/b")
        self.variables = [self.embedding, self.w_x, self.w_h, self.b, self.w_out, self.b_out]

    def step(self, char_ids, h):
        x = ek.gather(self.embedding, char_ids)
        h = ek.tanh(ek.matmul(x, self.w_x) + ek.matmul(h, self.w_h) + self.b)
        return ek.matmul(h, self.w_out) + self.b_out, h

    def __call__(self, inputs):
        h = ek.zeros([inputs.shape[0], 96])
        all_logits = []
        for t in range(inputs.shape[1]):
            logits, h = self.step(inputs[:, t], h)
            all_logits.append(logits)
        return ek.stack(all_logits, axis=1)


def char_rnn_window(length=24):
    """Lesson 15's model on one window of ``length`` characters, and its loss."""
    model = CharRNN()
    ids = np.arange(length + 1, dtype=np.int32) % 20
    inputs, targets = ek.constant(ids[None, :-1]), ek.constant(ids[None, 1:])
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names=locals())
        logits = model(inputs)
        flat = ek.reshape(logits, [-1, 20])
        loss = ek.losses.sparse_softmax_cross_entropy(ek.reshape(targets, [-1]), flat)
    tape.gradient(loss, model.variables)
    return view


def char_rnn_one_step():
    """Lesson 15's one-step tape: one character in, the loss of the next one."""
    model = CharRNN()
    h0 = 0.1 * ek.ones([1, 96])
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names={"h0": h0, "w_h": model.w_h, "w_x": model.w_x})
        logits, h1 = model.step(ek.constant([3]), h0)
        loss = ek.losses.sparse_softmax_cross_entropy(ek.constant([4]), logits)
    tape.gradient(loss, model.variables)
    return view


def char_rnn_two_steps():
    """Lesson 15's tape: two steps of the model on two lines, each handing on its logits (to
    the loss) and its state (to the next step), from a state that is not zero."""
    model = CharRNN()
    h0 = 0.1 * ek.ones([1, 96])
    names = {}  # filled below: a function's locals() is a copy, not the live namespace
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names=names)
        logits_1, h1 = model.step(ek.constant([3]), h0)
        logits_2, h2 = model.step(ek.constant([4]), h1)
        loss = ek.reduce_sum(logits_1 * logits_1) + ek.reduce_sum(logits_2)
    names.update(locals())
    tape.gradient(loss, model.variables)
    return view


def keras_layer_step(layer, inputs, names):
    """One loss on a Keras layer's output, recorded after the layer is built (so the view
    sees one clean step, its weights read as they are used)."""
    layer(inputs)  # build first
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names=names)
        outputs = layer(inputs)
        loss = ek.reduce_sum(outputs * outputs)
    tape.gradient(loss, layer.trainable_variables)
    return view


def simple_rnn_layer():
    """Keras' SimpleRNN over 6 steps: the loop the layer runs, as the tape saw it."""
    ek.set_random_seed(2)
    sequence = ek.constant(np.linspace(-1, 1, 2 * 6 * 3, dtype=np.float32).reshape(2, 6, 3))
    return keras_layer_step(ek.keras.layers.SimpleRNN(4), sequence, {"sequence": sequence})


def bidirectional_lstm():
    """A Bidirectional LSTM over 4 steps: two loops, one of them backwards in time."""
    ek.set_random_seed(3)
    sequence = ek.constant(np.linspace(-1, 1, 2 * 4 * 3, dtype=np.float32).reshape(2, 4, 3))
    layer = ek.keras.layers.Bidirectional(ek.keras.layers.LSTM(3))
    return keras_layer_step(layer, sequence, {"sequence": sequence})


def masked_lstm():
    """An LSTM over padded ids (Embedding(mask_zero=True)): each step also keeps the old
    states where the padding is, a where per state, as the tape saw it."""
    ek.set_random_seed(5)
    ids = ek.constant([[3, 1, 4, 0, 0], [2, 7, 1, 8, 2]])  # the first sequence is padded
    model = ek.keras.Sequential(
        [ek.keras.layers.Embedding(10, 4, mask_zero=True), ek.keras.layers.LSTM(3)]
    )
    return keras_layer_step(model, ids, {"ids": ids})


def self_attention():
    """MultiHeadAttention of 2 heads, a sequence attending to itself."""
    ek.set_random_seed(4)
    tokens = ek.constant(np.linspace(-1, 1, 2 * 5 * 8, dtype=np.float32).reshape(2, 5, 8))
    layer = ek.keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)
    layer(tokens, tokens)  # build first
    with ek.GradientTape(persistent=True) as tape:
        view = TapeView(tape, names={"tokens": tokens})
        attended = layer(tokens, tokens)
        loss = ek.reduce_sum(attended * attended)
    tape.gradient(loss, layer.trainable_variables)
    return view


def gradient_penalty():
    """A gradient penalty (WGAN-GP's): the outer tape records the inner tape's backward pass
    through a relu layer, its relu_grad and matmuls, then the penalty on that slope."""
    ek.set_random_seed(6)
    # Named: the views are made in module fixtures, where a default name ("dense") would
    # stay used up for the tests after them (tests/test_process_state.py)
    layer = ek.keras.layers.Dense(4, activation="relu", name="critic")
    x = ek.constant(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
    layer(x)  # build first
    with ek.GradientTape(persistent=True) as outer:
        view = TapeView(outer, names={"x": x})
        with ek.GradientTape() as inner:
            inner.watch(x)
            score = ek.reduce_sum(layer(x))
        slope = inner.gradient(score, x)
        penalty = ek.reduce_mean(ek.square(ek.norm(slope, axis=1) - 1.0))
    outer.gradient(penalty, layer.trainable_variables)
    return view


def double_backpropagation():
    """Double backpropagation (Drucker and Le Cun): the loss plus the size of its gradient
    with respect to the inputs. The outer tape records the inner tape's backward pass: the
    sparse cross-entropy's gradient as one op, then the matmul back to the inputs."""
    ek.set_random_seed(7)
    layer = ek.keras.layers.Dense(3, name="classifier")  # named: see gradient_penalty
    x = ek.constant(np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4))
    labels = ek.constant([2, 0])
    layer(x)  # build first
    with ek.GradientTape(persistent=True) as outer:
        view = TapeView(outer, names={"x": x, "labels": labels})
        with ek.GradientTape() as inner:
            inner.watch(x)
            logits = layer(x)
            loss = ek.reduce_mean(
                ek.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
            )
        slope = inner.gradient(loss, x)
        total = loss + ek.reduce_sum(ek.square(slope))
    outer.gradient(total, layer.trainable_variables)
    return view


CORPUS = {
    "lesson02_fan_out": lesson02_fan_out,
    "lesson02_record": lesson02_record,
    "lesson02_magic": lesson02_magic,
    "lesson02_branch": lesson02_branch,
    "value_used_three_times": value_used_three_times,
    "edges_skipping_levels": edges_skipping_levels,
    "nested_tapes": nested_tapes,
    "mlp_step": mlp_step,
    "cnn_step": cnn_step,
    "tape_of_300_records": tape_of_300_records,
    "hand_unrolled_rnn": hand_unrolled_rnn,
    "chain_with_skip_edges": chain_with_skip_edges,
    "char_rnn_window": char_rnn_window,
    "char_rnn_one_step": char_rnn_one_step,
    "char_rnn_two_steps": char_rnn_two_steps,
    "simple_rnn_layer": simple_rnn_layer,
    "bidirectional_lstm": bidirectional_lstm,
    "self_attention": self_attention,
    "masked_lstm": masked_lstm,
    "gradient_penalty": gradient_penalty,
    "double_backpropagation": double_backpropagation,
}
BIG = ["hand_unrolled_rnn", "mlp_step", "char_rnn_window", "chain_with_skip_edges"]
