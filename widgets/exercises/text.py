"""Small text helpers shared by the checks (one place for how numbers and names read)."""


def short(text, width=60):
    """``text`` on one line, cut to ``width`` characters.

    Examples
    --------
    >>> short("a\\n  b")
    'a b'
    >>> short("x" * 80, width=10)
    'xxxxxxxxx…'
    """
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"
