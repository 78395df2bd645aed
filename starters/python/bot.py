"""A Croupier bot in Python (the croupier_bot SDK): plays a random legal action in any of the four
games, picking bet and raise amounts by arithmetic on the ranges the wire carries (it never lists
a run of bets one by one). Seeded from the match's seed, so a match with --seed replays the same.
Change `act` to make it play better; `python bot.py` needs CROUPIER_ADDRESS and CROUPIER_TOKEN,
which `croupier match` and `croupier check-bot` give it."""

import random

from croupier_bot import Decision, LegalActions, run

NAME, VERSION = "starter-python", "1.0"
rngs: dict[str, random.Random] = {}


def act(decision: Decision) -> int:
    match = decision.match
    rng = rngs.setdefault(match.match_id, random.Random(match.seed))
    runs = decision.legal_runs  # one range of ids per entry of the wire, ascending
    k = rng.randrange(len(runs))
    actions = decision.legal_actions  # (a LegalActions when launched: ranges kept as ranges)
    entries = actions.entries if isinstance(actions, LegalActions) else actions
    entry = entries[k]  # the wire's entry behind runs[k]
    if not entry.HasField("amounts"):
        return runs[k][0]  # a single action (fold, call, a card...)
    # a run of bets or raises: pick an amount among its smallest 20, then its id
    amounts = entry.amounts
    amount = amounts.lowest + amounts.step * rng.randrange(min(len(runs[k]), 20))
    action_id = decision.id_for_amount(amount)
    if action_id is None or not decision.is_legal(action_id):
        raise RuntimeError(f"no legal id for amount {amount}")
    return action_id


if __name__ == "__main__":
    run(act, name=NAME, version=VERSION)
