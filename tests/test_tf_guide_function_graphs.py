"""TF2's guide "Introduction to graphs and tf.function", ported with
``import eagerkit as tf``: each cell as written, then the values, prints and errors TF
documents. eagerkit prints ``ek.Tensor(...)`` where TF prints ``tf.Tensor(...)``; its graph
listing (``graph.as_graph_def()``) names eagerkit's ops, not TF's. The timings run but are
not compared (no test depends on timing)."""

import timeit

import numpy as np

import eagerkit as tf


def _printed(capsys):
    return capsys.readouterr().out.splitlines()


def test_taking_advantage_of_graphs():
    # Define a Python function.
    def a_regular_function(x, y, b):
        x = tf.matmul(x, y)
        x = x + b
        return x

    # The Python type of `a_function_that_uses_a_graph` will now be a
    # `PolymorphicFunction`.
    a_function_that_uses_a_graph = tf.function(a_regular_function)

    # Make some tensors.
    x1 = tf.constant([[1.0, 2.0]])
    y1 = tf.constant([[2.0], [3.0]])
    b1 = tf.constant(4.0)

    orig_value = a_regular_function(x1, y1, b1).numpy()
    # Call a `tf.function` like a Python function.
    tf_function_value = a_function_that_uses_a_graph(x1, y1, b1).numpy()
    assert orig_value == tf_function_value

    def inner_function(x, y, b):
        x = tf.matmul(x, y)
        x = x + b
        return x

    # Using the `tf.function` decorator makes `outer_function` into a
    # `PolymorphicFunction`.
    @tf.function
    def outer_function(x):
        y = tf.constant([[2.0], [3.0]])
        b = tf.constant(4.0)

        return inner_function(x, y, b)

    # Note that the callable will create a graph that
    # includes `inner_function` as well as `outer_function`.
    result = outer_function(tf.constant([[1.0, 2.0]])).numpy()
    assert result.tolist() == [[12.0]] and result.dtype == np.float32


def test_converting_python_functions_to_graphs(capsys):
    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0

    # Using `tf.function` makes `tf_simple_relu` a `PolymorphicFunction` that wraps
    # `simple_relu`.
    tf_simple_relu = tf.function(simple_relu)

    print("First branch, with graph:", tf_simple_relu(tf.constant(1)).numpy())
    print("Second branch, with graph:", tf_simple_relu(tf.constant(-1)).numpy())
    assert _printed(capsys) == ["First branch, with graph: 1", "Second branch, with graph: 0"]

    # This is the graph-generating output of AutoGraph.
    print(tf.autograph.to_code(simple_relu))
    assert _printed(capsys) == [
        "def simple_relu(x):",
        "",
        "    def if_true():",
        "        return x",
        "",
        "    def if_false():",
        "        return 0",
        "    return ag__.if_stmt(tf.greater(x, 0), if_true, if_false)",
    ]

    # This is the graph itself.
    print(tf_simple_relu.get_concrete_function(tf.constant(1)).graph.as_graph_def())
    listing = capsys.readouterr().out
    assert 'name: "x"' in listing and 'op: "cond"' in listing and 'input: "greater"' in listing


def test_polymorphism_one_function_many_graphs(capsys):
    @tf.function
    def my_relu(x):
        return tf.maximum(0.0, x)

    # `my_relu` creates new graphs as it observes different input types.
    print(my_relu(tf.constant(5.5)))
    print(my_relu([1, -1]))
    print(my_relu(tf.constant([3.0, -3.0])))
    # These two calls do *not* create new graphs.
    print(my_relu(tf.constant(-2.5)))  # Input type matches `tf.constant(5.5)`.
    print(my_relu(tf.constant([-1.0, 1.0])))  # Input type matches `tf.constant([3., -3.])`.
    assert _printed(capsys) == [
        "ek.Tensor(5.5, shape=(), dtype=float32)",
        "ek.Tensor([1. 0.], shape=(2,), dtype=float32)",
        "ek.Tensor([3. 0.], shape=(2,), dtype=float32)",
        "ek.Tensor(0.0, shape=(), dtype=float32)",
        "ek.Tensor([0. 1.], shape=(2,), dtype=float32)",
    ]
    # There are three `ConcreteFunction`s (one for each graph) in `my_relu`.
    # The `ConcreteFunction` also knows the return type and shape!
    print(my_relu.pretty_printed_concrete_signatures())
    assert _printed(capsys) == [
        "Input Parameters:",
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=ek.float32, name=None)",
        "Output Type:",
        "  TensorSpec(shape=(), dtype=ek.float32, name=None)",
        "Captures:",
        "  None",
        "",
        "Input Parameters:",
        "  x (POSITIONAL_OR_KEYWORD): List[Literal[1], Literal[-1]]",
        "Output Type:",
        "  TensorSpec(shape=(2,), dtype=ek.float32, name=None)",
        "Captures:",
        "  None",
        "",
        "Input Parameters:",
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2,), dtype=ek.float32, name=None)",
        "Output Type:",
        "  TensorSpec(shape=(2,), dtype=ek.float32, name=None)",
        "Captures:",
        "  None",
    ]


def test_graph_execution_vs_eager_execution(capsys):
    @tf.function
    def get_MSE(y_true, y_pred):  # noqa: N802 - the guide's name
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)

    y_true = tf.random.uniform([5], maxval=10, dtype=tf.int32)
    y_pred = tf.random.uniform([5], maxval=10, dtype=tf.int32)
    expected = int(np.mean((y_true.numpy() - y_pred.numpy()) ** 2))  # an int mean, as TF's
    assert int(get_MSE(y_true, y_pred)) == expected
    tf.config.run_functions_eagerly(True)
    assert int(get_MSE(y_true, y_pred)) == expected
    # Don't forget to set it back when you are done.
    tf.config.run_functions_eagerly(False)

    @tf.function
    def get_MSE(y_true, y_pred):  # noqa: F811, N802 - the guide redefines it
        print("Calculating MSE!")
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)

    error = get_MSE(y_true, y_pred)
    error = get_MSE(y_true, y_pred)
    error = get_MSE(y_true, y_pred)
    assert _printed(capsys) == ["Calculating MSE!"]  # once, though called three times

    # Now, globally set everything to run eagerly to force eager execution.
    tf.config.run_functions_eagerly(True)
    # Observe what is printed below.
    error = get_MSE(y_true, y_pred)
    error = get_MSE(y_true, y_pred)
    error = get_MSE(y_true, y_pred)
    tf.config.run_functions_eagerly(False)
    assert _printed(capsys) == ["Calculating MSE!"] * 3
    assert int(error) == expected


def test_non_strict_execution(capsys):
    def unused_return_eager(x):
        # Get index 1 will fail when `len(x) == 1`
        tf.gather(x, [1])  # unused
        return x

    try:
        print(unused_return_eager(tf.constant([0.0])))
    except tf.errors.InvalidArgumentError as e:
        # All operations are run during eager execution so an error is raised.
        print(f"{type(e).__name__}: {e}")
    (line,) = _printed(capsys)
    assert line.startswith("InvalidArgumentError: ") and "gather" in line

    @tf.function
    def unused_return_graph(x):
        tf.gather(x, [1])  # unused
        return x

    # Only needed operations are run during graph execution. The error is not raised.
    print(unused_return_graph(tf.constant([0.0])))
    assert _printed(capsys) == ["ek.Tensor([0.], shape=(1,), dtype=float32)"]


def test_seeing_the_speed_up(capsys):
    x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)

    def power(x, y):
        result = tf.eye(10, dtype=tf.dtypes.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    print("Eager execution:", timeit.timeit(lambda: power(x, 100), number=10), "seconds")
    power_as_graph = tf.function(power)
    print("Graph execution:", timeit.timeit(lambda: power_as_graph(x, 100), number=10), "seconds")
    assert [line.split(":")[0] for line in _printed(capsys)] == [
        "Eager execution",
        "Graph execution",
    ]
    np.testing.assert_array_equal(power_as_graph(x, 3), power(x, 3))


def test_when_is_a_tf_function_tracing(capsys):
    @tf.function
    def a_function_with_python_side_effect(x):
        print("Tracing!")  # An eager-only side effect.
        return x * x + tf.constant(2)

    # This is traced the first time.
    print(a_function_with_python_side_effect(tf.constant(2)))
    # The second time through, you won't see the side effect.
    print(a_function_with_python_side_effect(tf.constant(3)))
    # This retraces each time the Python argument changes,
    # as a Python argument could be an epoch count or other
    # hyperparameter.
    print(a_function_with_python_side_effect(2))
    print(a_function_with_python_side_effect(3))
    assert _printed(capsys) == [
        "Tracing!",
        "ek.Tensor(6, shape=(), dtype=int32)",
        "ek.Tensor(11, shape=(), dtype=int32)",
        "Tracing!",
        "ek.Tensor(6, shape=(), dtype=int32)",
        "Tracing!",
        "ek.Tensor(11, shape=(), dtype=int32)",
    ]
