"""docs/clients.md's Python blocks, run in order in one namespace against the live server."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest

from .conftest import Server

DOC = Path(__file__).resolve().parents[3] / "docs" / "clients.md"


def blocks() -> list:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_the_walk_runs_and_says_what_it_says(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MDS_URL", server.url)
    monkeypatch.setenv("MDS_KEY", server.key)
    monkeypatch.setenv("HOME", str(tmp_path))  # the cache block's ~/.cache/mds
    found = blocks()
    assert len(found) == 8
    ns: dict = {}
    for code in found:
        exec(compile(code, str(DOC), "exec"), ns)
    members, bars, closes = ns["members"], ns["bars"], ns["closes"]
    assert len(members) >= 5 and "600519.SH" in members
    assert list(bars.index.names) == ["instrument_id", "time"]
    assert sorted(bars.index.get_level_values(0).unique()) == sorted(members)
    assert list(closes.columns) == sorted(members) and len(closes) > 200
    assert bars["trade_date"].min() >= pd.Timestamp("2025-11-20") and bars["trade_date"].max() == pd.Timestamp("2026-11-20")
    pool, day = ns["pool"], ns["day"]
    assert len(pool) > 0 and (pool["close"] == pool["limit_up"]).all()
    assert (pool["trade_date"] == day).all()
    vals = ns["vals"]
    assert set(vals.index.get_level_values(0)) == {"600519.SH", "000001.SZ"}
    assert isinstance(ns["exact"]["close"].iloc[0], Decimal)
    again = ns["again"]
    pd.testing.assert_frame_equal(again, bars)
    assert (tmp_path / ".cache" / "mds").is_dir()
    # The event stream's block: the versions from the one the walk was read at, consecutive, then it stopped.
    printed = [line.split()[0] for line in capsys.readouterr().out.splitlines() if line.split() and line.split()[0].isdigit()]
    held = ns["held"]
    assert printed and printed[0] == str(held) and printed == [str(held + i) for i in range(len(printed))]
