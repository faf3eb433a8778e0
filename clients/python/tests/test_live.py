"""The client against a live server: its DataFrames hold exactly what the API's JSON says."""

from __future__ import annotations

import datetime
import math
from decimal import Decimal
from typing import Any, Dict, List

import httpx
import pandas as pd
import pytest

from mds_client import Client, MdsError

from .conftest import FIRST, LAST, Server, everything


def test_bars_exact_are_the_apis_decimal_strings(server: Server, api: httpx.Client) -> None:
    with Client(server.url, server.key, exact=True) as client:
        df = client.bars("600519.SH", start=FIRST, end=LAST)
    raw = everything(api, "/api/v1/equities/600519.SH/bars", interval="1d", **{"from": FIRST, "to": LAST})
    assert len(raw) > 200
    assert list(df.index.names) == ["instrument_id", "time"]
    assert list(df.columns) == ["trade_date", "open", "high", "low", "close", "volume", "amount"]
    assert [Decimal(r["close"]) for r in raw] == list(df["close"])
    assert [Decimal(r["amount"]) for r in raw] == list(df["amount"])
    assert [r["volume"] for r in raw] == list(df["volume"])
    assert str(df["volume"].dtype) == "int64"
    first = df.index[0]
    assert first[0] == "600519.SH"
    assert first[1] == pd.Timestamp(raw[0]["timestamp"])  # 15:00 +08:00
    assert str(first[1].tz) == "Asia/Shanghai" and first[1].hour == 15
    assert df["trade_date"].iloc[0] == pd.Timestamp(raw[0]["trade_date"])


def test_bars_float_by_default_and_dates_in_every_form(server: Server, api: httpx.Client) -> None:
    raw = everything(api, "/api/v1/equities/000001.SZ/bars", interval="1d", date="2026-11-20")
    with Client(server.url, server.key) as client:
        forms = [
            client.bars("000001.SZ", start=day, end=day)
            for day in ("2026-11-20", "20261120", datetime.date(2026, 11, 20), pd.Timestamp("2026-11-20"))
        ]
    assert len(raw) == 1
    for df in forms:
        assert str(df["close"].dtype) == "float64"
        assert df["close"].tolist() == [float(raw[0]["close"])]
        assert df["open"].tolist() == [float(raw[0]["open"])]


def test_paging_is_hidden_every_row_once(server: Server, api: httpx.Client) -> None:
    ids = ["600519.SH", "000001.SZ", "300750.SZ"]
    with Client(server.url, server.key, page_size=50) as client:
        df = client.bars(ids, start=FIRST, end=LAST)
        sent = client.requests
    expected = {i: everything(api, f"/api/v1/equities/{i}/bars", interval="1d", **{"from": FIRST, "to": LAST}) for i in ids}
    assert df.index.is_unique
    assert len(df) == sum(len(rows) for rows in expected.values())
    assert sent == sum(math.ceil(len(rows) / 50) for rows in expected.values())  # pages of 50, each asked once
    for i, rows in expected.items():
        assert df.loc[i, "close"].tolist() == [float(r["close"]) for r in rows]
        assert df.loc[i, "trade_date"].dt.strftime("%Y-%m-%d").tolist() == [r["trade_date"] for r in rows]


def test_bars_of_every_kind_at_once(server: Server, api: httpx.Client) -> None:
    ids = ["600519.SH", "000300.SH", "510300.SH"]  # an equity, an index, a fund
    with Client(server.url, server.key, exact=True) as client:
        df = client.bars(ids, start="2026-11-02", end=LAST)
    assert list(df.index.get_level_values(0).unique()) == ids
    for kind, i in zip(["equities", "indices", "funds"], ids):
        raw = everything(api, f"/api/v1/{kind}/{i}/bars", interval="1d", **{"from": "2026-11-02", "to": LAST})
        assert df.loc[i, "close"].tolist() == [Decimal(r["close"]) for r in raw]


def test_last_rows_newest_first_with_limit(server: Server, api: httpx.Client) -> None:
    raw = api.get("/api/v1/equities/600519.SH/bars", params={"interval": "1d", "order": "desc", "page[size]": 60}).json()["data"]
    with Client(server.url, server.key) as client:
        df = client.list_equity_bars("600519.SH", interval="1d", order="desc", limit=60)
        sent = client.requests
    assert len(df) == 60 and sent == 1
    assert df["trade_date"].dt.strftime("%Y-%m-%d").tolist() == [r["trade_date"] for r in raw]
    assert df["trade_date"].iloc[0] == pd.Timestamp(LAST)


def test_market_day_pool_and_valuations(server: Server, api: httpx.Client) -> None:
    breadth = everything(api, "/api/v1/markets/SZ/breadth", **{"from": FIRST})
    day = max(breadth, key=lambda b: (b["limit_up"], b["trade_date"]))
    assert day["limit_up"] > 0
    with Client(server.url, server.key, exact=True) as client:
        market = client.market_day(day["trade_date"])
        pool = client.pool("limit_up", day["trade_date"])
        vals = client.valuations(["600519.SH", "000001.SZ"], start="2026-11-02", end=LAST)
    markets = [m["id"] for m in everything(api, "/api/v1/markets")]
    raw_market = [r for m in markets for r in everything(api, f"/api/v1/markets/{m}/bars", date=day["trade_date"])]
    assert market.index.tolist() == [r["instrument_id"] for r in raw_market]
    assert market["limit_up"].tolist() == [None if r["limit_up"] is None else Decimal(r["limit_up"]) for r in raw_market]
    raw_pool = everything(api, "/api/v1/equities/pools/limit_up", date=day["trade_date"])
    assert pool.index.tolist() == [r["instrument_id"] for r in raw_pool]
    assert len(pool) >= day["limit_up"]
    assert (pool["close"] == pool["limit_up"]).all()  # the pool: closed at the up limit
    for i in pool.index:
        assert market.loc[i, "close"] == pool.loc[i, "close"]
    raw_vals = everything(api, "/api/v1/equities/000001.SZ/valuations", **{"from": "2026-11-02", "to": LAST})
    assert vals.loc["000001.SZ", "pe_ttm"].tolist() == [None if r["pe_ttm"] is None else Decimal(r["pe_ttm"]) for r in raw_vals]
    assert vals.loc["000001.SZ", "total_shares"].tolist() == [r["total_shares"] for r in raw_vals]
    assert list(vals.index.names) == ["instrument_id", "trade_date"]


def test_every_operation_is_a_method(server: Server, api: httpx.Client) -> None:
    with Client(server.url, server.key) as client:
        found = client.search("gzmt")
        macd = client.list_equity_technical_indicators("600519.SH", "macd", interval="1d", from_="2026-11-16")
        equity = client.get_equity("600519.SH")
        statements = client.list_income_statements("600519.SH", exact=True)
    assert found.index[0] == "600519.SH" and found.loc["600519.SH", "name"] == "贵州茅台"
    raw = everything(api, "/api/v1/equities/600519.SH/technical-indicators/macd", interval="1d", **{"from": "2026-11-16"})
    assert macd["dif"].tolist() == [float(r["values"]["dif"]) for r in raw]
    assert macd["macd"].tolist() == [float(r["values"]["macd"]) for r in raw]
    assert equity["id"] == "600519.SH" and equity["list_date"] == "2001-08-27"
    raw_is = everything(api, "/api/v1/equities/600519.SH/income-statements")
    assert statements["revenue"].tolist() == [Decimal(r["revenue"]) for r in raw_is]


def test_errors_name_the_problem(server: Server) -> None:
    with Client(server.url, server.key) as client:
        with pytest.raises(MdsError) as bad:
            client.list_equity_bars("600519.SH", interval="2d")  # type: ignore[arg-type]
        with pytest.raises(MdsError) as missing:
            client.bars("999999.SH")
    assert bad.value.status == 400 and bad.value.code == "invalid_parameter" and bad.value.parameter == "interval"
    assert missing.value.status == 404
    with Client(server.url, "mds_not_a_key") as client:
        with pytest.raises(MdsError) as unauthorized:
            client.search("gzmt")
    assert unauthorized.value.status == 401
