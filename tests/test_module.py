"""ek.Module (tf.Module): variables found by attribute, submodules, name scopes."""

import pickle

import pytest

import eagerkit as ek
from eagerkit.errors import InvalidArgumentError


class Dense(ek.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = ek.Variable(ek.ones([in_features, out_features]), name="w")
        self.b = ek.Variable(ek.zeros([out_features]), name="b")

    def __call__(self, x):
        return ek.nn.relu(ek.matmul(x, self.w) + self.b)


class TwoDense(ek.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_2 = Dense(3, 2, name="second")
        self.dense_1 = Dense(3, 3, name="first")
        self.counter = ek.Variable(0, trainable=False, name="counter")

    def __call__(self, x):
        return self.dense_2(self.dense_1(x))


def test_variables_are_found_by_attribute_in_tf_order():
    model = TwoDense(name="the_model")
    # Own variables first, then each submodule's; attributes by sorted name (dense_1 first).
    assert [v.name for v in model.variables] == ["counter:0", "b:0", "w:0", "b:0", "w:0"]
    assert model.variables[1] is model.dense_1.b and model.variables[3] is model.dense_2.b
    assert [v.name for v in model.trainable_variables] == ["b:0", "w:0", "b:0", "w:0"]
    assert model.non_trainable_variables == (model.counter,)
    assert model.submodules == (model.dense_1, model.dense_2)
    assert isinstance(model.variables, tuple)
    assert model(ek.constant([[2.0, 2.0, 2.0]])).numpy().tolist() == [[18.0, 18.0]]


def test_containers_are_opened_and_shared_objects_counted_once():
    class Holder(ek.Module):
        def __init__(self):
            super().__init__()
            shared = ek.Variable(1.0, name="shared")
            self.by_key = {"z": shared, "a": ek.Variable(2.0, name="a")}
            self.items = [shared, (ek.Variable(3.0, name="in_tuple"),)]
            self.inner = [Dense(1, 1)]

    holder = Holder()
    assert [v.name for v in holder.variables] == ["a:0", "shared:0", "in_tuple:0", "b:0", "w:0"]
    assert len(holder.submodules) == 1 and holder.submodules[0].name == "dense"


def test_a_module_needs_no_super_init_to_find_its_variables():
    class NoInit(ek.Module):
        def __init__(self):
            self.v = ek.Variable(1.0)

    module = NoInit()
    assert module.variables == (module.v,) and module.name == "no_init"


def test_names_are_checked_and_default_to_the_class_name():
    assert Dense(1, 1).name == "dense"
    assert TwoDense(name="the_model").name == "the_model"
    with pytest.raises(InvalidArgumentError, match="'has space' is not a valid module name"):
        ek.Module(name="has space")
    with pytest.raises(InvalidArgumentError, match="not a valid module name"):
        ek.Module(name=3)


def test_name_scopes_prefix_variable_names_and_nest():
    class Lazy(ek.Module):
        @ek.Module.with_name_scope
        def __call__(self, x):
            if not hasattr(self, "w"):
                self.w = ek.Variable(ek.ones([x.shape[1], 3]))
            return ek.matmul(x, self.w)

    lazy = Lazy(name="my_module")
    assert lazy(ek.ones([1, 2])).shape == (1, 3)
    assert lazy.w.name == "my_module/Variable:0"
    with ek.name_scope("outer") as outer:
        with lazy.name_scope as inner:
            v = ek.Variable(1.0, name="v")
        with ek.name_scope("absolute/"):
            u = ek.Variable(1.0, name="u")
    assert (outer, inner, v.name, u.name) == (
        "outer/",
        "outer/my_module/",
        "outer/my_module/v:0",
        "absolute/u:0",
    )
    assert ek.Variable(1.0, name="after").name == "after:0"  # the scopes were left


def test_name_scope_is_left_when_the_block_raises():
    with pytest.raises(ZeroDivisionError):
        with ek.name_scope("broken"):
            1 / 0  # noqa: B018
    assert ek.Variable(1.0, name="x").name == "x:0"
    with pytest.raises(InvalidArgumentError, match="name_scope: the name must be a string"):
        ek.name_scope(None)


def test_keras_layers_are_modules_and_track_plain_modules_inside():
    class Block(ek.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.inner = Dense(2, 2)
            self.frozen = Dense(2, 2)
            self.frozen.trainable = False

        def call(self, x):
            return self.frozen(self.inner(x))

    block = Block()
    assert isinstance(block, ek.Module) and isinstance(ek.keras.layers.Dense(1), ek.Module)
    assert block(ek.ones([1, 2])).shape == (1, 2)
    assert len(block.variables) == 4 and len(block.trainable_variables) == 2
    assert block.submodules == (block.frozen, block.inner)


def test_modules_train_with_an_optimizer_and_checkpoint(tmp_path):
    model = TwoDense()
    x, y = ek.constant([[1.0, 0.5, 0.25]]), ek.constant([[1.0, 2.0]])
    optimizer = ek.keras.optimizers.SGD(learning_rate=0.01)
    losses = []
    for _ in range(5):
        with ek.GradientTape() as tape:
            loss = ek.reduce_mean(ek.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
        losses.append(float(loss))
    assert losses == sorted(losses, reverse=True) and losses[-1] < losses[0]
    path = ek.train.Checkpoint(model=model).save(str(tmp_path / "ckpt"))
    fresh = TwoDense()
    ek.train.Checkpoint(model=fresh).restore(path)
    assert fresh.dense_1.w.numpy().tolist() == model.dense_1.w.numpy().tolist()


def test_unconnected_gradients_enum():
    assert ek.UnconnectedGradients.ZERO == "zero" and str(ek.UnconnectedGradients.NONE) == "none"
    assert repr(ek.UnconnectedGradients.ZERO) == "ek.UnconnectedGradients.ZERO"
    x, y = ek.constant([1.0, 2.0]), ek.constant(3.0)
    with ek.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = ek.reduce_sum(x * x)
    assert tape.gradient(z, y, unconnected_gradients=ek.UnconnectedGradients.NONE) is None
    zero = tape.gradient(z, [x, y], unconnected_gradients=ek.UnconnectedGradients.ZERO)
    assert [g.numpy().tolist() for g in zero] == [[2.0, 4.0], 0.0]
    assert pickle.loads(pickle.dumps(ek.UnconnectedGradients.ZERO)) is ek.UnconnectedGradients.ZERO
