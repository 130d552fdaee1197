"""The seed articles' layer and model examples, with ``tf.``/``tfe.`` replaced by ``ek.``.

Seed 002 (Keras layers, the CNN + LSTM MNIST model) and seed 003 (tfe.Network, tf.layers
models trained with implicit_gradients) must run and print what the articles print.
"""

import numpy as np

import eagerkit as ek


# --- seed 002 --------------------------------------------------------------------------------
def test_seed_002_conv_and_pool_on_a_batch_of_images():
    conv = ek.keras.layers.Conv2D(filters=64, kernel_size=3, padding="SAME")
    pool = ek.keras.layers.MaxPool2D(pool_size=2, strides=2, padding="SAME")
    imgs = ek.random_uniform(shape=(128, 32, 32, 3))
    conv_feat = conv(imgs)
    pooled_feat = pool(conv_feat)
    assert conv_feat.shape == (128, 32, 32, 64)
    assert pooled_feat.shape == (128, 16, 16, 64)
    assert pooled_feat.dtype == ek.float32


class MNIST_HighLevel(ek.keras.Model):  # noqa: N801 - the seed's name
    def __init__(self, hidden_units, n_cls):
        super(MNIST_HighLevel, self).__init__()  # noqa: UP008 - as the seed writes it
        self.hidden_units = hidden_units
        self.n_cls = n_cls
        self.reshape_img = ek.keras.layers.Reshape([28, 28, 1], name="input_reshape")
        self.conv1 = ek.keras.layers.Conv2D(32, 5, padding="SAME", name="conv1")
        self.pool1 = ek.keras.layers.MaxPool2D(padding="SAME", name="conv1/pool")
        self.conv2 = ek.keras.layers.Conv2D(64, 5, padding="SAME", name="conv2")
        self.pool2 = ek.keras.layers.MaxPool2D(padding="SAME", name="conv2/pool")
        self.reshape_conv = ek.keras.layers.Reshape([49, 64], name="conv_feat_reshape")
        self.lstm = ek.keras.layers.LSTM(units=self.hidden_units, use_bias=True)
        self.dense = ek.keras.layers.Dense(units=self.n_cls)

    def call(self, imgs):
        imgs = self.reshape_img(imgs)
        conv_feat = self.conv1(imgs)
        conv_feat = self.pool1(conv_feat)
        conv_feat = self.conv2(conv_feat)
        conv_feat = self.pool2(conv_feat)
        conv_feat = self.reshape_conv(conv_feat)
        conv_feat = ek.transpose(conv_feat, perm=[0, 2, 1], name="conv_transpose")
        lstm_feat = self.lstm(conv_feat)
        logits = self.dense(lstm_feat)
        return logits


def test_seed_002_training_loop_runs_as_written(tmp_path):
    model = MNIST_HighLevel(hidden_units=8, n_cls=10)
    rng = np.random.default_rng(0)
    images = rng.uniform(size=(6, 784)).astype(np.float32)
    labels = np.eye(10, dtype=np.float32)[[4, 1, 7, 0, 2, 9]]
    dataset = ek.data.Dataset.from_tensor_slices((images, labels)).batch(3)
    step_counter = ek.train.get_or_create_global_step()
    start_step = int(step_counter)
    optimizer = ek.train.GradientDescentOptimizer(0.5)
    acc_metrics = ek.metrics.Accuracy()
    writer = ek.summary.create_file_writer(str(tmp_path))
    losses = []
    with writer.as_default():
        # The seed's loop, with tf.contrib.summary spelled ek.summary.
        for batch, (images_b, labels_b) in enumerate(dataset):  # noqa: B007 - as the seed
            with ek.summary.record_summaries_every_n_global_steps(10, global_step=step_counter):
                with ek.GradientTape() as tape:
                    logits = model(images_b)
                    loss_value = ek.losses.softmax_cross_entropy(labels_b, logits)
                    acc_metrics(
                        labels=ek.argmax(labels_b, axis=1), predictions=ek.argmax(logits, axis=1)
                    )
                    ek.summary.scalar("loss", loss_value)
                    ek.summary.scalar("accuracy", acc_metrics.result().numpy())
                grads = tape.gradient(loss_value, model.variables)
                optimizer.apply_gradients(
                    zip(grads, model.variables, strict=True), global_step=step_counter
                )
            losses.append(float(loss_value))

    assert batch == 1 and int(step_counter) == start_step + 2
    assert logits.shape == (3, 10)
    assert [layer.last_output_shape for layer in model.layers] == [
        (None, 28, 28, 1),
        (None, 28, 28, 32),
        (None, 14, 14, 32),
        (None, 14, 14, 64),
        (None, 7, 7, 64),
        (None, 49, 64),
        (None, 8),
        (None, 10),
    ]
    assert [v.shape for v in model.variables] == [
        (5, 5, 1, 32),
        (32,),
        (5, 5, 32, 64),
        (64,),
        (49, 32),
        (8, 32),
        (32,),
        (8, 10),
        (10,),
    ]
    assert all(np.isfinite(losses))
    assert 0.0 <= float(acc_metrics.result(write_summary=False)) <= 1.0


# --- seed 003 --------------------------------------------------------------------------------
class MNISTModel(ek.Network):
    def __init__(self):
        super().__init__()
        self.layer1 = self.track_layer(ek.layers.Dense(units=10))
        self.layer2 = self.track_layer(ek.layers.Dense(units=10))

    def call(self, input):  # noqa: A002 - the seed's name
        """Actually runs the model."""
        result = self.layer1(input)
        result = self.layer2(result)
        return result


def test_seed_003_network_prints_what_the_article_prints(capsys):
    model = MNISTModel()
    batch = ek.zeros([1, 1, 784])
    print(batch.shape)
    result = model(batch)
    print(result)
    assert capsys.readouterr().out == (
        "(1, 1, 784)\n"
        "ek.Tensor([[[0. 0. 0. 0. 0. 0. 0. 0. 0. 0.]]], shape=(1, 1, 10), dtype=float32)\n"
    )
    assert [v.shape for v in model.variables] == [(784, 10), (10,), (10, 10), (10,)]


def test_seed_003_layers_api_linear_model():
    class Model:
        def __init__(self):
            self.layer = ek.layers.Dense(1)

        def predict(self, inputs):
            return self.layer(inputs)

    model = Model()
    assert model.predict(ek.ones([4, 2])).shape == (4, 1)


class SeedConvModel:
    """Seed 003's tf.layers MNIST model (data_format chosen as the seed does)."""

    def __init__(self, data_format):
        if data_format == "channels_first":
            self._input_shape = [-1, 1, 28, 28]
        else:
            self._input_shape = [-1, 28, 28, 1]
        self.conv1 = ek.layers.Conv2D(
            32, 5, padding="same", activation=ek.nn.relu, data_format=data_format
        )
        self.max_pool2d = ek.layers.MaxPooling2D(
            (2, 2), (2, 2), padding="same", data_format=data_format
        )
        self.conv2 = ek.layers.Conv2D(
            64, 5, padding="same", activation=ek.nn.relu, data_format=data_format
        )
        self.dense1 = ek.layers.Dense(1024, activation=ek.nn.relu)
        self.dropout = ek.layers.Dropout(0.5)
        self.dense2 = ek.layers.Dense(10)

    def predict(self, inputs):
        x = ek.reshape(inputs, self._input_shape)
        x = self.max_pool2d(self.conv1(x))
        x = self.max_pool2d(self.conv2(x))
        x = ek.layers.flatten(x)
        x = self.dropout(self.dense1(x))
        return self.dense2(x)


def seed_loss(model, inputs, targets):
    return ek.reduce_mean(
        ek.nn.softmax_cross_entropy_with_logits(logits=model.predict(inputs), labels=targets)
    )


def test_seed_003_conv_model_trains_with_implicit_gradients():
    device = "gpu:0" if ek.num_gpus() else "cpu:0"
    model = SeedConvModel("channels_first" if ek.num_gpus() else "channels_last")
    optimizer = ek.train.GradientDescentOptimizer(learning_rate=0.05)
    grad = ek.implicit_gradients(seed_loss)
    rng = np.random.default_rng(0)
    inputs = rng.uniform(size=(4, 784)).astype(np.float32)
    targets = np.eye(10, dtype=np.float32)[[3, 1, 4, 1]]
    with ek.device(device):
        before = float(seed_loss(model, inputs, targets))
        grads_and_vars = grad(model, inputs, targets)
        optimizer.apply_gradients(grads_and_vars)
        after = float(seed_loss(model, inputs, targets))
    assert [v.shape for _, v in grads_and_vars] == [
        (5, 5, 1, 32),
        (32,),
        (5, 5, 32, 64),
        (64,),
        (3136, 1024),
        (1024,),
        (1024, 10),
        (10,),
    ]
    assert after < before


def test_seed_003_conv_model_channels_first_runs():
    model = SeedConvModel("channels_first")
    logits = model.predict(np.zeros((2, 784), np.float32))
    assert logits.shape == (2, 10)
    assert model.conv1.kernel.shape == (5, 5, 1, 32)
