"""The shape of the code, read from its imports (issue 21): no circle between modules, no import
that runs up the layers, no import of another package's private module, no module too large.

Run it alone as ``bash tests/run tests/test_structure.py``; ``python tests/test_structure.py``
prints the package graph and every module's size instead.
"""

from __future__ import annotations

import ast
import collections
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: The packages of ``croupier``, lowest first: a package may import only those before it. A
#: top-level private module (``croupier._defaults``) is the root's, shared by every package.
LAYERS = (
    "croupier.errors",
    "croupier._defaults",
    "croupier._lazy",
    "croupier._logging",
    "croupier._owned_dirs",
    "croupier.v1",
    "croupier.games",
    "croupier.arbiter",
    "croupier.env",
    "croupier.transport",
    "croupier.replay",
    "croupier.runner",
    "croupier.compliance",
    "croupier.ladder",
    "croupier.serve",
    "croupier.cli",
    "croupier.__main__",
)

#: Where Python modules live, each folder the root of its import names.
SOURCES = (ROOT / "server", ROOT / "clients" / "python", ROOT / "bots", ROOT / "bench")

#: The largest a module may be; a game's rules (one reading of one rule book) may be longer.
MAX_LINES = 800


def _modules() -> dict[str, pathlib.Path]:
    found: dict[str, pathlib.Path] = {}
    for source in (ROOT / "server", ROOT / "clients" / "python"):
        for path in sorted(source.rglob("*.py")):
            parts = list(path.relative_to(source).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: pathlib.Path) -> set[str]:
    """The modules of this tree that ``name`` imports, wherever the import stands (a function's
    body and ``TYPE_CHECKING`` too: a circle hidden in a function is still a circle)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                stem = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*stem, base] if base else stem)
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                for alias in node.names
            ]
        else:
            continue
        out.update(t for t in targets if t in MODULES and t != name)
    return out


EDGES = {name: _imports(name, path) for name, path in MODULES.items()}


def _layer(name: str) -> str | None:
    return next((p for p in LAYERS if name == p or name.startswith(p + ".")), None)


def _circles() -> list[list[str]]:
    """The strongly connected parts of the module graph with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(EDGES[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(MODULES)))
    try:
        for v in sorted(MODULES):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return circles


def test_no_module_imports_itself_back_through_others() -> None:
    assert _circles() == []


def test_every_croupier_module_belongs_to_a_layer() -> None:
    unplaced = [m for m in MODULES if m.startswith("croupier.") and _layer(m) is None]
    assert unplaced == []


def test_no_import_runs_up_the_layers() -> None:
    upward = []
    for a, targets in EDGES.items():
        la = _layer(a)
        for b in targets:
            lb = _layer(b)
            if la and lb and la != lb and LAYERS.index(lb) > LAYERS.index(la):
                upward.append(f"{a} -> {b}")
    assert sorted(upward) == []


def _private_owner(module: str) -> str | None:
    """The package whose private module ``module`` is (``croupier.ladder`` for
    ``croupier.ladder._store``), or None for a public module or one of the root's."""
    owner, _, last = module.rpartition(".")
    if not last.startswith("_") or last.startswith("__") or owner in ("", "croupier"):
        return None
    return owner


def test_no_package_imports_another_packages_private_module() -> None:
    reaching = []
    for a, targets in EDGES.items():
        for b in targets:
            owner = _private_owner(b)
            if owner and a != owner and not a.startswith(owner + "."):
                reaching.append(f"{a} -> {b}")
    assert sorted(reaching) == []


def _sizes() -> dict[pathlib.Path, int]:
    sizes = {}
    for source in SOURCES:
        for path in source.rglob("*.py"):
            if path.name.endswith(("_pb2.py", "_pb2_grpc.py")) or "node_modules" in path.parts:
                continue
            sizes[path] = len(path.read_text().splitlines())
    return sizes


SIZES = _sizes()


@pytest.mark.parametrize("path", sorted(SIZES), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_outside_the_rules_is_too_large(path: pathlib.Path) -> None:
    if path.name == "rules.py" and "games" in path.parts:
        pytest.skip("a game's rules may be longer")
    assert SIZES[path] <= MAX_LINES


if __name__ == "__main__":
    packages: dict[str, set[str]] = collections.defaultdict(set)
    for a, targets in EDGES.items():
        for b in targets:
            la, lb = _layer(a), _layer(b)
            if la and lb and la != lb:
                packages[la].add(lb)
    for layer in LAYERS:
        print(f"{layer} -> {', '.join(sorted(packages[layer])) or '-'}")
    print(f"circles: {len(_circles())}")
    for path, lines in sorted(SIZES.items(), key=lambda kv: -kv[1])[:10]:
        print(f"{lines:6d}  {path.relative_to(ROOT)}")
