"""Graph mode's parts: trace a Python function, optimize the graph, replay it.

``eagerkit.function`` (``ek.function``) ties them together; each file here is one step:
graph.py (what a graph is), trace.py (making one), optimize.py (improving it),
replay.py (running it), signature.py (when a trace can be reused), calls.py (a call in
canonical form), polymorphic_function.py (the object ``ek.function`` returns, which keeps
one trace per input signature), located_errors.py (how an op's error inside it reads).
"""
