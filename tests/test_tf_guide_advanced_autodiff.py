"""TF2's guide "Advanced automatic differentiation", ported with ``import eagerkit as tf``.

The guide's values are checked where it shows them; where its weights are random, the
test checks what the guide says about them (shapes, and that two ways agree). The
SavedModel part of the custom-gradient section is out of scope.
"""

import numpy as np

import eagerkit as tf


def test_stop_recording_reset_and_stop_gradient():
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
        x_sq = x * x
        with t.stop_recording():
            y_sq = y * y
        z = x_sq + y_sq
    grad = t.gradient(z, {"x": x, "y": y})
    assert float(grad["x"]) == 4.0 and grad["y"] is None  # 2*x => 4

    reset = True
    with tf.GradientTape() as t:
        y_sq = y * y
        if reset:
            # Throw out all the tape recorded so far.
            t.reset()
        z = x * x + y_sq
    grad = t.gradient(z, {"x": x, "y": y})
    assert float(grad["x"]) == 4.0 and grad["y"] is None

    with tf.GradientTape() as t:
        y_sq = y**2
        z = x**2 + tf.stop_gradient(y_sq)
    grad = t.gradient(z, {"x": x, "y": y})
    assert float(grad["x"]) == 4.0 and grad["y"] is None


def test_custom_gradients():
    # Establish an identity operation, but clip during the gradient pass.
    @tf.custom_gradient
    def clip_gradients(y):
        def backward(dy):
            return tf.clip_by_norm(dy, 0.5)

        return y, backward

    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        output = clip_gradients(v * v)
    # Calls "backward", which clips 4 to 2.
    assert str(t.gradient(output, v)) == "ek.Tensor(2.0, shape=(), dtype=float32)"


def test_multiple_tapes():
    x0 = tf.constant(0.0)
    x1 = tf.constant(0.0)
    with tf.GradientTape() as tape0, tf.GradientTape() as tape1:
        tape0.watch(x0)
        tape1.watch(x1)
        y0 = tf.math.sin(x0)
        y1 = tf.nn.sigmoid(x1)
        y = y0 + y1
        ys = tf.reduce_sum(y)
    assert tape0.gradient(ys, x0).numpy() == 1.0  # cos(x) => 1.0
    assert tape1.gradient(ys, x1).numpy() == 0.25  # sigmoid(x1)*(1-sigmoid(x1)) => 0.25


def test_higher_order_gradients():
    x = tf.Variable(1.0)  # Create a Tensorflow variable initialized to 1.0
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x * x * x
        # Compute the gradient inside the outer `t2` context manager
        # which means the gradient computation is differentiable as well.
        dy_dx = t1.gradient(y, x)
    d2y_dx2 = t2.gradient(dy_dx, x)
    assert dy_dx.numpy() == 3.0  # 3 * x**2 => 3.0
    assert d2y_dx2.numpy() == 6.0  # 6 * x => 6.0


def test_input_gradient_regularization():
    x = tf.random.normal([7, 5])
    layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
    with tf.GradientTape() as t2:
        # The inner tape only takes the gradient with respect to the input,
        # not the variables.
        with tf.GradientTape(watch_accessed_variables=False) as t1:
            t1.watch(x)
            y = layer(x)
            out = tf.reduce_sum(layer(x) ** 2)
        # 1. Calculate the input gradient.
        g1 = t1.gradient(out, x)
        # 2. Calculate the magnitude of the input gradient.
        g1_mag = tf.norm(g1)
    # 3. Calculate the gradient of the magnitude with respect to the model.
    dg1_mag = t2.gradient(g1_mag, layer.trainable_variables)
    assert y.shape == (7, 10)
    assert repr([var.shape for var in dg1_mag]) == "[TensorShape([5, 10]), TensorShape([10])]"


def test_jacobians():
    x = tf.linspace(-10.0, 10.0, 200 + 1)
    delta = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        y = tf.nn.sigmoid(x + delta)
    dy_dx = tape.jacobian(y, delta)
    assert (str(y.shape), str(dy_dx.shape)) == ("(201,)", "(201,)")

    x = tf.random.normal([7, 5])
    layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
    with tf.GradientTape(persistent=True) as tape:
        y = layer(x)
    assert repr(y.shape) == "TensorShape([7, 10])"
    assert repr(layer.kernel.shape) == "TensorShape([5, 10])"
    j = tape.jacobian(y, layer.kernel)
    assert repr(j.shape) == "TensorShape([7, 10, 5, 10])"
    g = tape.gradient(y, layer.kernel)
    assert str(g.shape) == "(5, 10)"
    j_sum = tf.reduce_sum(j, axis=[0, 1])
    delta = tf.reduce_max(abs(g - j_sum)).numpy()
    assert delta < 1e-3


def test_hessian_and_a_newton_step():
    x = tf.random.normal([7, 5])
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.relu)
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.relu)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            x = layer1(x)
            x = layer2(x)
            loss = tf.reduce_mean(x**2)
        g = t1.gradient(loss, layer1.kernel)
    h = t2.jacobian(g, layer1.kernel)
    assert f"layer.kernel.shape: {layer1.kernel.shape}" == "layer.kernel.shape: (5, 8)"
    assert f"h.shape: {h.shape}" == "h.shape: (5, 8, 5, 8)"

    n_params = tf.reduce_prod(layer1.kernel.shape)
    g_vec = tf.reshape(g, [n_params, 1])
    h_mat = tf.reshape(h, [n_params, n_params])
    np.testing.assert_allclose(h_mat.numpy(), h_mat.numpy().T, atol=1e-5)  # a Hessian
    eps = 1e-3
    eye_eps = tf.eye(h_mat.shape[0]) * eps
    # X(k+1) = X(k) - (∇²f(X(k)))^-1 @ ∇f(X(k))
    # h_mat = ∇²f(X(k))
    # g_vec = ∇f(X(k))
    update = tf.linalg.solve(h_mat + eye_eps, g_vec)
    np.testing.assert_allclose(
        ((h_mat + eye_eps) @ update).numpy(), g_vec.numpy(), rtol=1e-3, atol=1e-5
    )
    # Reshape the update and apply it to the variable.
    before = layer1.kernel.numpy()
    _ = layer1.kernel.assign_sub(tf.reshape(update, layer1.kernel.shape))
    np.testing.assert_allclose(
        layer1.kernel.numpy(), before - update.numpy().reshape(5, 8), rtol=1e-6
    )


def test_batch_jacobian():
    x = tf.random.normal([7, 5])
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(x)
        y = layer1(x)
        y = layer2(y)
    assert y.shape == (7, 6)
    j = tape.jacobian(y, x)
    assert j.shape == (7, 6, 7, 5)
    j_sum = tf.reduce_sum(j, axis=2)
    assert str(j_sum.shape) == "(7, 6, 5)"
    jb = tape.batch_jacobian(y, x)
    assert jb.shape == (7, 6, 5)
    error = tf.reduce_max(abs(jb - j_sum))
    assert error < 1e-3
    assert error.numpy() == 0.0

    # With batch normalization the examples are no longer independent.
    x = tf.random.normal([7, 5])
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
    bn = tf.keras.layers.BatchNormalization()
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(x)
        y = layer1(x)
        y = bn(y, training=True)
        y = layer2(y)
    j = tape.jacobian(y, x)
    assert f"j.shape: {j.shape}" == "j.shape: (7, 6, 7, 5)"
    off_diagonal = j.numpy()[0, :, 1, :]  # example 0's outputs against example 1's inputs
    assert np.abs(off_diagonal).max() > 1e-4  # "These slices are not diagonal"
    jb = tape.batch_jacobian(y, x)
    assert f"jb.shape: {jb.shape}" == "jb.shape: (7, 6, 5)"


def test_batch_jacobian_diagonal_by_einsum():
    x = tf.random.normal([7, 5])
    layer = tf.keras.layers.Dense(6, activation=tf.nn.elu)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(x)
        y = layer(x)
    j = tape.jacobian(y, x)
    j_select = tf.einsum("bxby->bxy", j)
    assert str(j_select.shape) == "(7, 6, 5)"
    np.testing.assert_allclose(j_select.numpy(), tape.batch_jacobian(y, x).numpy())
