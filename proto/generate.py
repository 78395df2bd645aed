"""Generate the Python code for the wire contract, or check that the committed code is fresh.

    python proto/generate.py           # rewrite proto/python/croupier_proto/v1/*_pb2*.py(i)
    python proto/generate.py --check   # exit 1 if the committed files differ from a fresh build

Every ``.proto`` of ``proto/croupier/v1`` is compiled together. protoc names the modules by the
files' paths (``croupier.v1.bot_pb2``) and writes absolute imports between them (``from
croupier.v1 import score_pb2``); the stubs package is ``croupier_proto.v1`` (its own top-level
name, so it never clashes with the server's ``croupier``), so those imports are rewritten to
relative ones (``from . import score_pb2``). Any other import of ``croupier.v1`` in the output is
an error, not silently left broken.

Uses grpcio-tools at the exact version pinned in pyproject.toml's dev group, so the output is
reproducible; CI runs ``--check``.
"""

from __future__ import annotations

import argparse
import filecmp
import re
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
PACKAGE = Path("croupier") / "v1"
# The stubs distribution (proto/python) and the folder of its generated modules.
OUT = ROOT / "proto" / "python" / "croupier_proto" / "v1"

# `from croupier.v1 import bot_pb2 as croupier_dot_v1_dot_bot__pb2` (py, _grpc.py) and
# `from croupier.v1 import score_pb2 as _score_pb2` (pyi): a sibling module of the package.
_SIBLING = re.compile(r"^from croupier\.v1 import (\w+_pb2)( as \w+)?$", re.MULTILINE)
# `_builder.BuildTopDescriptorsAndMessages(DESCRIPTOR, 'croupier.v1.bot_pb2', _globals)`
_MODULE_NAME = re.compile(
    r"^(_builder\.BuildTopDescriptorsAndMessages\(DESCRIPTOR, )'croupier\.v1\.(\w+_pb2)'",
    re.MULTILINE,
)
_ANY = re.compile(r"^\s*(from|import) croupier\b", re.MULTILINE)


def _relative_imports(path: Path) -> None:
    """Rewrite protoc's absolute imports of sibling modules in ``path`` as relative ones, and the
    module name the message classes are built under (``__module__``, which pickling uses)."""
    text = _SIBLING.sub(r"from . import \1\2", path.read_text())
    text = _MODULE_NAME.sub(r"\1'croupier_proto.v1.\2'", text)
    leftover = _ANY.search(text)
    if leftover:
        line = text[leftover.start() :].splitlines()[0]
        raise SystemExit(f"{path.name}: an import generate.py cannot rewrite: {line!r}")
    path.write_text(text)


def generate(out: Path) -> list[str]:
    """Compile every .proto under proto/croupier/v1 into ``out``; return the file names."""
    protos = sorted(str(p.relative_to(PROTO_ROOT)) for p in (PROTO_ROOT / PACKAGE).glob("*.proto"))
    with tempfile.TemporaryDirectory() as tmp:
        args = [
            "protoc",
            f"-I{PROTO_ROOT}",
            f"--python_out={tmp}",
            f"--pyi_out={tmp}",
            f"--grpc_python_out={tmp}",
            *protos,
        ]
        if protoc.main(args) != 0:
            raise SystemExit("protoc failed")
        out.mkdir(parents=True, exist_ok=True)
        names = []
        for made in sorted((Path(tmp) / PACKAGE).glob("*_pb2*")):
            if made.name.endswith("_grpc.py") and "class " not in made.read_text():
                continue  # the grpc plugin's empty module for a file without a service
            _relative_imports(made)
            (out / made.name).write_bytes(made.read_bytes())
            names.append(made.name)
    return names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the committed code is stale")
    args = parser.parse_args()
    shown = OUT.relative_to(ROOT)
    if not args.check:
        for stale in OUT.glob("*_pb2*"):
            stale.unlink()  # a .proto that was removed or renamed leaves no module behind
        for name in generate(OUT):
            print(f"wrote {shown / name}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        fresh = generate(Path(tmp))
        committed = sorted(p.name for p in OUT.glob("*_pb2*"))
        stale = [
            name
            for name in fresh
            if not (OUT / name).exists()
            or not filecmp.cmp(Path(tmp) / name, OUT / name, shallow=False)
        ]
        stale += [f"{name} (no .proto makes it)" for name in committed if name not in fresh]
    if stale:
        print(f"generated code in {shown} is stale; run `python proto/generate.py`:", *stale,
              sep="\n  ")  # fmt: skip
        return 1
    print(f"generated code is fresh ({len(fresh)} files in {shown})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
