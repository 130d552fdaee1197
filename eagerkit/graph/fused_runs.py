"""Runs of elementwise ops in a graph, each compiled into one kernel on a GPU.

On a GPU every op is a kernel launch, and a launch costs about as much as the arithmetic on
a small array (backends/fusion.py). Eager execution cannot know whether anyone will read an
op's result again, so it launches every op. A traced graph knows: a run of elementwise ops
whose intermediate results only the run itself reads (tanh's gradient ``g * (1 - ans *
ans)``, softmax's ``exp(logits - lse) - labels``) can be one function over ``xp``, the
ops' own forwards in graph order, which the device compiles into one kernel
(``cupy.fuse``; ``/sim:0`` runs it as one launch). ``replay.compile_graph`` calls it in
place of the run's ops where the device ``fuses``.

Only the compiled replay fuses, and only on a device that fuses: numpy gains nothing from
fusing (each step is a call into C anyway), so on the CPU a graph runs as before.
tests/test_fused_runs.py checks the runs found and that a fused graph gives the values of
the same graph unfused.

Examples
--------
>>> import eagerkit as ek
>>> f = ek.function(lambda x, y: ek.exp(x - y) * y)
>>> graph = f.get_concrete_function(ek.zeros([3]), ek.ones([3])).graph
>>> [[node.name for node in run.members] for run in find_runs(graph)]
[['subtract', 'exp', 'multiply']]
"""

# Ops whose forward is one elementwise expression of its inputs (broadcasting allowed) and
# takes no params: what cupy.fuse compiles. Anything else ends a run.
FUSABLE = frozenset(
    {
        "add",
        "subtract",
        "multiply",
        "truediv",
        "maximum",
        "minimum",
        "negative",
        "abs",
        "square",
        "sqrt",
        "rsqrt",
        "reciprocal",
        "exp",
        "log",
        "log1p",
        "sin",
        "cos",
        "tanh",
        "relu",
        "equal",
        "not_equal",
        "less",
        "less_equal",
        "greater",
        "greater_equal",
        "logical_and",
        "logical_or",
        "logical_not",
        "where",
    }
)


class Run:
    """Elementwise op nodes computed as one kernel: ``members`` in graph order, the last one
    the result; ``inputs``, the nodes outside the run that it reads, in order of first use.

    ``function(xp, *arrays)`` (arrays for ``inputs``) runs each member's forward in turn.
    """

    def __init__(self, members):
        self.members = members
        inside = {id(node) for node in members}
        self.inputs = list(
            {id(x): x for node in members for x in node.inputs if id(x) not in inside}.values()
        )
        # Each step: the member's forward and where its arguments are in the list of values
        # (the inputs first, then each member's result as it is computed).
        place = {id(x): i for i, x in enumerate(self.inputs)}
        for i, node in enumerate(members):
            place[id(node)] = len(self.inputs) + i
        self.steps = [(node.op.forward, [place[id(x)] for x in node.inputs]) for node in members]

    @property
    def result(self):
        return self.members[-1]

    def function(self, xp, *arrays):
        """The members' forwards one after another: ``cupy.fuse`` traces this into one kernel."""
        values = list(arrays)
        for forward, positions in self.steps:
            values.append(forward(xp, *[values[i] for i in positions]))
        return values[-1]

    def __repr__(self):
        return f"<Run {' -> '.join(node.name for node in self.members)}>"


def find_runs(graph):
    """The runs worth fusing in ``graph`` (two ops or more), in the order of their results,
    whatever the device (``fuses`` says where to fuse them).

    An op joins the run of an input when it is that run's last member's only reader (the
    graph does not return it either), the two are on one device and the op is elementwise;
    an op reading several such runs joins them all (``where(x > 0, g, g * 0)``).
    """
    readers = {}
    for node in graph.nodes:
        for x in node.inputs:
            readers.setdefault(id(x), set()).add(id(node))
    for node in graph.outputs:
        readers.setdefault(id(node), set()).add(None)  # the caller reads it
    position = {id(node): i for i, node in enumerate(graph.nodes)}
    run_of = {}  # id(last member) -> the members of its run so far
    for node in graph.nodes:
        if not _fusable(node):
            continue
        members = []
        for x in dict.fromkeys(node.inputs):
            if id(x) in run_of and readers[id(x)] == {id(node)} and x.device is node.device:
                members += run_of.pop(id(x))
        members.sort(key=lambda member: position[id(member)])  # joined runs: in graph order
        run_of[id(node)] = members + [node]
    found = [Run(members) for members in run_of.values() if len(members) > 1]
    return sorted(found, key=lambda run: position[id(run.result)])


def fuses(device):
    """Whether ``device`` compiles a run into one kernel: a GPU, or the simulated one."""
    return hasattr(device.backend, "fuse")


def _fusable(node):
    return node.kind == "op" and node.op.name in FUSABLE and not node.params
