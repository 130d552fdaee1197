"""The exercise checks' framework: what counts as not answered, fresh inputs with a seed,
tolerance where the prompt is silent, gradients under random upstream gradients, observed
mechanisms, order independence and pointing that blames only an op that is wrong.

(Every exercise against its corpus of right and wrong answers: tests/test_exercise_corpus.py.)
"""

import pathlib
import re

import pytest
from eagerkit.widgets import TapeView
from eagerkit.widgets.exercises import ValueExercise, all_exercises, exercise

import eagerkit as ek
from eagerkit.registry import defop

EXERCISES = pathlib.Path(__file__).resolve().parents[1] / "widgets" / "exercises"


def softsign(x):
    return x / (1.0 + ek.abs(x))


# --- not answered: the template's placeholder object, never a comment -------------------------
def test_the_placeholder_and_the_template_function_are_not_answered():
    assert exercise("1.1").check(...).status == "unanswered"
    assert exercise("2.1").check(...).status == "unanswered"

    def softsign(x): ...  # your code here

    result = exercise("1.3").check(softsign)
    assert result.status == "unanswered" and "replace the ..." in repr(result)


def test_the_template_comment_left_on_an_edited_line_changes_nothing():
    def softsign(x):
        return x / (1.0 + ek.abs(x))  # your code here

    assert exercise("1.3").check(softsign).status == "right"


def test_a_decorated_template_and_a_defop_template_are_recognised_by_their_code():
    @ek.custom_gradient
    def sigmoid(x):
        s = 1.0 / (1.0 + ek.exp(-x))

        def grad(dy): ...  # your code here

        return s, grad

    assert exercise("4.1").check(sigmoid).status == "unanswered"

    @defop("my_sqrt")
    def my_sqrt(xp, x):
        return xp.sqrt(x)

    my_sqrt.defvjp(lambda ops, g, ans, x: ...)  # your code here
    assert exercise("12.1").check(my_sqrt).status == "unanswered"
    my_sqrt.defvjp(lambda ops, g, ans, x: g / (2.0 * ans))
    assert exercise("12.1").check(my_sqrt).status == "right"


def test_a_function_that_returns_none_is_wrong_and_says_so():
    def softsign(x):
        x / (1.0 + ek.abs(x))  # no return

    result = exercise("1.3").check(softsign, seed=3)
    assert result.status == "wrong" and "returned None: is a return missing" in result.lines[0]


def test_no_check_reads_source_text():
    forbidden = re.compile(
        r"getsource|getsourcelines|co_code|linecache|__doc__|your code here|\.co_filename"
    )
    for path in EXERCISES.glob("*.py"):
        if path.name == "student.py":  # writes the student copies, never reads an answer
            continue
        text = path.read_text()
        assert not forbidden.search(text), f"{path.name}: {forbidden.search(text).group()}"


# --- inputs drawn fresh, the seed shown -------------------------------------------------------
def test_inputs_are_fresh_each_run_and_the_seed_in_the_message_repeats_them():
    def wrong(x):
        return x / (1.0 + x * x)

    first, second = exercise("1.3").check(wrong), exercise("1.3").check(wrong)
    seeds = [int(re.search(r"seed=(\d+)", repr(r)).group(1)) for r in (first, second)]
    assert seeds[0] != seeds[1] or first.lines == second.lines  # (one chance in a million)
    again = exercise("1.3").check(wrong, seed=seeds[0])
    assert again.lines == first.lines


def test_the_edge_case_the_prompt_names_is_always_among_the_inputs():
    # ek.sign is -1 below 0 and +1 above, but 0 at 0, where the prompt asks for -1.
    graph_sign = ek.function(lambda x: ek.sign(x))
    for seed in range(5):
        assert exercise("10.2").check(graph_sign, seed=seed).status == "wrong"


# --- tolerant where the prompt is silent, strict where it speaks ------------------------------
def test_a_float64_result_or_a_kept_axis_is_wrong_even_where_the_prompt_is_silent():
    # A float64 result breaks the next float32 op; a (1,) loss broadcasts silently later.
    float64 = exercise("1.3").check(
        lambda x: ek.cast(softsign(ek.cast(x, ek.float64)), ek.float64), seed=2
    )
    assert float64.status == "wrong" and "ek.cast(..., ek.float32)" in repr(float64)
    cast_back = exercise("1.3").check(
        lambda x: ek.cast(softsign(ek.cast(x, ek.float64)), ek.float32), seed=2
    )
    assert cast_back.status == "right", repr(cast_back)
    keepdims = exercise("5.1").check(
        lambda p, t: ek.reduce_mean(ek.abs(p - t), keepdims=True), seed=2
    )
    assert keepdims.status == "wrong" and "a scalar (shape ()) is expected" in repr(keepdims)
    assert keepdims.op is None  # the shape alone is wrong: no op is blamed


def test_a_numpy_result_is_still_an_answer_where_the_prompt_is_silent():
    import numpy  # (not np: a test below needs np undefined in this module)

    def numpy_momentum(weight, velocity, grad):
        v = 0.9 * numpy.asarray(velocity) + numpy.asarray(grad)
        return numpy.asarray(weight) - 0.1 * v, v

    assert exercise("6.1").check(numpy_momentum, seed=3).status == "right"


def test_what_the_prompt_states_is_enforced_and_quoted():
    result = exercise("1.1").check(ek.constant([[0, 1, 2], [3, 4, 5]]))
    assert result.lines == [
        'your answer has dtype int32 but float32 is expected (the exercise says: "the same '
        'tensor in float32")'
    ]
    squeezed = exercise("13.1").check(
        lambda i, w: ek.squeeze(ek.matmul(i, w, transpose_b=True)), seed=1
    )
    assert squeezed.status == "wrong" and "shape [examples, classes]" in repr(squeezed)


def test_derivatives_are_not_compared_where_they_do_not_exist():
    def piecewise(x):  # right, but its second derivative at the kink 0 is one-sided
        return x / (1.0 + ek.maximum(x, -x))

    assert exercise("1.3").check(piecewise, seed=4).status == "right"


# --- gradients as gradients -------------------------------------------------------------------
def test_a_vjp_that_ignores_its_incoming_gradient_is_named_as_such():
    @ek.custom_gradient
    def sigmoid(x):
        s = 1.0 / (1.0 + ek.exp(-x))
        return s, lambda dy: s * (1.0 - s)

    result = exercise("4.1").check(sigmoid, seed=5)
    assert result.status == "wrong" and result.op == "sigmoid"
    assert "ignores its incoming gradient `dy`" in repr(result)
    assert "numpy" not in repr(result)


def test_a_vjp_the_tape_cannot_differentiate_fails_at_second_order():
    @defop("my_tanh")
    def my_tanh(xp, x):
        return xp.tanh(x)

    my_tanh.defvjp(lambda ops, g, ans, x: g * ek.constant(1.0 - ek.tanh(x).numpy() ** 2))
    result = exercise("12.3").check(my_tanh, seed=6)
    assert result.status == "wrong" and result.lines[0].startswith("the order-2 derivative")
    assert "cannot differentiate my_tanh's VJP again" in result.lines[1]


# --- the mechanism observed -------------------------------------------------------------------
def test_right_numbers_without_the_sections_mechanism_are_wrong_and_say_what_is_missing():
    hand = exercise("3.3").check(lambda x: 12.0 * x * x)
    assert hand.status == "wrong" and "two tapes, one inside the other" in repr(hand)

    def on_the_cpu(x):
        return ek.reduce_sum(x * x)

    cpu = exercise("9.2").check(on_the_cpu)
    assert cpu.status == "wrong" and "no op of yours ran on the lesson's GPU, /gpu:0" in repr(cpu)


def _nested(x, *, jacobian):
    with ek.GradientTape() as outer:
        outer.watch(x)
        with ek.GradientTape() as inner:
            inner.watch(x)
            y = x**4 + x
        dy_dx = inner.gradient(y, x)
    if not jacobian:
        return outer.gradient(dy_dx, x)
    full = outer.jacobian(dy_dx, x)
    return ek.linalg.diag_part(full) if len(x.shape) == 1 else full


def test_a_jacobian_is_a_gradient_call_and_values_are_judged_before_the_mechanism():
    # the outer tape's jacobian() uses it as gradient() does: the elementwise answer is right
    diagonal = exercise("3.3").check(lambda x: _nested(x, jacobian=True))
    assert diagonal.status == "right", repr(diagonal)

    # the full Jacobian is right on a scalar x only: its shape is named, not the tapes
    def full_jacobian(x):
        with ek.GradientTape() as outer:
            outer.watch(x)
            with ek.GradientTape() as inner:
                inner.watch(x)
                y = x**4 + x
            dy_dx = inner.gradient(y, x)
        return outer.jacobian(dy_dx, x)

    result = exercise("3.3").check(full_jacobian, seed=3)
    full = repr(result)
    assert "has shape (3, 3) but shape (3,) is expected" in full and "a full Jacobian" in full
    assert "the values are right" not in full
    # a substitution whose run took another path (its op has another shape) blames no op,
    # and a wrong shape is the whole message then (not "no single op ... is to blame")
    assert result.op is None and "no single op" not in full
    assert exercise("3.3").check(lambda x: _nested(x, jacobian=False)).status == "right"


def test_a_factor_on_a_one_number_result_is_seen_across_the_inputs():
    halved = exercise("5.1").check(lambda p, t: ek.reduce_mean(ek.abs(p - t)) / 2)
    assert halved.status == "wrong" and "a constant factor is missing or extra" in repr(halved)
    shifted = exercise("5.1").check(lambda p, t: ek.reduce_mean(ek.abs(p - t)) + 1)
    assert shifted.status == "wrong" and "factor" not in repr(shifted)


def test_a_name_of_another_library_is_told_apart_from_a_typo():
    def numpy_logistic(x):
        return 1 / (1 + np.exp(-x))  # noqa: F821 - np is what the lesson does not import

    told = repr(exercise("2.2").check(numpy_logistic))
    assert "NameError" in told and "np (numpy) is not imported here" in told
    typo = repr(exercise("2.2").check(lambda x: 1 / (1 + ek.exp(-y))))  # noqa: F821
    assert "NameError" in typo and "not imported" not in typo


# --- independent of cell order ----------------------------------------------------------------
def test_a_check_builds_its_own_state_whatever_ran_before():
    def sum_of_squares_on_gpu(x):
        on_gpu = ek.copy_to_device(x, "/gpu:0")
        return ek.copy_to_device(ek.reduce_sum(on_gpu * on_gpu), "/cpu:0")

    ek.devices.disable_simulated_gpu()  # a later cell of lesson 09 may do this
    before = ek.devices.all_device_names()
    ek.debugging.enable_check_numerics()
    try:
        assert exercise("9.2").check(sum_of_squares_on_gpu).status == "right"
        assert exercise("13.2").check(
            lambda x: ek.where(x > 0, ek.sqrt(ek.where(x > 0, x, 1.0)), 0.0)
        )
    finally:
        ek.debugging.disable_check_numerics()
    assert ek.devices.all_device_names() == before  # and it put the state back


def test_the_lessons_gpu_is_gpu_0_whatever_stands_in_for_it():
    def on_the_gpu(x):
        return ek.reduce_sum(x.gpu() ** 2).cpu()

    def on_sim_beside_the_stand_in(x):  # /sim:0 is /gpu:0's stand-in here, never beside it
        return ek.reduce_sum(ek.copy_to_device(x, "/sim:0") ** 2).cpu()

    ek.devices.enable_simulated_gpu()  # lesson 09's /sim:0 cell ran, without as_gpu
    sim = ek.devices.get_device("/sim:0")
    try:
        assert exercise("9.2").check(on_the_gpu).status == "right"
        if ek.num_gpus() == 0:
            assert exercise("9.2").check(on_sim_beside_the_stand_in).status == "right"
        assert ek.devices.get_device("/sim:0") is sim  # the same device, the lesson's tensors
        assert "/gpu:0" not in ek.devices.all_device_names() or ek.num_gpus() > 0
    finally:
        ek.devices.reset_devices()


# --- pointing ---------------------------------------------------------------------------------
def test_a_right_step_spelled_differently_is_never_blamed():
    def half_huber(
        t, m=1.0
    ):  # t**2 is right (the reference writes t * t); the linear branch is not
        return ek.where(ek.abs(t) <= m, 0.5 * t**2, m * (ek.abs(t) - m))

    result = exercise("5.2").check(half_huber, seed=7)
    assert result.status == "wrong" and result.op == "subtract", repr(result)
    assert isinstance(result.view, TapeView)
    assert result.view.graph["highlight"]["record"] == result.record


def test_a_nan_is_blamed_on_the_op_that_makes_it():
    result = exercise("13.2").check(lambda x: ek.where(x > 0, ek.sqrt(ek.abs(x)), 0.0), seed=8)
    assert result.status == "wrong" and result.op == "sqrt", repr(result)


def test_when_no_single_op_is_to_blame_none_is_named():
    result = exercise("7.2").check(
        lambda logits, labels: ek.reduce_mean(
            ek.cast(ek.equal(ek.cast(ek.argmin(logits, axis=1), ek.int32), labels), ek.float32)
        ),
        seed=9,
    )
    assert result.status == "wrong" and result.op is None


# --- hints ------------------------------------------------------------------------------------
def test_hints_come_one_at_a_time_and_stop_at_the_last():
    ex = ValueExercise("99.1", "A test", expected=lambda: 1.0, hints=["first", "second"])
    assert repr(ex.hint()) == "Hint 1 of 2 for exercise 99.1: first"
    assert repr(ex.hint()) == "Hint 2 of 2 for exercise 99.1 (the last one): second"
    assert repr(ex.hint()) == "Hint 2 of 2 for exercise 99.1 (the last one): second"


def test_every_lesson_has_two_to_four_exercises_and_unknown_ones_say_what_exists():
    lessons = {}
    for ex in all_exercises():
        lessons.setdefault(ex.key.split(".")[0], []).append(ex.key)
    assert len(lessons) == 15 and all(2 <= len(keys) <= 4 for keys in lessons.values())
    with pytest.raises(KeyError, match="lesson 1 has 1.1, 1.2, 1.3"):
        exercise("1.9")
    with pytest.raises(KeyError, match="lesson 98 has no exercises"):
        exercise("98.1")


# --- hints never hold the solution ------------------------------------------------------------
def _normal(text):
    """Code or prose with spelling differences taken out: spaces, ek./tf./np. prefixes, 1.0
    written 1, unicode minus and powers."""
    text = text.replace("−", "-").replace("²", "**2").replace("×", "*").replace("·", "*")
    text = re.sub(r"\b(ek|tf|np|ops|xp)\.", "", text)
    text = re.sub(r"(\d)\.0\b", r"\1", text)
    return re.sub(r"\s+", "", text).lower()


def _solution_parts(source):
    """Each line between the solution markers, and each compound expression in them."""
    import ast

    inside, lines = False, []
    for line in source.split("\n"):
        if "### BEGIN SOLUTION" in line or "### END SOLUTION" in line:
            inside = "BEGIN" in line
        elif inside and line.strip() and not line.strip().startswith("#"):
            lines.append(line.split("  #")[0].strip())
    parts = set(lines)
    try:
        tree = ast.parse("\n".join(line.lstrip() for line in lines if not line.endswith(":")))
    except SyntaxError:
        return parts
    for node in ast.walk(tree):
        if isinstance(node, (ast.BinOp, ast.Call)) and sum(1 for _ in ast.walk(node)) >= 4:
            parts.add(ast.unparse(node))
    return parts


def test_no_hint_holds_a_line_of_the_solution_or_its_formula():
    import json

    notebooks = sorted((EXERCISES.parents[1] / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    for path in notebooks:
        cells = json.loads(path.read_text())["cells"]
        for index, cell in enumerate(cells):
            source = "".join(cell["source"])
            if not source.startswith('exercise("'):
                continue
            key = source.split('"')[1]
            solution = next(
                "".join(c["source"])
                for c in reversed(cells[:index])
                if "solution" in c["metadata"].get("tags", [])
            )
            shown = _normal(  # what the lesson shows elsewhere gives nothing away
                "\n".join(
                    "".join(c["source"])
                    for c in cells
                    if "solution" not in c["metadata"].get("tags", [])
                )
            )
            hints = [_normal(hint) for hint in exercise(key).hints]
            for part in _solution_parts(solution):
                if len(_normal(part)) >= 6 and _normal(part) not in shown:
                    assert not any(_normal(part) in hint for hint in hints), (key, part)
