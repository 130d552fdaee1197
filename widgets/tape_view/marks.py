"""Marks on a tape's graph: the record an exercise check points at, and the first NaN.

Both are plain dicts in ``view.graph`` (``"highlight"`` and ``"nonfinite"``) that the
browser and the PNG draw: the marked box, and a line of text saying which record and why.
"""

from eagerkit.tensor import Tensor


def record_index(records, record):
    """The index in ``records`` of ``record``: an index (negative counts from the end) or
    the Tensor a record made.

    Examples
    --------
    >>> record_index([None, None, None], -1)
    2
    """
    count = len(records)
    if isinstance(record, Tensor):
        for index, entry in enumerate(records):
            if entry.output is record:
                return index
        raise ValueError(
            "TapeView.set_highlight: that tensor was not made by a record of this tape; "
            f"pass the index of a record (0 to {count - 1}) or an op's output"
        )
    if isinstance(record, bool) or not isinstance(record, int):
        raise TypeError(
            "TapeView.set_highlight: expected a record index (int) or a Tensor, got "
            f"{type(record).__name__}"
        )
    if not -count <= record < count:
        raise IndexError(
            f"TapeView.set_highlight: record {record} does not exist; this tape has "
            f"{count} records (0 to {count - 1})"
        )
    return record % count


def highlight_mark(highlight, forward):
    """``{"record", "node", "text", "note"}`` for ``highlight = (index, note)``, or None."""
    if highlight is None:
        return None
    index, note = highlight
    step = forward[index]
    return {
        "record": index,
        "node": step["op"] or step["output"],
        "text": step["text"],
        "note": note,
    }


def nonfinite_mark(first, forward, records, origins):
    """The first NaN or Inf (from ``build_graph`` or ``backward_steps``) in words, with the
    user's line that made it."""
    if first is None:
        return None
    index = first["record"]
    if first["phase"] == "forward":
        text = f"first NaN/Inf of the forward pass: record {index + 1}, {forward[index]['text']}"
    else:
        op = records[index].op.name
        text = f"first NaN/Inf gradient of the reverse sweep: the VJP of {op} (record {index + 1})"
    where = origins.get(index)
    if where is not None:
        text += f", made at {where['where']}: {where['code']}"
    return dict(first, text=text)
