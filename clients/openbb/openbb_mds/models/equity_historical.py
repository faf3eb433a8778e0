"""Equity bars: EquityHistorical (``obb.equity.price.historical``)."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional

from openbb_core.provider.abstract.fetcher import Fetcher
from openbb_core.provider.standard_models.equity_historical import EquityHistoricalData, EquityHistoricalQueryParams
from pydantic import Field

import pandas as pd
from mds_client import Client

from ..connect import bars_of_symbols
from ..rows import default_start

Interval = Literal["1m", "5m", "15m", "30m", "60m", "1d", "1w", "1mo", "1q", "1y"]
Adjustment = Literal["none", "forward", "backward"]


class MdsEquityHistoricalQueryParams(EquityHistoricalQueryParams):
    """Bars of A-share equities (or funds), any interval, adjusted or not. Source: market-data-service."""

    __json_schema_extra__ = {"symbol": {"multiple_items_allowed": True}}

    interval: Interval = Field(default="1d", description="Bar interval: 1m 5m 15m 30m 60m 1d 1w 1mo 1q 1y.")
    adjustment: Adjustment = Field(
        default="none",
        description="none: as traded; forward (前复权): past prices scaled to the latest; backward (后复权): later prices scaled to the first day.",
    )


class MdsEquityHistoricalData(EquityHistoricalData):
    """A bar; ``amount`` is the turnover in CNY (None when the source had none)."""

    amount: Optional[float] = Field(default=None, description="Turnover, CNY.")


class MdsEquityHistoricalFetcher(Fetcher[MdsEquityHistoricalQueryParams, List[MdsEquityHistoricalData]]):
    """Walks every page of each symbol's bars (``mds_client``: retries, one data version per walk)."""

    require_credentials = False

    @staticmethod
    def transform_query(params: Dict[str, Any]) -> MdsEquityHistoricalQueryParams:
        query = MdsEquityHistoricalQueryParams(**params)
        query.start_date = default_start(query.end_date, query.start_date)
        return query

    @staticmethod
    def extract_data(query: MdsEquityHistoricalQueryParams, credentials: Optional[Dict[str, str]], **kwargs: Any) -> List[Dict[str, Any]]:
        def read(mds: Client, s: str) -> pd.DataFrame:
            bars = mds.bars(s, start=query.start_date, end=query.end_date, interval=query.interval, adjustment=query.adjustment)
            return bars.reset_index().rename(columns={"time": "timestamp"})

        return bars_of_symbols(credentials, query.symbol, query.interval, query.start_date, query.end_date, read)

    @staticmethod
    def transform_data(query: MdsEquityHistoricalQueryParams, data: List[Dict[str, Any]], **kwargs: Any) -> List[MdsEquityHistoricalData]:
        return [MdsEquityHistoricalData.model_validate(r) for r in data]
