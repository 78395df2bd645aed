"""The chips module's legal-action lists equal their definitions (chips.md: every multiple of A
up to the cap). They are built from ranges for speed; this pins them to the plain reading."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.games import _chips as chips


@st.composite
def tables(draw: st.DrawFn) -> chips.Table:
    """A table in some round, possibly with an open bet sequence."""
    n = draw(st.integers(2, 4))
    stacks = tuple(draw(st.lists(st.integers(1, 60), min_size=n, max_size=n)))
    amphora = draw(st.integers(1, 7))
    table = chips.start_round(chips.new_table(n, 0)._replace(stacks=stacks), 0, amphora)
    amounts = chips.bet_amounts(table)
    if amounts and draw(st.booleans()):
        table = chips.open_bet(table, 1, draw(st.sampled_from(amounts)))
    return table


@settings(max_examples=300, deadline=None)
@given(tables())
def test_bet_and_answer_lists_are_every_multiple_of_a_within_the_cap(table: chips.Table) -> None:
    assert chips.bet_actions(table) == tuple(chips.BET + x for x in chips.bet_amounts(table))
    bet = table.bet
    if bet is None:
        assert chips.answer_actions(table) == ()
        return
    a = table.amphora
    raises = tuple(chips.RAISE + y for y in range(a, bet.max_level - bet.level + 1, a))
    assert chips.answer_actions(table) == (chips.IN, chips.OUT, *raises)
    assert chips.bet_actions(table) == ()
