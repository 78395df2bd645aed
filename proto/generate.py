"""Generate the Python code for the wire contract, or check that the committed code is fresh.

    python proto/generate.py           # rewrite server/croupier/v1/*_pb2*.py(i)
    python proto/generate.py --check   # exit 1 if the committed files differ from a fresh build

Uses grpcio-tools at the exact version pinned in pyproject.toml's dev group, so the output is
reproducible; CI runs ``--check``.
"""

from __future__ import annotations

import argparse
import filecmp
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
OUT = ROOT / "server"
PACKAGE = Path("croupier") / "v1"


def generate(out_root: Path) -> list[Path]:
    """Run protoc for every .proto under proto/croupier/v1 into ``out_root``; return the outputs."""
    protos = sorted(str(p.relative_to(PROTO_ROOT)) for p in (PROTO_ROOT / PACKAGE).glob("*.proto"))
    (out_root / PACKAGE).mkdir(parents=True, exist_ok=True)
    args = [
        "protoc",
        f"-I{PROTO_ROOT}",
        f"--python_out={out_root}",
        f"--pyi_out={out_root}",
        f"--grpc_python_out={out_root}",
        *protos,
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    return sorted(p.relative_to(out_root) for p in (out_root / PACKAGE).glob("*_pb2*"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the committed code is stale")
    args = parser.parse_args()
    if not args.check:
        for rel in generate(OUT):
            print(f"wrote server/{rel}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        fresh = generate(Path(tmp))
        committed = sorted(p.relative_to(OUT) for p in (OUT / PACKAGE).glob("*_pb2*"))
        stale = [
            str(r)
            for r in fresh
            if not (OUT / r).exists() or not filecmp.cmp(Path(tmp) / r, OUT / r, shallow=False)
        ]
        stale += [str(r) for r in committed if r not in fresh]
    if stale:
        print("generated code is stale; run `python proto/generate.py`:", *stale, sep="\n  ")
        return 1
    print(f"generated code is fresh ({len(fresh)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
