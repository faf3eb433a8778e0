"""An equity and its company: EquityInfo (``obb.equity.profile``)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from mds_client import MdsError
from openbb_core.provider.abstract.fetcher import Fetcher
from openbb_core.provider.standard_models.equity_info import EquityInfoData, EquityInfoQueryParams

from ..connect import client, symbols
from ..rows import info_row


class MdsEquityInfoQueryParams(EquityInfoQueryParams):
    """One or more equities (CODE.MARKET, comma-separated)."""

    __json_schema_extra__ = {"symbol": {"multiple_items_allowed": True}}


class MdsEquityInfoData(EquityInfoData):
    """The equity's listing and its company's profile (the latter absent where the store has none)."""


class MdsEquityInfoFetcher(Fetcher[MdsEquityInfoQueryParams, List[MdsEquityInfoData]]):
    require_credentials = False

    @staticmethod
    def transform_query(params: Dict[str, Any]) -> MdsEquityInfoQueryParams:
        return MdsEquityInfoQueryParams(**params)

    @staticmethod
    def extract_data(query: MdsEquityInfoQueryParams, credentials: Optional[Dict[str, str]], **kwargs: Any) -> List[Dict[str, Any]]:
        rows = []
        with client(credentials) as mds:
            for s in symbols(query.symbol):
                equity = mds.get_equity(s)
                try:
                    profile: Optional[Dict[str, Any]] = mds.get_company_profile(s)
                except MdsError as e:
                    if e.status != 404:
                        raise
                    profile = None
                rows.append(info_row(equity, profile))
        return rows

    @staticmethod
    def transform_data(query: MdsEquityInfoQueryParams, data: List[Dict[str, Any]], **kwargs: Any) -> List[MdsEquityInfoData]:
        return [MdsEquityInfoData.model_validate(r) for r in data]
