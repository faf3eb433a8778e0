"""The API's records (as ``mds_client`` frames and dicts) in the OpenBB Platform's standard
fields, as plain dicts: what each fetcher's ``transform_data`` validates into its Data model.

Pure functions, without openbb-core, so that they are tested where the Platform is not installed
(tests/test_rows.py). Field names follow openbb_core's standard models (EquityHistoricalData,
EquitySearchData, EquityInfoData, HistoricalDividendsData, BalanceSheetData, IncomeStatementData,
CashFlowStatementData, IndexHistoricalData); what the API has beyond them is kept under its own
name, as the Platform's Data allows extra fields.
"""

from __future__ import annotations

import math
from datetime import date, datetime
from typing import Any, Dict, List, Mapping, Optional

import pandas as pd

#: Intervals whose bars are within a day: their ``date`` is the bar's end (a datetime), else its trading day.
INTRADAY = ("1m", "5m", "15m", "30m", "60m")
#: The exchange of each market suffix.
EXCHANGES = {"SH": "SSE", "SZ": "SZSE", "BJ": "BSE"}
#: A statement's period, as OpenBB names fiscal periods (A-share statements are cumulative from January 1).
FISCAL_PERIODS = {"q1": "Q1", "h1": "Q2", "q3": "Q3", "annual": "FY"}

Row = Dict[str, Any]


def _missing(v: Any) -> bool:
    return v is None or v is pd.NA or v is pd.NaT or (isinstance(v, float) and math.isnan(v))


def _day(v: Any) -> Optional[date]:
    if _missing(v):
        return None
    return pd.Timestamp(v).date()


def _plain(v: Any) -> Any:
    """A frame's value as Python's: None for missing, int, float, date or str."""
    if _missing(v):
        return None
    if isinstance(v, pd.Timestamp):
        return v.to_pydatetime() if v.tz is not None else v.date()
    if hasattr(v, "item"):  # numpy scalars
        return v.item()
    return v


def bar_rows(bars: pd.DataFrame, interval: str, symbol: Optional[str] = None) -> List[Row]:
    """Bars (``list_*_bars``) as EquityHistoricalData / IndexHistoricalData: ``date`` the trading
    day (a datetime, the bar's end in market time, for intraday intervals), OHLC, volume, and
    ``amount`` (turnover, CNY; None when unknown); ``symbol`` when several are asked."""
    intraday = interval in INTRADAY
    rows: List[Row] = []
    for r in bars.to_dict("records"):
        row: Row = {"date": r["timestamp"].to_pydatetime() if intraday else _day(r["trade_date"])}
        for f in ("open", "high", "low", "close"):
            row[f] = _plain(r[f])
        row["volume"] = _plain(r["volume"])
        row["amount"] = _plain(r.get("amount"))
        if symbol is not None:
            row["symbol"] = symbol
        rows.append(row)
    return rows


def search_rows(found: pd.DataFrame) -> List[Row]:
    """Instruments (``search_instruments``, ``list_equities``) as EquitySearchData."""
    return [
        {
            "symbol": r["id"],
            "name": r["name"],
            "name_en": _plain(r.get("name_en")),
            "exchange": EXCHANGES.get(r["market"], r["market"]),
            "board": _plain(r.get("board")),
            "list_date": _plain(r.get("list_date")),
        }
        for r in found.to_dict("records")
    ]


def info_row(equity: Mapping[str, Any], profile: Optional[Mapping[str, Any]]) -> Row:
    """An equity (``get_equity``) and its company (``get_company_profile``, None when the store has
    none) as EquityInfoData."""
    p = profile or {}
    return {
        "symbol": equity["id"],
        "name": equity["name"],
        "legal_name": p.get("full_name"),
        "stock_exchange": EXCHANGES.get(equity["market"], equity["market"]),
        "short_description": p.get("main_business"),
        "long_description": p.get("introduction"),
        "company_url": p.get("website"),
        "business_address": p.get("address"),
        "hq_state": p.get("province"),
        "hq_country": "CN",
        "employees": p.get("employees"),
        "english_name": p.get("english_name") or equity.get("name_en"),
        "board": equity.get("board"),
        "currency": equity.get("currency"),
        "list_date": equity.get("list_date"),
        "established_date": p.get("established_date"),
        "legal_representative": p.get("legal_representative"),
        "registered_capital": p.get("registered_capital"),
        "total_shares": equity.get("total_shares"),
        "float_shares": equity.get("float_shares"),
    }


def dividend_rows(dividends: pd.DataFrame) -> List[Row]:
    """Dividends (``list_dividends``) that have an ex-date, as HistoricalDividendsData: ``amount`` the
    cash per share before tax (0 for shares only), with the share bonus and transfer per share."""
    rows: List[Row] = []
    for r in dividends.to_dict("records"):
        ex = _day(r["ex_date"])
        if ex is None:
            continue
        cash = _plain(r.get("cash_per_share"))
        rows.append(
            {
                "ex_dividend_date": ex,
                "amount": float(cash) if cash is not None else 0.0,
                "record_date": _day(r.get("record_date")),
                "payment_date": _day(r.get("pay_date")),
                "declaration_date": _day(r.get("announce_date")),
                "bonus_per_share": _plain(r.get("bonus_per_share")),
                "transfer_per_share": _plain(r.get("transfer_per_share")),
                "report_period": _plain(r.get("report_period")),
                "progress": _plain(r.get("progress")),
            }
        )
    return rows


def statement_rows(statements: pd.DataFrame, period: str, limit: Optional[int]) -> List[Row]:
    """Statements (``list_income_statements`` and the like) as the standard statement Data, newest
    period first: ``annual`` only the fiscal years, ``quarter`` every report (q1, h1, q3: cumulative
    from January 1); at most ``limit`` of them. ``period_ending`` the report date, ``fiscal_period``
    Q1, Q2 (the half year), Q3 or FY; every amount of the API under its own name."""
    records = statements.to_dict("records")
    if period == "annual":
        records = [r for r in records if r["report_type"] == "annual"]
    records.sort(key=lambda r: (r["report_date"], r["announce_date"]), reverse=True)
    if limit is not None:
        records = records[:limit]
    rows: List[Row] = []
    for r in records:
        ending = _day(r["report_date"])
        row: Row = {"period_ending": ending, "fiscal_period": FISCAL_PERIODS[r["report_type"]], "fiscal_year": ending.year if ending else None}
        for k, v in r.items():
            if k not in ("instrument_id", "report_date", "report_type"):
                row[k] = _plain(v)
        rows.append(row)
    return rows


def default_start(end: Optional[date], start: Optional[date]) -> Optional[date]:
    """A year before ``end`` (today when None) when no start is given, as OpenBB's providers do."""
    if start is not None:
        return start
    last = end or datetime.now().date()
    try:
        return last.replace(year=last.year - 1)
    except ValueError:  # February 29
        return last.replace(year=last.year - 1, day=28)
