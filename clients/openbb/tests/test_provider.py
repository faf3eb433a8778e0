"""The provider in the OpenBB Platform: its entry point, each fetcher against a live server (the
API's values), and ``obb.equity.price.historical(..., provider="mds")``.

openbb-core comes from PyPI only: where it cannot be installed these tests skip, saying so, and
tests/test_rows.py still checks the mapping they rest on.
"""

from __future__ import annotations

import asyncio
import re
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Dict, List

import httpx
import pytest

pytest.importorskip(
    "openbb_core",
    reason="openbb-core is not installed (pip install ./clients/python ./clients/openbb, from PyPI): the OpenBB fetchers are not run",
)

from openbb_core.provider.abstract.provider import Provider  # noqa: E402

from openbb_mds import mds_provider  # noqa: E402

MODELS = ["EquityHistorical", "EquitySearch", "EquityInfo", "HistoricalDividends", "BalanceSheet", "IncomeStatement", "CashFlowStatement", "IndexHistorical"]


def _api(server, path: str) -> List[Dict[str, Any]]:
    rows, url = [], f"{path}{'&' if '?' in path else '?'}page[size]=1000"
    while url:
        body = httpx.get(f"{server.url}{url}", headers={"X-API-Key": server.key}, timeout=30).json()
        rows += body["data"]
        url = body["links"]["next"]
    return rows


def fetch(server, model: str, **params: Any) -> List[Any]:
    credentials = {"mds_base_url": server.url, "mds_api_key": server.key}
    return asyncio.run(mds_provider.fetcher_dict[model].fetch_data(params, credentials))


def test_the_provider_names_a_fetcher_per_model_and_is_registered_by_its_entry_point() -> None:
    assert isinstance(mds_provider, Provider) and mds_provider.name == "mds"
    assert sorted(mds_provider.fetcher_dict) == sorted(MODELS)
    assert mds_provider.credentials == ["mds_base_url", "mds_api_key"]
    found = [ep for ep in entry_points(group="openbb_provider_extension") if ep.name == "mds"]
    if not found:
        pytest.skip("openbb-mds is not installed (pip install ./clients/openbb): its entry point is not registered")
    assert found[0].value == "openbb_mds:mds_provider" and found[0].load() is mds_provider


def test_fetchers_answer_the_apis_values(server) -> None:
    eq = _api(server, "/api/v1/equities")[0]["id"]
    bars = fetch(server, "EquityHistorical", symbol=eq, start_date="2026-01-01", adjustment="backward")
    api = _api(server, f"/api/v1/equities/{eq}/bars?interval=1d&adjustment=backward&from=2026-01-01")
    assert [(b.date.isoformat(), b.close, b.volume) for b in bars] == [(a["trade_date"], float(a["close"]), a["volume"]) for a in api]

    index = _api(server, "/api/v1/indices")[0]["id"]
    ibars = fetch(server, "IndexHistorical", symbol=index, start_date="2026-06-01", interval="1w")
    api = _api(server, f"/api/v1/indices/{index}/bars?interval=1w&from=2026-06-01")
    assert [(b.date.isoformat(), b.close) for b in ibars] == [(a["trade_date"], float(a["close"])) for a in api]

    found = fetch(server, "EquitySearch", query=eq.split(".")[0])
    assert found[0].symbol == eq
    info = fetch(server, "EquityInfo", symbol=eq)[0]
    assert info.symbol == eq and info.stock_exchange in ("SSE", "SZSE", "BSE")

    income = fetch(server, "IncomeStatement", symbol=eq, period="annual", limit=2)
    annual = sorted((s for s in _api(server, f"/api/v1/equities/{eq}/income-statements") if s["report_type"] == "annual"), key=lambda s: s["report_date"])
    assert [(s.period_ending.isoformat(), s.fiscal_period, s.revenue) for s in income] == [
        (a["report_date"], "FY", float(a["revenue"])) for a in reversed(annual[-2:])
    ]
    for model, path, field in [("BalanceSheet", "balance-sheets", "total_assets"), ("CashFlowStatement", "cash-flow-statements", "cash_end")]:
        rows = fetch(server, model, symbol=eq, period="quarter", limit=3)
        api = sorted(_api(server, f"/api/v1/equities/{eq}/{path}"), key=lambda s: s["report_date"], reverse=True)[:3]
        assert [(r.period_ending.isoformat(), getattr(r, field)) for r in rows] == [(a["report_date"], float(a[field])) for a in api]

    dividends = [d for e in _api(server, "/api/v1/equities")[:10] for d in fetch_dividends(server, e["id"])]
    assert dividends, "no dividend with an ex-date among the first ten equities"


def fetch_dividends(server, eq: str) -> List[Any]:
    api = [d for d in _api(server, f"/api/v1/equities/{eq}/dividends") if d["ex_date"] is not None]
    rows = fetch(server, "HistoricalDividends", symbol=eq)
    assert [(d.ex_dividend_date.isoformat(), d.amount) for d in rows] == [(a["ex_date"], float(a["cash_per_share"] or 0)) for a in api]
    return rows


def test_obb_equity_price_historical_with_provider_mds(server) -> None:
    openbb = pytest.importorskip("openbb", reason="the openbb package is not installed (pip install openbb): obb is not tried")
    obb = openbb.obb
    obb.user.credentials.mds_base_url = server.url
    obb.user.credentials.mds_api_key = server.key
    eq = _api(server, "/api/v1/equities")[0]["id"]
    df = obb.equity.price.historical(eq, provider="mds", start_date="2026-01-01").to_df()
    api = _api(server, f"/api/v1/equities/{eq}/bars?interval=1d&from=2026-01-01")
    assert list(df["close"]) == [float(a["close"]) for a in api]


def test_the_docs_block_runs(server) -> None:
    """docs/clients.md's OpenBB Platform block (a ``py`` block: the Python client's doc test runs only ``python`` ones), against the live server."""
    pytest.importorskip("openbb", reason="the openbb package is not installed (pip install openbb): the docs' block is not run")
    doc = (Path(__file__).resolve().parents[3] / "docs" / "clients.md").read_text()
    (block,) = re.findall(r"```py\n(from openbb import obb\n.*?)```", doc, flags=re.S)
    code = block.replace('"http://127.0.0.1:8080"', repr(server.url)).replace('"..."', repr(server.key))
    ns: dict = {}
    exec(compile(code, "docs/clients.md", "exec"), ns)
    assert len(ns["obb"].equity.price.historical("600519.SH", provider="mds").to_df()) > 100
