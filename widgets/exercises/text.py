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


def number(value):
    """A number as messages write it: 4 significant digits, floats with a point.

    Examples
    --------
    >>> number(2), number(0.123456), number(3.0)
    ('2', '0.1235', '3.0')
    """
    value = getattr(value, "item", lambda: value)()
    if isinstance(value, float):
        text = f"{value:.4g}"
        return text if any(c in text for c in ".ein") else text + ".0"
    return str(value)
