"""The Arrow path (pyarrow importable): the server answers Arrow streams, and the client's frames are
those of the JSON path, column for column, dtype for dtype. Skipped, saying why, without pyarrow."""

from __future__ import annotations

from typing import Any, Callable, List

import httpx
import pandas as pd
import pytest

from mds_client import Client

from .conftest import LAST, Server

pa = pytest.importorskip(
    "pyarrow", reason="pyarrow is not importable: the client's Arrow path is untested here (pip install 'mds-client[arrow]')"
)

MEDIA_TYPE = "application/vnd.apache.arrow.stream"


def test_the_server_answers_arrow_typed(server: Server, api: httpx.Client) -> None:
    r = api.get("/api/v1/equities/600519.SH/bars", params={"interval": "1d", "page[size]": 5}, headers={"Accept": MEDIA_TYPE})
    assert r.headers["content-type"] == MEDIA_TYPE
    table = pa.ipc.open_stream(pa.py_buffer(r.content)).read_all()
    assert table.schema.field("close").type == pa.decimal128(38, 3)
    assert table.schema.field("trade_date").type == pa.date32()
    assert table.schema.field("timestamp").type == pa.timestamp("s", tz="Asia/Shanghai")
    assert table.schema.field("volume").type == pa.int64()
    raw = api.get("/api/v1/equities/600519.SH/bars", params={"interval": "1d", "page[size]": 5}).json()["data"]
    assert [str(v) for v in table.column("close").to_pylist()] == [f"{float(b['close']):.3f}" for b in raw]


CALLS: List[Callable[[Client], pd.DataFrame]] = [
    lambda c: c.bars(["600519.SH", "000300.SH", "510300.SH"], start="2026-10-01", end=LAST),
    lambda c: c.market_day(LAST),
    lambda c: c.valuations(["600519.SH"], start="2026-10-01", end=LAST),
    lambda c: c.list_equity_technical_indicators("600519.SH", "macd", interval="1d", from_="2026-10-01"),
    lambda c: c.list_income_statements("600519.SH"),
    lambda c: c.list_price_limits("600519.SH", from_="2026-10-01"),
    lambda c: c.list_equities(),
]


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("call", range(len(CALLS)))
def test_arrow_frames_are_the_json_frames(server: Server, call: int, exact: bool) -> None:
    with Client(server.url, server.key, exact=exact, arrow=True) as arrow, Client(server.url, server.key, exact=exact, arrow=False) as js:
        a: Any = CALLS[call](arrow)
        j: Any = CALLS[call](js)
    assert len(j) > 0
    pd.testing.assert_frame_equal(a, j)
