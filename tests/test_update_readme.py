"""scripts/update_readme.py: the example kinds (plain, trimmed, varies, manual), on a fake command runner."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import update_readme  # noqa: E402

OUTPUTS = {"cardsim a": "line 1\nline 2\nline 3", "cardsim b": "took 1.5 s, hash 0123456789abcdef"}


@pytest.fixture(autouse=True)
def fake_run(monkeypatch):
    monkeypatch.setattr(update_readme, "run", lambda command: OUTPUTS[command.split("  #")[0]])


def example(kind: str, command: str, body: str) -> str:
    marker = "example" if not kind else f"example ({kind})"
    return f"<!-- {marker}: {command} -->\n```\n$ {command}\n{body}\n```"


def test_plain_example_is_replaced_by_the_output():
    text = "intro\n" + example("", "cardsim a", "old") + "\nafter"
    new, stale = update_readme.refresh(text)
    assert new == "intro\n" + example("", "cardsim a", OUTPUTS["cardsim a"]) + "\nafter" and stale == []


@pytest.mark.parametrize("body, matches", [("line 1\n...\nline 3", True), ("...\nline 2", True),
                                           ("line 3\n...\nline 1", False), ("line 4", False),
                                           ("lin ...\nline 3", True), ("line 4 ...", False)])
def test_trimmed_example_is_kept_and_checked_in_order(body, matches):
    text = example("trimmed", "cardsim a", body)
    new, stale = update_readme.refresh(text)
    assert new == text and stale == ([] if matches else ["cardsim a"])


def test_varies_example_compares_with_numbers_and_hashes_masked():
    text = example("varies", "cardsim b", "took 0.7 s, hash fedcba9876543210")
    assert update_readme.refresh(text, check=True)[0] == text
    assert update_readme.refresh(text)[0] == example("varies", "cardsim b", OUTPUTS["cardsim b"])
    assert update_readme.refresh(example("varies", "cardsim b", "took  10.75 s, hash fedcba9876543210"),
                                 check=True)[0].count("10.75") == 1  # a wider number moves the columns
    changed = example("varies", "cardsim b", "took 0.7 min, hash fedcba9876543210")
    assert update_readme.refresh(changed, check=True)[0] != changed


def test_manual_example_and_examples_not_asked_for_are_never_run():
    text = example("manual", "cardsim x", "recorded") + "\n" + example("", "cardsim y", "kept")
    assert update_readme.refresh(text, only=["cardsim a"]) == (text, [])
