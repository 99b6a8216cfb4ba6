"""What the Python tests share: the repository's root and the CLI binary they compare with."""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


def cli_path():
    """$NIMLAB_BIN, else target/release/nimlab or target/debug/nimlab of this repository."""
    if os.environ.get("NIMLAB_BIN"):
        return os.environ["NIMLAB_BIN"]
    for build in ("release", "debug"):
        p = REPO / "target" / build / "nimlab"
        if p.exists():
            return str(p)
    pytest.fail("no nimlab binary: build it (cargo build -p nimlab-cli) or set NIMLAB_BIN")
