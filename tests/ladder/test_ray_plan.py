"""The Ray executor's plan, without a cluster: how ``--concurrency`` is shared among the nodes
and how big each node's batch is."""

from __future__ import annotations

from typing import Any

from croupier.ladder._ray import MAX_BATCH, MIN_BATCH, batch_size_for, shares


def _node(name: str, cpus: float, alive: bool = True) -> dict[str, Any]:
    return {"NodeID": name, "Alive": alive, "Resources": {"CPU": cpus}}


def test_concurrency_is_shared_by_cpus_and_sums_to_it() -> None:
    nodes = [_node("head", 1), _node("big", 2)]
    assert shares(nodes, 3) == {"head": 1, "big": 2}
    plan = shares([_node("a", 2), _node("b", 4), _node("c", 2)], 10)
    assert sum(plan.values()) == 10
    assert plan["b"] > plan["a"] >= 1


def test_dead_nodes_and_nodes_without_cpus_get_nothing() -> None:
    nodes = [_node("dead", 8, alive=False), _node("gpu-only", 0), _node("ok", 2)]
    assert shares(nodes, 4) == {"ok": 4}
    assert shares([_node("dead", 8, alive=False)], 4) == {}


def test_fewer_matches_at_once_than_nodes_uses_the_biggest() -> None:
    assert shares([_node("a", 1), _node("b", 8), _node("c", 2)], 2) == {"b": 1, "c": 1}


def test_a_batch_is_the_node_s_share_of_what_is_left_within_bounds() -> None:
    assert batch_size_for(16, 1, 3) == 6
    assert batch_size_for(10, 2, 3) == 7
    assert batch_size_for(1000, 1, 2) == MAX_BATCH
    assert batch_size_for(20, 1, 10) == MIN_BATCH
    assert batch_size_for(2, 1, 10) == 2  # what is left
