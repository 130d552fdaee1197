"""GradientFlow as a Keras callback: ``model.fit(..., callbacks=[flow])``.

While ``fit`` runs, the flow listens to the model's optimizer (``attach``), so it sees the
gradients of every step, as they are applied. It shows itself in ``fit``'s cell if it is
not on display yet, and is redrawn (its saved PNG too) when training ends.
"""


class GradientFlowCallback:
    """Keras' callback hooks for ``GradientFlow`` (a base class of it)."""

    def set_model(self, model):
        self._fitting = model
        if self._model is None:
            self._model = model  # rows are named after the model's attributes

    def on_train_begin(self, logs=None):
        if self._handle is None:
            self._ipython_display_()
        self.attach(self._fitting.optimizer)

    def on_train_end(self, logs=None):
        self.detach(self._fitting.optimizer)
        self.flush(final=True)
        self.refresh()
