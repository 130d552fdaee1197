r"""The keys of a checkpoint's values: an attribute path, escaped, and what the value is.

``model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE`` is a variable's value,
``<variable path>/.OPTIMIZER_SLOT/<optimizer path>/<slot name>`` an optimizer's slot for it,
and ``<path>/.ATTRIBUTES/ITERATOR_STATE`` a dataset iterator's position (TF's names). A ``/``
or ``.`` inside an attribute name is escaped, so a key splits back into the names.

Examples
--------
>>> value_key(("model", "dense.1", "kernel"))
'model/dense\\.1/kernel/.ATTRIBUTES/VARIABLE_VALUE'
>>> split(r"model/dense\.1/kernel")
['model', 'dense.1', 'kernel']
"""

import re

VALUE = ".ATTRIBUTES/VARIABLE_VALUE"
STATE = ".ATTRIBUTES/ITERATOR_STATE"
SLOT = ".OPTIMIZER_SLOT"


def escape(name):
    return name.replace("\\", "\\\\").replace("/", "\\S").replace(".", "\\.")


def split(path_text):
    return [unescape(part) for part in path_text.split("/")]


def unescape(name):
    return re.sub(r"\\(.)", lambda m: "/" if m.group(1) == "S" else m.group(1), name)


def value_key(path):
    return "/".join(escape(name) for name in path) + "/" + VALUE


def state_key(path):
    return "/".join(escape(name) for name in path) + "/" + STATE


def slot_key(variable_path, optimizer_path, slot_name):
    variable = "/".join(escape(name) for name in variable_path)
    optimizer = "/".join(escape(name) for name in optimizer_path)
    return f"{variable}/{SLOT}/{optimizer}/{escape(slot_name)}"
