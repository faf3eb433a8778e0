"""The mapping of the API's records to OpenBB's standard fields (openbb_mds/rows.py), without
openbb-core: on frames written here, and on what a live server answers, value by value."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import httpx
import pandas as pd
import pytest
from mds_client import Client

from openbb_mds.rows import bar_rows, default_start, dividend_rows, info_row, search_rows, statement_rows

CST = timezone(timedelta(hours=8))


def test_bar_rows_give_the_trading_day_of_daily_bars_and_the_end_of_intraday_ones() -> None:
    bars = pd.DataFrame(
        {
            "timestamp": pd.to_datetime(["2026-01-05T15:00:00+08:00", "2026-01-06T15:00:00+08:00"]).tz_convert("Asia/Shanghai"),
            "trade_date": pd.to_datetime(["2026-01-05", "2026-01-06"]),
            "open": [10.0, 10.5],
            "high": [10.8, 10.9],
            "low": [9.9, 10.1],
            "close": [10.5, 10.2],
            "volume": [1200, 900],
            "amount": [12600.0, float("nan")],
        }
    )
    daily = bar_rows(bars, "1d")
    assert daily[0] == {"date": date(2026, 1, 5), "open": 10.0, "high": 10.8, "low": 9.9, "close": 10.5, "volume": 1200, "amount": 12600.0}
    assert daily[1]["amount"] is None and type(daily[1]["volume"]) is int
    intraday = bar_rows(bars, "5m", "600519.SH")
    assert intraday[1]["date"] == datetime(2026, 1, 6, 15, 0, tzinfo=CST) and intraday[1]["symbol"] == "600519.SH"


def test_statement_rows_are_newest_first_annual_or_every_report_and_limited() -> None:
    frame = pd.DataFrame(
        {
            "instrument_id": ["600000.SH"] * 4,
            "report_date": pd.to_datetime(["2024-12-31", "2025-03-31", "2025-06-30", "2025-12-31"]),
            "report_type": ["annual", "q1", "h1", "annual"],
            "announce_date": pd.to_datetime(["2025-03-20", "2025-04-25", "2025-08-20", "2026-03-21"]),
            "revenue": [100.0, 30.0, 55.0, 120.0],
        }
    )
    annual = statement_rows(frame, "annual", 5)
    assert [(r["period_ending"], r["fiscal_period"], r["fiscal_year"], r["revenue"]) for r in annual] == [
        (date(2025, 12, 31), "FY", 2025, 120.0),
        (date(2024, 12, 31), "FY", 2024, 100.0),
    ]
    assert annual[0]["announce_date"] == date(2026, 3, 21) and "report_type" not in annual[0] and "instrument_id" not in annual[0]
    assert [r["fiscal_period"] for r in statement_rows(frame, "quarter", 3)] == ["FY", "Q2", "Q1"]


def test_dividend_rows_keep_those_with_an_ex_date_and_search_rows_name_the_exchange() -> None:
    dividends = pd.DataFrame(
        {
            "announce_date": pd.to_datetime(["2025-04-01", "2026-04-01"]),
            "record_date": pd.to_datetime(["2025-06-10", None]),
            "ex_date": pd.to_datetime(["2025-06-11", None]),
            "pay_date": pd.to_datetime(["2025-06-11", None]),
            "cash_per_share": [None, 1.5],
            "bonus_per_share": [0.2, None],
            "transfer_per_share": [0.0, None],
            "report_period": ["2024-12-31", "2025-12-31"],
            "progress": ["implemented", "proposed"],
        }
    )
    rows = dividend_rows(dividends)
    assert len(rows) == 1 and rows[0]["ex_dividend_date"] == date(2025, 6, 11) and rows[0]["amount"] == 0.0 and rows[0]["bonus_per_share"] == 0.2
    found = pd.DataFrame({"id": ["600519.SH", "000001.SZ"], "name": ["贵州茅台", "平安银行"], "market": ["SH", "SZ"]})
    assert [(r["symbol"], r["exchange"]) for r in search_rows(found)] == [("600519.SH", "SSE"), ("000001.SZ", "SZSE")]
    info = info_row({"id": "600519.SH", "name": "贵州茅台", "market": "SH"}, None)
    assert (info["symbol"], info["stock_exchange"], info["legal_name"]) == ("600519.SH", "SSE", None)
    assert default_start(date(2024, 2, 29), None) == date(2023, 2, 28) and default_start(None, date(2020, 1, 1)) == date(2020, 1, 1)


def _api(server, path: str) -> list:
    """Every record of a collection, as the API's JSON."""
    rows, url = [], f"{path}{'&' if '?' in path else '?'}page[size]=1000"
    while url:
        body = httpx.get(f"{server.url}{url}", headers={"X-API-Key": server.key}, timeout=30).json()
        rows += body["data"]
        url = body["links"]["next"]
    return rows


@pytest.fixture(scope="module")
def live(server):
    with Client(server.url, server.key) as c:
        equities = c.list_equities()
        yield server, c, list(equities["id"])


def test_rows_of_live_bars_and_statements_are_the_apis_values(live) -> None:
    server, client, ids = live
    eq = ids[0]
    api = _api(server, f"/api/v1/equities/{eq}/bars?interval=1d&adjustment=forward&from=2026-01-01")
    frame = client.bars(eq, start="2026-01-01", adjustment="forward").reset_index().rename(columns={"time": "timestamp"})
    rows = bar_rows(frame, "1d")
    assert len(rows) == len(api) > 100
    for r, a in zip(rows, api):
        assert (r["date"].isoformat(), r["close"], r["open"], r["volume"]) == (a["trade_date"], float(a["close"]), float(a["open"]), a["volume"])
    checked = 0
    for e in ids[:5]:
        api = sorted(_api(server, f"/api/v1/equities/{e}/income-statements"), key=lambda s: s["report_date"], reverse=True)
        rows = statement_rows(client.list_income_statements(e), "quarter", None)
        assert [(r["period_ending"].isoformat(), r["revenue"]) for r in rows] == [(a["report_date"], float(a["revenue"])) for a in api]
        checked += len(rows)
    assert checked > 0
