"""The public surface of eagerkit, walked and called (tests/test_public_api.py).

- ``walk``: every public callable reachable from ``ek``, found, not listed: the functions and
  classes of TF's namespaces, each class's public methods, operators and protocols, and what
  public calls return that can be called again (a gradient function, a traced function's
  concrete function, a dataset's iterator).
- ``calls_*``: one declared valid call per entry of the walk, with numpy's answer where numpy
  has one; a new public callable without a declaration fails the test.
- ``inputs``: the bad arguments users pass; ``runner`` makes a call, ``verdict`` judges what
  came back.
"""
