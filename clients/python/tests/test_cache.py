"""The on-disk cache (keyed by the data version) and walks across a change of version, on a live server."""

from __future__ import annotations

import math
from decimal import Decimal
from pathlib import Path
from typing import Callable

import httpx
import pandas as pd

from mds_client import Client

from .conftest import FIRST, LAST, Server, everything


def correct_close(server: Server, api: httpx.Client, tmp: Path, id: str, day: str) -> Decimal:
    """Loads a corrected close of `id` on `day` (another price within the day's range): a new data version."""
    bar = everything(api, f"/api/v1/equities/{id}/bars", interval="1d", date=day)[0]
    close = bar["low"] if bar["close"] != bar["low"] else bar["high"]
    file = tmp / f"{id}-{day}.csv"
    fields = ["instrument_id", "trade_date", "open", "high", "low", "close", "volume", "amount"]
    row = {**bar, "close": close}
    file.write_text(",".join(fields) + "\n" + ",".join(str(row[f]) for f in fields) + "\n")
    server.mds("ingest", "bars_1d", str(file))
    return Decimal(close)


def test_a_repeat_comes_from_disk_and_a_new_version_is_fetched(server: Server, api: httpx.Client, tmp_path: Path) -> None:
    ids = ["600519.SH", "000001.SZ"]
    cache = tmp_path / "cache"
    pages = sum(math.ceil(len(everything(api, f"/api/v1/equities/{i}/bars", interval="1d", **{"from": FIRST, "to": LAST})) / 100) for i in ids)
    with Client(server.url, server.key, cache_dir=cache, exact=True, page_size=100) as first:
        a = first.bars(ids, start=FIRST, end=LAST)
        assert first.requests == len(ids) + pages  # a version check per walk, then its pages
    with Client(server.url, server.key, cache_dir=cache, exact=True, page_size=100) as second:
        b = second.bars(ids, start=FIRST, end=LAST)
        assert second.requests == len(ids)  # the version checks alone: every page from disk
    pd.testing.assert_frame_equal(a, b)
    assert b.attrs["data_version"] == a.attrs["data_version"]

    close = correct_close(server, api, tmp_path, "600519.SH", LAST)
    with Client(server.url, server.key, cache_dir=cache, exact=True, page_size=100) as third:
        c = third.bars(ids, start=FIRST, end=LAST)
        assert third.requests == len(ids) + pages  # a new version: every page asked again
    assert c.attrs["data_version"] > a.attrs["data_version"]
    assert c.loc["600519.SH", "close"].iloc[-1] == close != a.loc["600519.SH", "close"].iloc[-1]
    assert c.loc["000001.SZ", "close"].tolist() == a.loc["000001.SZ", "close"].tolist()
    # The older version's pages are gone; the new one's are kept.
    assert [d.name for d in next(cache.iterdir()).iterdir()] == [str(c.attrs["data_version"])]


class AfterFirstPage(httpx.BaseTransport):
    """HTTP that runs `action` once, right after the first page of bars is answered."""

    def __init__(self, action: Callable[[], None]) -> None:
        self.inner = httpx.HTTPTransport()
        self.action = action
        self.done = False

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if request.url.path.endswith("/bars") and not self.done:
            self.done = True
            response.read()
            self.action()
        return response


def test_a_walk_across_a_new_version_starts_again(server: Server, api: httpx.Client, tmp_path: Path) -> None:
    # Newest first, so that the first page holds the bar the new version corrects (its last day: a
    # correction there is cheap to derive from).
    query = {"interval": "1d", "order": "desc", "from": FIRST, "to": LAST}
    before = everything(api, "/api/v1/equities/300750.SZ/bars", **query)
    fixed: list = []
    transport = AfterFirstPage(lambda: fixed.append(correct_close(server, api, tmp_path, "300750.SZ", LAST)))
    with Client(server.url, server.key, exact=True, page_size=50, transport=transport) as client:
        df = client.list_equity_bars("300750.SZ", interval="1d", order="desc", from_=FIRST, to=LAST)
        # The first page, the second (read at the new version: Data-Version-Cursor), then the whole walk again.
        assert client.requests == 2 + math.ceil(len(before) / 50)
    after = everything(api, "/api/v1/equities/300750.SZ/bars", **query)
    assert df["close"].tolist() == [Decimal(r["close"]) for r in after]
    assert df["close"].iloc[0] == fixed[0] != Decimal(before[0]["close"])  # the first page, as the new version has it
    assert df["trade_date"].iloc[0] == pd.Timestamp(LAST)
