"""The chips module's legal-action lists equal their definitions (chips.md: every multiple of A
up to the cap). They are built from ranges for speed; this pins them to the plain reading, with
the highest level worked out from the table's stacks and commitments, not by the module."""

from __future__ import annotations

from typing import NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.games import chips


class Case(NamedTuple):
    table: chips.Table
    #: The highest level a bet sequence may reach in this round (chips.md, "The cap").
    top: int
    #: The opening bet's amount, when one was made.
    level: int | None


def multiples(a: int, top: int) -> list[int]:
    """Every positive multiple of ``a`` no larger than ``top``, ascending."""
    return [a * k for k in range(1, top // a + 1)]


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A table in some round, possibly with an open bet sequence, and its highest level."""
    n = draw(st.integers(2, 4))
    stacks = tuple(draw(st.lists(st.integers(1, 60), min_size=n, max_size=n)))
    amphora = draw(st.integers(1, 7))
    table = chips.start_round(chips.new_table(n, 0)._replace(stacks=stacks), 0, amphora)
    # cap: the smallest stack of the round's players (everyone is seated) before the amphora;
    # a level may reach the cap minus the largest commitment of a live player before the
    # sequence (at the round's start everyone is live, and only the amphora is committed)
    top = min(stacks) - max(table.committed)
    amounts = multiples(amphora, top)
    if amounts and draw(st.booleans()):
        level = draw(st.sampled_from(amounts))
        return Case(chips.open_bet(table, 1, level), top, level)
    return Case(table, top, None)


@settings(max_examples=300, deadline=None)
@given(cases())
def test_bet_and_answer_lists_are_every_multiple_of_a_within_the_cap(case: Case) -> None:
    table, top, level = case
    a = table.amphora
    if level is None:
        assert chips.bet_amounts(table) == tuple(multiples(a, top))
        assert chips.bet_actions(table) == tuple(chips.BET + x for x in multiples(a, top))
        assert chips.answer_actions(table) == ()
        return
    assert chips.bet_amounts(table) == ()
    assert chips.bet_actions(table) == ()
    raises = tuple(chips.RAISE + y for y in multiples(a, top - level))
    assert chips.answer_actions(table) == (chips.IN, chips.OUT, *raises)
