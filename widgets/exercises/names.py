"""Op names as a student may type them: ``Sqrt``, ``ek.sqrt``, ``tf.math.sqrt``, ``'sqrt '``
and TF's op type names (``RealDiv``, ``Mul``) all name eagerkit's ``sqrt`` or its twin."""

import re

# TF's op type names (what TF's errors print) that differ from eagerkit's op names.
TF_OP_TYPES = {
    "addv2": "add",
    "sub": "subtract",
    "mul": "multiply",
    "realdiv": "truediv",
    "div": "truediv",
    "divide": "truediv",
    "neg": "negative",
    "mean": "reduce_mean",
    "sum": "reduce_sum",
    "max": "reduce_max",
    "min": "reduce_min",
    "prod": "reduce_prod",
    "matmul": "matmul",
    "batchmatmulv2": "matmul",
    "pow": "pow",
    "squareddifference": "squared_difference",
    "logsoftmax": "log_softmax",
}


def op_name(text):
    """The eagerkit op a typed name means.

    Examples
    --------
    >>> [op_name(t) for t in ["Sqrt", " ek.sqrt ", "tf.math.sqrt()", "'RealDiv'", "Sub"]]
    ['sqrt', 'sqrt', 'sqrt', 'truediv', 'subtract']
    """
    name = str(text).strip().strip("'\"` ").lower()
    name = re.sub(r"\(\s*\)$", "", name)  # sqrt()
    name = re.sub(r"^(ek|tf|tfe|np|numpy|eagerkit)\.", "", name)
    name = re.sub(r"^(math|nn|linalg|raw_ops)\.", "", name)
    name = name.replace(" ", "_")
    return TF_OP_TYPES.get(name.replace("_", ""), TF_OP_TYPES.get(name, name))
