"""Every exercise against its corpus of answers: right ones right, wrong ones wrong, and each
wrong one told what its mistake is.

The answers (tests/exercise_corpus/lessonNN.json) were written by teaching assistants who saw
only the student copies (``author`` TA A, TA B; TA C for the exercises added since, beside
the first answers their checks' author wrote, ``author`` checks; TA D for the answers that
showed a check wrong in session 7). Each entry is run where its
lesson gives it (tests/exercise_lessons.py: the lesson's cells above it, then the answer's
cells, then the lesson's own check cell), with a fixed seed so the run repeats. An entry's
``should_not_mention`` lists advice its message must not give (advice meant for another
mistake).
"""

import functools
import json
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest
from exercise_lessons import run_answers

from eagerkit.backends.cupy_backend import gpu_status
from eagerkit.devices import SIMULATED_GPU_VARIABLE

CORPUS = pathlib.Path(__file__).resolve().parent / "exercise_corpus"
LESSONS = sorted(int(p.stem[-2:]) for p in CORPUS.glob("lesson[0-9][0-9].json"))
# Right answers the engine itself fails today (not the check): BOARD.md names the bug.
ENGINE_BUGS = {}  # none now: 10.1's ones_like/zeros_like answers pass since ek/graph's fix


# Wrong answers whose message does not yet name the mistake in the TA's words (it says what
# differs, not why): listed so the list can only shrink.
MENTION_GAPS = {}  # none now: 14.2's check names why the cell before it stopped part way


def corpus(number):
    return json.loads((CORPUS / f"lesson{number:02d}.json").read_text())


@functools.cache
def real_gpu():
    from eagerkit.backends.cupy_backend import gpu_status

    return gpu_status()[0] > 0


def expected_verdict(entry):
    """The entry's verdict on this machine: an answer on ``/sim:0`` is right where no GPU
    exists, since there the lesson's ``/gpu:0`` IS the simulated GPU (``verdict_without_a_gpu``)."""
    if real_gpu():
        return entry["verdict"]
    return entry.get("verdict_without_a_gpu", entry["verdict"])


@functools.cache
def verdicts(number):
    return run_answers(number, corpus(number))


def mentions(text, terms):
    """Whether ``text`` names one of ``terms``, tolerantly: case and punctuation aside, each
    word of a term found as the start of a word of the text (``copy back`` matches "copied
    back" through "cop"... "back"; ``NaN`` matches "nan")."""
    words = re.findall(r"[a-z0-9_/:.\[\]-]+", text.lower())
    for term in terms:
        if term.lower() in text.lower():
            return True
        parts = re.findall(r"[a-z0-9_/:.\[\]-]+", term.lower())
        if parts and all(any(w.startswith(_stem(p)) for w in words) for p in parts):
            return True
    return False


def _stem(word):
    return word if len(word) <= 3 else word[: max(3, len(word) - 3)]


@functools.cache
def asked(key):
    """The values exercise ``key`` asks for with the corpus's seed, as messages write numbers
    (small whole numbers aside: counts and indices are words, not answers)."""
    from eagerkit.widgets.exercises import exercise
    from eagerkit.widgets.exercises.text import number

    values = exercise(key).answer_values(seed=1)
    flat = []
    for value in values if isinstance(values, (list, tuple)) else [values]:
        leaves = value if isinstance(value, (list, tuple)) else [value]
        for leaf in leaves:
            array = np.asarray(leaf.numpy() if hasattr(leaf, "numpy") else leaf, dtype=float)
            flat += array.reshape(-1).tolist()
    return frozenset(number(v) for v in flat if not (float(v).is_integer() and abs(v) <= 10))


def leaked(text, values):
    """Numbers of ``text`` that are values asked for, once what the message may show is
    taken out: the inputs (``with x = [...]``), the student's own values (``it is 0.5``,
    ``is 2.0``), the seed, element indices and shapes."""
    text = re.sub(r" with .*?(?= differs| is | has | returned| \(times|$)", " ", text, flags=re.M)
    text = re.sub(r"\b(it is|is|from a =|b =) -?[0-9.e+-]+", " ", text)
    text = re.sub(r"seed[= ]\d+|\[[0-9, ]*\]|\([0-9, ]*\)", " ", text)
    numbers = re.findall(r"-?\d+\.\d+(?:e[+-]?\d+)?|-?\d+", text)
    return sorted(set(numbers) & values)


def said_wrongly(entry, text):
    """The entry's ``should_not_mention`` words (advice that does not fit its mistake) that
    ``text`` says, matched exactly: a tolerant match would find them everywhere."""
    return [
        f"{entry['id']}: says {term!r}, which does not fit its mistake: {text}"
        for term in entry.get("should_not_mention", [])
        if term.lower() in text.lower()
    ]


def agrees(entry, outcome):
    """The check's verdict against the entry's: a wrong answer may also be "not answered yet"
    when it is the placeholder, or when its own cell raised before defining the answer."""
    status = outcome["status"]
    if expected_verdict(entry) == "right":
        return status == "right"
    if status == "unanswered":
        placeholder = "not answered" in (entry.get("should_mention") or [])
        return placeholder or bool(outcome.get("cell_error"))
    return status == "wrong"


@pytest.mark.parametrize("number", LESSONS, ids=lambda n: f"lesson{n:02d}")
def test_every_answer_gets_its_verdict_and_wrong_ones_their_reason(number):
    results = verdicts(number)
    failures = []
    for entry in corpus(number):
        outcome = results[entry["id"]]
        if entry["id"] in ENGINE_BUGS:
            assert not agrees(entry, outcome), f"{entry['id']} passes now: drop it from ENGINE_BUGS"
            continue
        if not agrees(entry, outcome):
            failures.append(f"{entry['id']}: {expected_verdict(entry)} but {outcome['text']}")
        elif outcome["status"] == "wrong":
            named = mentions(outcome["text"], entry["should_mention"])
            if named == (entry["id"] in MENTION_GAPS):  # a gap filled is news too
                says = "now names" if named else "names none of"
                failures.append(
                    f"{entry['id']}: {says} {entry['should_mention']}: {outcome['text']}"
                )
            failures += said_wrongly(entry, outcome["text"])
        if outcome["status"] == "wrong" and leaked(outcome["text"], asked(entry["exercise"])):
            failures.append(
                f"{entry['id']}: the message shows a value asked for: {outcome['text']}"
            )
    assert not failures, "\n\n".join(failures)


def test_every_exercise_has_right_and_wrong_answers_in_its_corpus():
    from eagerkit.widgets.exercises import all_exercises

    counts = {}
    for number in LESSONS:
        for entry in corpus(number):
            right, wrong = counts.setdefault(entry["exercise"], [0, 0])
            counts[entry["exercise"]] = [
                right + (entry["verdict"] == "right"),
                wrong + (entry["verdict"] == "wrong"),
            ]
    short = {k: v for k, v in counts.items() if min(v) < 6}
    assert not short, f"exercises with fewer than 6 right or 6 wrong answers: {short}"
    assert set(counts) == {ex.key for ex in all_exercises()}


def test_leaked_finds_a_value_asked_for_but_not_the_students_own():
    values = frozenset({"0.8858", "3.5"})
    assert leaked("w differs at element [0]: it is 0.75 there, too small", values) == []
    assert leaked("f(x) with x = [0.8858] is 1.0, which is too large", values) == []
    assert leaked("w should be 0.8858 at element [0]", values) == ["0.8858"]


def test_mentions_is_tolerant_but_not_blind():
    text = "the values are right, but the matrix product ran on /cpu:0: copy it to /sim:0"
    assert mentions(text, ["device", "/sim:0"]) and mentions(text, ["copied to"])
    assert mentions("the gradient is nan at element [0]", ["NaN"])
    assert not mentions(text, ["gradient", "transpose"])


def test_after_a_gpu_was_used_answers_run_in_fresh_processes_with_the_same_verdicts():
    """CUDA cannot be used in a child forked after its parent used it, so on a GPU machine
    the lesson's process starts fresh and each answer after the lesson used the GPU replays
    the lesson in a fresh process. Here the simulated GPU stands in (it then refuses forks
    as CUDA does), the parent has used it (as pytest's workers on a GPU machine have), and
    the verdicts match those of this process's own run (forked where no GPU is)."""
    sample = [entry for entry in corpus(9) if entry["id"].startswith(("9.1-wrong", "9.2-right"))]
    sample = [next(e for e in sample if e["exercise"] == key) for key in ("9.1", "9.2")]
    script = (
        "import json, sys; sys.path.insert(0, 'tests'); import eagerkit as ek; "
        "from exercise_lessons import run_answers; ek.ones([1]).gpu(); "  # the GPU used here
        "print(json.dumps(run_answers(9, json.loads(sys.stdin.read()))))"
    )
    environment = {**os.environ, SIMULATED_GPU_VARIABLE: "1"}
    result = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(sample),
        capture_output=True,
        text=True,
        env=environment,
        cwd=CORPUS.parents[1],
    )
    assert result.returncode == 0, result.stderr[-3000:]
    replayed, baseline = json.loads(result.stdout), run_answers(9, sample)
    # This process's own run forks, unless a real GPU is here: lesson 09 then uses it too.
    baseline_process = "replayed" if gpu_status()[0] else "forked"
    for entry in sample:
        assert replayed[entry["id"]]["process"] == "replayed"
        assert baseline[entry["id"]]["process"] == baseline_process
        assert agrees(entry, replayed[entry["id"]]), replayed[entry["id"]]["text"]
        for field in ("status", "text", "cell_error"):
            assert replayed[entry["id"]][field] == baseline[entry["id"]][field]
