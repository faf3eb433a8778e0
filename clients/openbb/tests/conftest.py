"""The live server of the Python client's tests (clients/python/tests/conftest.py: a small demo
store, a key, ``node dist/app/server.js`` on a free port), shared rather than written twice."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("mds_live_server", Path(__file__).resolve().parents[2] / "python" / "tests" / "conftest.py")
assert _spec is not None and _spec.loader is not None
_live = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _live  # dataclasses look their module up there
_spec.loader.exec_module(_live)

server = _live.server
Server = _live.Server
