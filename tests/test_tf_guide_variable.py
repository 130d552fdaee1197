"""TF2's guide "Introduction to Variables" (tensorflow.org/guide/variable), ported with
``import eagerkit as tf``: what each cell prints, and the errors TF raises, by type.

Skipped examples (and why):

- ``tf.debugging.set_log_device_placement(True)``, the placement section's first line:
  eagerkit logs no placements (it would cost every op a check); each tensor's and
  variable's ``.device`` says where it is, and missing_names.py says so.
- Splitting one variable across devices (``tf.distribute``): out of the kit's scope.
"""

import numpy as np
import pytest

import eagerkit as tf

my_tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])


def test_create_a_variable(capsys):
    my_variable = tf.Variable(my_tensor)

    # Variables can be all kinds of types, just like tensors
    bool_variable = tf.Variable([False, False, False, True])
    complex_variable = tf.Variable([5 + 4j, 6 + 1j])
    assert bool_variable.dtype == tf.bool and complex_variable.dtype == tf.complex128
    np.testing.assert_array_equal(complex_variable.numpy(), [5 + 4j, 6 + 1j])

    print("Shape: ", my_variable.shape)
    print("DType: ", my_variable.dtype)
    print("As NumPy: ", my_variable.numpy())
    assert capsys.readouterr().out == (
        "Shape:  (2, 2)\nDType:  <dtype: 'float32'>\nAs NumPy:  [[1. 2.]\n [3. 4.]]\n"
    )


def test_variables_take_part_in_tensor_operations():
    my_variable = tf.Variable(my_tensor)
    viewed = tf.convert_to_tensor(my_variable)
    assert type(viewed) is tf.Tensor
    np.testing.assert_array_equal(viewed.numpy(), [[1.0, 2.0], [3.0, 4.0]])
    index_of_highest = tf.math.argmax(my_variable)
    assert index_of_highest.dtype == tf.int64
    np.testing.assert_array_equal(index_of_highest.numpy(), [1, 1])
    # This creates a new tensor; it does not reshape the variable
    reshaped = tf.reshape(my_variable, [1, 4])
    assert reshaped.shape == (1, 4) and my_variable.shape == (2, 2)
    np.testing.assert_array_equal(reshaped.numpy(), [[1.0, 2.0, 3.0, 4.0]])


def test_assign_keeps_the_shape():
    a = tf.Variable([2.0, 3.0])
    # This will keep the same dtype, float32
    a.assign([1, 2])
    assert a.dtype == tf.float32
    np.testing.assert_array_equal(a.numpy(), [1.0, 2.0])
    # Not allowed as it resizes the variable: TF raises ValueError
    with pytest.raises(ValueError, match=r"assign .*shape \(3,\) .*shape \(2,\)"):
        a.assign([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(a.numpy(), [1.0, 2.0])  # unchanged


def test_assign_refuses_another_dtype():
    counter = tf.Variable([1, 2])
    # TF: TypeError (cannot convert the floats to an int32 tensor)
    with pytest.raises(TypeError, match="int32"):
        counter.assign([1.5, 2.5])
    weights = tf.Variable([1.0, 2.0])
    # TF: ValueError (conversion of an int32 tensor to float32 requested)
    with pytest.raises(ValueError, match="int32 but the variable is float32"):
        weights.assign(tf.constant([1, 2]))
    np.testing.assert_array_equal(counter.numpy(), [1, 2])
    np.testing.assert_array_equal(weights.numpy(), [1.0, 2.0])


def test_a_variable_made_from_another_is_a_copy():
    a = tf.Variable([2.0, 3.0])
    # Create b based on the value of a
    b = tf.Variable(a)
    a.assign([5, 6])

    # a and b are different
    np.testing.assert_array_equal(a.numpy(), [5.0, 6.0])
    np.testing.assert_array_equal(b.numpy(), [2.0, 3.0])

    # There are other versions of assign
    np.testing.assert_array_equal(a.assign_add([2, 3]).numpy(), [7.0, 9.0])
    np.testing.assert_array_equal(a.assign_sub([7, 9]).numpy(), [0.0, 0.0])


def test_read_value_is_a_tensor_that_does_not_follow_the_variable():
    v = tf.Variable([1.0, 2.0])
    value = v.read_value()
    v.assign([3.0, 4.0])
    assert type(value) is tf.Tensor
    np.testing.assert_array_equal(value.numpy(), [1.0, 2.0])


def test_names_and_trainable():
    # Create a and b; they will have the same name but will be backed by different tensors
    a = tf.Variable(my_tensor, name="Mark")
    # A new variable with the same name, but different value
    # Note that the scalar add is broadcast
    b = tf.Variable(my_tensor + 1, name="Mark")

    # These are elementwise-unequal, despite having the same name
    equal = a == b
    assert type(equal) is tf.Tensor and equal.dtype == tf.bool
    np.testing.assert_array_equal(equal.numpy(), [[False, False], [False, False]])
    assert a.name == b.name == "Mark:0"
    assert tf.Variable(1.0).name == "Variable:0"

    step_counter = tf.Variable(1, trainable=False)
    assert step_counter.trainable is False
    assert tf.Variable(1.0).trainable is True


def test_placing_variables_and_tensors():
    with tf.device("CPU:0"):
        # Create some tensors
        a = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        c = tf.matmul(a, b)
    np.testing.assert_array_equal(c.numpy(), [[22.0, 28.0], [49.0, 64.0]])
    assert a.device.endswith("device:CPU:0") and c.device.endswith("device:CPU:0")

    with tf.device("CPU:0"):
        a = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        b = tf.Variable([[1.0, 2.0, 3.0]])

    with tf.device("GPU:0"):
        # Element-wise multiply
        k = a * b
    np.testing.assert_array_equal(k.numpy(), [[1.0, 4.0, 9.0], [4.0, 10.0, 18.0]])
    if not tf.config.list_physical_devices("GPU"):  # soft placement: TF2's default
        assert k.device.endswith("device:CPU:0")


def test_log_device_placement_says_what_to_use_instead():
    with pytest.raises(AttributeError, match=r"set_log_device_placement.*\.device"):
        tf.debugging.set_log_device_placement(True)
