"""Tensor recorder: an SDK bot that plays a seeded random legal action (seed from
``CROUPIER_SEED``) and appends, at every decision, the bytes of ``decision.tensor()``,
``decision.tensor("info")`` and ``decision.action_mask()`` to the file given as its one
argument (each as a 4-byte big-endian length followed by the bytes).
"""

from __future__ import annotations

import os
import random
import sys

from croupier_bot import Bot, Decision, run


class TensorRecorder(Bot):
    name = "tensor-recorder"
    version = "1"

    def __init__(self, path: str, seed: int) -> None:
        self.out = open(path, "ab")  # noqa: SIM115  (open for the bot's whole life)
        self.rng = random.Random(seed)

    def act(self, decision: Decision) -> int:
        for array in (decision.tensor(), decision.tensor("info"), decision.action_mask()):
            data = array.tobytes()
            self.out.write(len(data).to_bytes(4, "big") + data)
        self.out.flush()
        return int(self.rng.choice(decision.legal_ids))


if __name__ == "__main__":
    run(TensorRecorder(sys.argv[1], int(os.environ.get("CROUPIER_SEED", "0"))))
