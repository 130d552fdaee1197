"""TF2's guide "Training checkpoints" (tensorflow.org/guide/checkpoint), ported with
``import eagerkit as tf``; the files go to a scratch folder (tmp_path).

The guide's losses come from random initial weights, so the tests check what the guide's
prints show about them (training goes on from the restored state and the loss falls), not
its digits.

Skipped examples (and why):

- "Saving object-based checkpoints with Estimator": ``tf.estimator`` is not in eagerkit
  (missing_names.py says what to use instead).
"""

import numpy as np
import pytest

import eagerkit as tf


@pytest.fixture(autouse=True)
def in_scratch_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


class Net(tf.keras.Model):
    """A simple linear model."""

    def __init__(self):
        super(Net, self).__init__()
        self.l1 = tf.keras.layers.Dense(5)

    def call(self, x):
        return self.l1(x)


def toy_dataset():
    inputs = tf.range(10.0)[:, None]
    labels = inputs * 5.0 + tf.range(5.0)[None, :]
    return tf.data.Dataset.from_tensor_slices(dict(x=inputs, y=labels)).repeat().batch(2)


def train_step(net, example, optimizer):
    """Trains `net` on `example` using `optimizer`."""
    with tf.GradientTape() as tape:
        output = net(example["x"])
        loss = tf.reduce_mean(tf.abs(output - example["y"]))
    variables = net.trainable_variables
    gradients = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(gradients, variables))
    return loss


def train_and_checkpoint(net, manager, ckpt, iterator, opt):
    ckpt.restore(manager.latest_checkpoint)
    if manager.latest_checkpoint:
        print("Restored from {}".format(manager.latest_checkpoint))
    else:
        print("Initializing from scratch.")

    losses = []
    for _ in range(50):
        example = next(iterator)
        loss = train_step(net, example, opt)
        ckpt.step.assign_add(1)
        if int(ckpt.step) % 10 == 0:
            save_path = manager.save()
            print("Saved checkpoint for step {}: {}".format(int(ckpt.step), save_path))
            print("loss {:1.2f}".format(loss.numpy()))
            losses.append(float(loss))
    return losses


def fresh_objects():
    """The guide's "create new model and manager" cell (also its first run's objects)."""
    tf.random.set_seed(0)  # the guide's digits are random; these tests' are not
    opt = tf.keras.optimizers.Adam(0.1)
    net = Net()
    dataset = toy_dataset()
    iterator = iter(dataset)
    ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net, iterator=iterator)
    manager = tf.train.CheckpointManager(ckpt, "./tf_ckpts", max_to_keep=3)
    return net, manager, ckpt, iterator, opt


def test_save_weights_of_a_subclassed_model():
    net = Net()
    net(tf.ones([1, 1]))  # Keras 3 saves built layers
    net.save_weights("easy_checkpoint")
    reloaded = Net()
    reloaded(tf.ones([1, 1]))
    reloaded.load_weights("easy_checkpoint")
    np.testing.assert_array_equal(reloaded.l1.kernel.numpy(), net.l1.kernel.numpy())


def test_train_and_checkpoint_then_resume(capsys):
    net, manager, ckpt, iterator, opt = fresh_objects()
    first = train_and_checkpoint(net, manager, ckpt, iterator, opt)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "Initializing from scratch."
    assert printed[1] == "Saved checkpoint for step 10: ./tf_ckpts/ckpt-1"
    assert printed[-2] == "Saved checkpoint for step 50: ./tf_ckpts/ckpt-5"
    assert first[-1] < first[0]

    # "Restore and continue training": a new model and manager pick up at step 50
    net, manager, ckpt, iterator, opt = fresh_objects()
    second = train_and_checkpoint(net, manager, ckpt, iterator, opt)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "Restored from ./tf_ckpts/ckpt-5"
    assert printed[1] == "Saved checkpoint for step 60: ./tf_ckpts/ckpt-6"
    assert printed[-2] == "Saved checkpoint for step 100: ./tf_ckpts/ckpt-10"
    assert second[0] < first[0]  # it trained on from the restored weights, not from scratch

    # The manager deletes old checkpoints (max_to_keep=3)
    assert manager.checkpoints == [
        "./tf_ckpts/ckpt-8",
        "./tf_ckpts/ckpt-9",
        "./tf_ckpts/ckpt-10",
    ]
    assert tf.train.latest_checkpoint("./tf_ckpts") == "./tf_ckpts/ckpt-10"
    assert int(ckpt.save_counter) == 10


def test_the_iterator_is_saved_with_the_checkpoint():
    # The guide saves the input pipeline's position: a restore rewinds the iterator too
    net, manager, ckpt, iterator, opt = fresh_objects()
    for _ in range(3):
        next(iterator)
    manager.save()
    after_save = [next(iterator)["x"].numpy().ravel().tolist() for _ in range(2)]
    ckpt.restore(manager.latest_checkpoint).assert_existing_objects_matched()
    assert [next(iterator)["x"].numpy().ravel().tolist() for _ in range(2)] == after_save
    assert after_save == [[6.0, 7.0], [8.0, 9.0]]


def trained_checkpoint():
    net, manager, ckpt, iterator, opt = fresh_objects()
    train_and_checkpoint(net, manager, ckpt, iterator, opt)
    return net, manager


def test_loading_mechanics_and_delayed_restoration(capsys):
    net, manager = trained_checkpoint()
    to_restore = tf.Variable(tf.zeros([5]))
    print(to_restore.numpy())  # All zeros
    fake_layer = tf.train.Checkpoint(bias=to_restore)
    fake_net = tf.train.Checkpoint(l1=fake_layer)
    new_root = tf.train.Checkpoint(net=fake_net)
    status = new_root.restore(tf.train.latest_checkpoint("./tf_ckpts/"))
    print(to_restore.numpy())  # This gets the restored value.
    saved_bias = tf.train.load_variable("./tf_ckpts/", "net/l1/bias/.ATTRIBUTES/VARIABLE_VALUE")
    np.testing.assert_array_equal(to_restore.numpy(), saved_bias)
    assert np.all(saved_bias != 0.0)
    assert "[0. 0. 0. 0. 0.]" in capsys.readouterr().out

    # Only part of the checkpoint was used: the existing objects match, not all values
    assert status.assert_existing_objects_matched() is status
    with pytest.raises(AssertionError, match="net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE"):
        status.assert_consumed()
    assert status.expect_partial() is status

    # Delayed restoration: the kernel gets its value when it is attached
    delayed_restore = tf.Variable(tf.zeros([1, 5]))
    np.testing.assert_array_equal(delayed_restore.numpy(), np.zeros([1, 5]))
    fake_layer.kernel = delayed_restore
    saved_kernel = tf.train.load_variable("./tf_ckpts/", "net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE")
    np.testing.assert_array_equal(delayed_restore.numpy(), saved_kernel)
    assert np.all(saved_kernel != 0.0)


def test_manually_inspecting_checkpoints():
    net, manager = trained_checkpoint()
    names = [
        name for name, shape in tf.train.list_variables(tf.train.latest_checkpoint("./tf_ckpts/"))
    ]
    assert "net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE" in names
    assert "net/l1/kernel/.OPTIMIZER_SLOT/optimizer/m" in names
    assert "iterator/.ATTRIBUTES/ITERATOR_STATE" in names
    assert "save_counter/.ATTRIBUTES/VARIABLE_VALUE" in names

    reader = tf.train.load_checkpoint("./tf_ckpts/")
    shape_from_key = reader.get_variable_to_shape_map()
    dtype_from_key = reader.get_variable_to_dtype_map()
    assert sorted(shape_from_key.keys()) == sorted(names)
    key = "net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE"
    assert shape_from_key[key] == [1, 5]
    assert dtype_from_key[key].name == "float32"
    kernel = reader.get_tensor(key)
    assert isinstance(kernel, np.ndarray)
    # The last save came at step 50, one training step before the loop ended
    restored = Net()
    tf.train.Checkpoint(net=restored).restore("./tf_ckpts/ckpt-5").expect_partial()
    restored(tf.ones([1, 1]))  # builds the layer; the waiting values are assigned then
    np.testing.assert_array_equal(kernel, restored.l1.kernel.numpy())
    assert tf.train.load_variable("./tf_ckpts/", "step/.ATTRIBUTES/VARIABLE_VALUE") == 50


def test_a_missing_key_names_the_keys():
    trained_checkpoint()
    reader = tf.train.load_checkpoint("./tf_ckpts/")
    with pytest.raises(tf.errors.NotFoundError, match=r"get_tensor: .* has no key 'net/l2"):
        reader.get_tensor("net/l2/kernel/.ATTRIBUTES/VARIABLE_VALUE")
    with pytest.raises(tf.errors.NotFoundError, match="load_checkpoint: the directory"):
        tf.train.load_checkpoint(".")


def test_list_and_dictionary_tracking():
    save = tf.train.Checkpoint()
    save.listed = [tf.Variable(1.0)]
    save.listed.append(tf.Variable(2.0))
    save.mapped = {"one": save.listed[0]}
    # Each Variable is saved once, under its first path
    save.mapped["two"] = save.listed[1]
    save_path = save.save("./tf_list_example")
    assert [name for name, _ in tf.train.list_variables(save_path)] == [
        "listed/0/.ATTRIBUTES/VARIABLE_VALUE",
        "listed/1/.ATTRIBUTES/VARIABLE_VALUE",
        "save_counter/.ATTRIBUTES/VARIABLE_VALUE",
    ]

    restore = tf.train.Checkpoint()
    v2 = tf.Variable(0.0)
    assert 0.0 == v2.numpy()
    restore.mapped = {"two": v2}
    restore.restore(save_path)
    assert 2.0 == v2.numpy()  # through mapped/two, its second path

    # In TF, `restore.listed` is a ListWrapper([])
    restore.listed = []
    assert repr(restore.listed) == "ListWrapper([])"
    v1 = tf.Variable(0.0)
    restore.listed.append(v1)  # Restores v1, from restore() in the previous cell
    assert 1.0 == v1.numpy()


def test_save_counter_is_reserved():
    with pytest.raises(ValueError, match="'save_counter' is reserved"):
        tf.train.Checkpoint(save_counter=tf.Variable(0))
    checkpoint = tf.train.Checkpoint()
    with pytest.raises(TypeError, match="Checkpoint: 'step' is a Tensor"):
        checkpoint.step = tf.constant(1)
    assert checkpoint._checkpoint_dependencies() == []  # the failed assignment added nothing


def test_a_nested_checkpoint_saves_no_counter_of_its_own():
    inner = tf.train.Checkpoint(v=tf.Variable(1.0))
    path = tf.train.Checkpoint(inner=inner).save("./nested")
    assert [name for name, _ in tf.train.list_variables(path)] == [
        "inner/v/.ATTRIBUTES/VARIABLE_VALUE",
        "save_counter/.ATTRIBUTES/VARIABLE_VALUE",
    ]


def test_delayed_restoration_of_the_root_s_own_attributes():
    # TF restores an attribute of the restored Checkpoint itself when it is attached later
    path = tf.train.Checkpoint(v=tf.Variable(3.0)).save("./root_attributes")
    restore = tf.train.Checkpoint()
    status = restore.restore(path)
    with pytest.raises(AssertionError, match=r"v/.* \(no object at this path yet: checkpoint\.v"):
        status.assert_consumed()
    restore.v = tf.Variable(0.0)
    assert restore.v.numpy() == 3.0
    assert status.assert_consumed() is status
