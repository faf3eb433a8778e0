"""Index bars: IndexHistorical (``obb.index.price.historical``)."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional

from openbb_core.provider.abstract.fetcher import Fetcher
from openbb_core.provider.standard_models.index_historical import IndexHistoricalData, IndexHistoricalQueryParams
from pydantic import Field

import pandas as pd
from mds_client import Client

from ..connect import bars_of_symbols
from ..rows import default_start

Interval = Literal["1m", "5m", "15m", "30m", "60m", "1d", "1w", "1mo", "1q", "1y"]


class MdsIndexHistoricalQueryParams(IndexHistoricalQueryParams):
    """Bars of A-share indices (000300.SH, 399001.SZ, ...); never adjusted. Source: market-data-service."""

    __json_schema_extra__ = {"symbol": {"multiple_items_allowed": True}}

    interval: Interval = Field(default="1d", description="Bar interval: 1m 5m 15m 30m 60m 1d 1w 1mo 1q 1y.")


class MdsIndexHistoricalData(IndexHistoricalData):
    """An index bar; ``amount`` is the turnover in CNY."""

    amount: Optional[float] = Field(default=None, description="Turnover, CNY.")


class MdsIndexHistoricalFetcher(Fetcher[MdsIndexHistoricalQueryParams, List[MdsIndexHistoricalData]]):
    require_credentials = False

    @staticmethod
    def transform_query(params: Dict[str, Any]) -> MdsIndexHistoricalQueryParams:
        query = MdsIndexHistoricalQueryParams(**params)
        query.start_date = default_start(query.end_date, query.start_date)
        return query

    @staticmethod
    def extract_data(query: MdsIndexHistoricalQueryParams, credentials: Optional[Dict[str, str]], **kwargs: Any) -> List[Dict[str, Any]]:
        def read(mds: Client, s: str) -> pd.DataFrame:
            return mds.list_index_bars(s, interval=query.interval, from_=query.start_date, to=query.end_date)

        return bars_of_symbols(credentials, query.symbol, query.interval, query.start_date, query.end_date, read)

    @staticmethod
    def transform_data(query: MdsIndexHistoricalQueryParams, data: List[Dict[str, Any]], **kwargs: Any) -> List[MdsIndexHistoricalData]:
        return [MdsIndexHistoricalData.model_validate(r) for r in data]
