"""eagerkit.widgets: live views of what the engine did (the tape, gradient flow, loss curves)."""
