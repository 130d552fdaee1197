"""``summary()``'s table, as Keras prints it: ``Model: "name"``, one row per layer in
columns padded to fit, then the parameter totals. A functional model adds a column of
connections (functional_summary.py); other models show their direct sublayers.
"""


def summary_lines(model):
    """The lines ``summary()`` prints for a model that is not functional: one row per
    direct sublayer, then totals.

    Examples
    --------
    >>> import eagerkit as ek
    >>> from eagerkit.keras.model_summary import summary_lines
    >>> model = ek.keras.Sequential([ek.layers.Dense(3, name="hidden")], name="m")
    >>> _ = model(ek.ones([1, 2]))
    >>> print("\\n".join(summary_lines(model)))
    Model: "m"
    =======================================
    Layer (type)     Output Shape   Param #
    =======================================
    hidden (Dense)   (None, 3)      9
    =======================================
    Total params: 9
    Trainable params: 9
    Non-trainable params: 0

    Before its first call a model shows what it has (Keras 3's table of an unbuilt model):

    >>> unbuilt = ek.keras.Sequential([ek.layers.Dense(3, name="hidden")], name="later")
    >>> print("\\n".join(summary_lines(unbuilt)))
    Model: "later"
    ===========================================
    Layer (type)     Output Shape   Param #
    ===========================================
    hidden (Dense)   ?              0 (unbuilt)
    ===========================================
    Total params: 0
    Trainable params: 0
    Non-trainable params: 0
    """
    rows = [
        (f"{layer.name} ({type(layer).__name__})", _shape_text(layer), params_text(layer))
        for layer in model.layers
    ]
    return summary_table(model, ("Layer (type)", "Output Shape", "Param #"), rows)


def params_text(layer):
    """A layer's parameter count, as Keras 3 writes it: ``0 (unbuilt)`` before its first
    call, which is when it makes its variables, but ``0`` for the layers Keras 3 builds in
    their constructor (those without weights of their own: lookups, ``Hashing``, ...)."""
    if layer.built:
        return f"{layer.count_params():,}"
    return "0" if getattr(layer, "_built_at_init", False) else "0 (unbuilt)"


def summary_table(model, header, rows):
    """``Model: "name"``, the rows under ``header`` in columns padded to fit, then totals.
    A cell may be a list of lines (a layer connected to several others)."""
    rows = [[cell if isinstance(cell, list) else [cell] for cell in row] for row in rows]
    table = [[[h] for h in header], *rows]
    widths = [max(len(line) for row in table for line in row[i]) for i in range(len(header))]
    widths = [width + 3 for width in widths[:-1]] + widths[-1:]  # 3 spaces between columns
    rule = "=" * sum(widths)

    def lines(row):
        height = max(len(cell) for cell in row)
        for j in range(height):
            cells = [cell[j] if j < len(cell) else "" for cell in row]
            yield "".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    total = model.count_params()
    trainable = sum(v.size for v in model.trainable_variables)
    return [
        f'Model: "{model.name}"',
        rule,
        *lines(table[0]),
        rule,
        *[line for row in rows for line in lines(row)],
        rule,
        f"Total params: {total:,}",
        f"Trainable params: {trainable:,}",
        f"Non-trainable params: {total - trainable:,}",
    ]


def _shape_text(layer):
    """The shape of the layer's last output; before any call, the output shape of the input
    shape ``adapt`` built it for (Keras 3's ``compute_output_shape``), else Keras 3's ``?``."""
    shape = layer.last_output_shape if layer.built else None
    if shape is None:
        shape = vars(layer).get("_adapted_output_shape")
    return "?" if shape is None else str(shape)
