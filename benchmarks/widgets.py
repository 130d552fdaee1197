"""What do live widgets cost a training loop? Target: at most 5% more time.

Two small networks (plain Variables, gradient descent, batches of 32) train for 10,000
steps with a LossCurve (``curve.log`` every step) and a GradientFlow (attached to the
optimizer) live, and for 10,000 steps without them: lesson 07's digits classifier
(64 -> 128 -> 10) and a 4 -> 16 -> 1 network, about the cheapest step there is. Steps with
and without widgets alternate in blocks of 500 on the same network, so a busy neighbour on
a shared machine slows both alike and the same objects sit at the same addresses. The
figure is process CPU time with widgets over without, minus one, for each block against the
one before it, averaged over ROUNDS such runs (leaving out the tenth of the pairs at either
end), plus the final flushes. It errs on the safe side: the widgets' clocks also count the
blocks without them, so they flush more often, and the GradientFlow measures more steps,
than in one long run.

A last live run times the widgets' own code where it runs (``curve.log``, the optimizer's
listener call, the final flush; the regular flushes happen inside the first two), to show
where the time goes. Its timers cost a little themselves.

Outside Jupyter there is no kernel, so each widget's comm gets a stand-in that does what
the kernel's session would do with a message: serialize it to JSON (and count the bytes).
Everything else is the widgets' real path: buffering, the flush clock, the norms,
downsampling, history updates and the final flush.

Run: ``.venv/bin/python benchmarks/widgets.py``.
"""

import json
import statistics
import time

import numpy as np
from eagerkit.widgets import GradientFlow, LossCurve

import eagerkit as ek

STEPS = 10_000
ROUNDS = 3
BLOCK = 500  # steps per block: live and bare blocks alternate


class SerializingComm:
    """Counts the messages and JSON bytes a kernel would send to the browser."""

    def __init__(self):
        self.messages = 0
        self.bytes = 0

    def send(self, data=None, metadata=None, buffers=None):
        self.messages += 1
        self.bytes += len(json.dumps(data).encode()) + sum(len(b) for b in buffers or ())


class Trainer:
    """A two-layer network fitting random data by gradient descent, with plain Variables.

    ``Trainer(4, 16, 1)`` is a 4 -> 16 -> 1 tanh network with a squared loss, about as small
    as a network gets; ``Trainer(64, 128, 10)`` is lesson 07's digits classifier (relu,
    softmax cross-entropy). Both see batches of 32 examples.
    """

    def __init__(self, inputs, hidden, outputs):
        rng = np.random.default_rng(0)
        self.x = ek.constant(rng.normal(size=(32, inputs)).astype("float32"))
        if outputs == 1:
            self.y = ek.constant(rng.normal(size=(32, 1)).astype("float32"))
        else:
            self.y = ek.constant(rng.integers(0, outputs, size=32).astype("int32"))
        self.variables = [
            ek.Variable(
                rng.normal(size=(inputs, hidden)).astype("float32") * 0.5, name="hidden/kernel"
            ),
            ek.Variable(np.zeros(hidden, "float32"), name="hidden/bias"),
            ek.Variable(
                rng.normal(size=(hidden, outputs)).astype("float32") * 0.5, name="output/kernel"
            ),
            ek.Variable(np.zeros(outputs, "float32"), name="output/bias"),
        ]
        self.name = f"{inputs}-{hidden}-{outputs}"
        self.optimizer = ek.train.GradientDescentOptimizer(0.01)

    def loss(self):
        w1, b1, w2, b2 = self.variables
        if self.y.dtype == ek.int32:
            hidden = ek.nn.relu(ek.matmul(self.x, w1) + b1)
            return ek.losses.sparse_softmax_cross_entropy(self.y, ek.matmul(hidden, w2) + b2)
        hidden = ek.tanh(ek.matmul(self.x, w1) + b1)
        return ek.reduce_mean(ek.square(ek.matmul(hidden, w2) + b2 - self.y))

    def step(self):
        with ek.GradientTape() as tape:
            loss = self.loss()
        grads = tape.gradient(loss, self.variables)
        self.optimizer.apply_gradients(zip(grads, self.variables, strict=True))
        return loss

    def interleaved_run(self):
        """STEPS steps without widgets and STEPS steps with them, in alternating blocks of
        BLOCK steps. Returns the CPU seconds of each block without and with them, those of
        the final flushes, the comms, and how often the GradientFlow measured a step at the
        end (one in k)."""
        curve, flow, comms = self._widgets()
        bare, live = [], []
        for block in range(STEPS // BLOCK):
            flow.detach(self.optimizer)
            start = time.process_time()
            for _ in range(BLOCK):
                self.step()
            bare.append(time.process_time() - start)
            flow.attach(self.optimizer)
            start = time.process_time()
            for step in range(block * BLOCK, (block + 1) * BLOCK):
                curve.log(step, loss=self.step())
            live.append(time.process_time() - start)
        start = time.process_time()
        curve.flush(final=True)
        flow.flush(final=True)
        final = time.process_time() - start
        flow.detach(self.optimizer)
        return bare, live, final, comms, flow.history["every"]

    def timed_live_run(self):
        """Seconds spent inside the widgets per step: ``(log, listener, final flush)``."""
        curve, flow, _ = self._widgets()
        flow.detach(self.optimizer)
        timed = TimedListener(flow)
        self.optimizer.listeners.append(timed)
        log_seconds = 0.0
        for step in range(STEPS):
            loss = self.step()
            start = time.perf_counter()  # not process_time: that one is a system call
            curve.log(step, loss=loss)
            log_seconds += time.perf_counter() - start
        start = time.perf_counter()
        curve.flush(final=True)
        flow.flush(final=True)
        final_seconds = time.perf_counter() - start
        self.optimizer.listeners.remove(timed)
        return log_seconds, timed.seconds, final_seconds

    def _widgets(self):
        curve, flow = LossCurve(), GradientFlow(self.variables).attach(self.optimizer)
        comms = {"LossCurve": SerializingComm(), "GradientFlow": SerializingComm()}
        curve.comm.send, flow.comm.send = comms["LossCurve"].send, comms["GradientFlow"].send
        return curve, flow, comms


class TimedListener:
    """Relays the optimizer's updates to a GradientFlow, timing it."""

    def __init__(self, flow):
        self.flow = flow
        self.seconds = 0.0

    def on_apply(self, optimizer, grads_and_vars):
        start = time.perf_counter()
        self.flow.on_apply(optimizer, grads_and_vars)
        self.seconds += time.perf_counter() - start


def measure(trainer):
    """Print the overhead of the widgets on ``trainer``'s loop, and where the time goes."""
    runs = [trainer.interleaved_run() for _ in range(ROUNDS)]
    # Each block with widgets against the block without them just before it: a busy
    # neighbour slows both alike. The tenth of the pairs at either end is left out.
    ratios = sorted(b / a for bare, live, *_ in runs for a, b in zip(bare, live, strict=True))
    cut = len(ratios) // 10
    blocks = statistics.mean(ratios[cut : len(ratios) - cut]) - 1
    median = statistics.median(ratios) - 1
    bare_seconds = statistics.median(sum(bare) for bare, *_ in runs)
    final = statistics.median(final for _, _, final, _, _ in runs) / bare_seconds
    bare_step = bare_seconds / STEPS * 1e6
    print(f"{trainer.name} network, {STEPS} steps with widgets and {STEPS} without (CPU time):")
    print(f"  without widgets: {bare_step:.1f} us/step")
    print(
        f"  overhead: {blocks + final:+.1%} (target <= +5%): {blocks:+.1%} in the steps "
        f"(trimmed mean over {len(ratios)} pairs of blocks), {final:+.1%} for the final flushes"
    )
    print(f"  median pair of blocks: {median:+.1%} (with widgets / without: {median + 1:.3f}x)")
    log, listener, final = (seconds / STEPS * 1e6 for seconds in trainer.timed_live_run())
    print("  inside the widgets, per step (one more live run, timed where they run):")
    print(f"    LossCurve.log, with its flushes:         {log:.1f} us")
    print(f"    GradientFlow listener, with its flushes: {listener:.1f} us")
    print(f"    the final flushes:                       {final:.1f} us")
    print(f"    together: {(log + listener + final) / bare_step:+.1%} of a bare step")
    *_, comms, every = runs[-1]
    for name, comm in comms.items():
        print(f"  {name}: {comm.messages} messages, {comm.bytes / 1e3:.0f} kB over a run")
    print(f"  GradientFlow measured one step in {every} at the end of the last run")


def main():
    measure(Trainer(64, 128, 10))
    measure(Trainer(4, 16, 1))


if __name__ == "__main__":
    main()
