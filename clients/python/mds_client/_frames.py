"""Records of the API's JSON as a DataFrame whose columns are typed by the record's schema."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Dict, List, Mapping, Sequence

import numpy as np
import pandas as pd

#: The market's time zone: every timestamp of the API is market time (+08:00).
MARKET_TZ = "Asia/Shanghai"


def frame(records: Sequence[Mapping[str, Any]], kinds: Mapping[str, str], exact: bool) -> pd.DataFrame:
    """One column per field in the schema's order: decimals as float64 (or ``Decimal`` when
    ``exact``), integers as int64 (``Int64`` with nulls), dates as datetime64, timestamps in
    Asia/Shanghai; a ``decimal_map`` field (indicator values) becomes a column per name."""
    columns: Dict[str, Any] = {}
    for field, kind in kinds.items():
        values = [r.get(field) for r in records]
        if kind == "decimal_map":
            for name in _names(values):
                columns[name if name not in kinds else f"{field}.{name}"] = _decimals([(v or {}).get(name) for v in values], exact)
        else:
            columns[field] = column(values, kind, exact)
    return pd.DataFrame(columns, index=pd.RangeIndex(len(records)))


def column(values: List[Any], kind: str, exact: bool) -> Any:
    """A column of one kind (see ``RECORDS``) from JSON values."""
    if kind == "decimal":
        return _decimals(values, exact)
    if kind == "number":
        return np.array([np.nan if v is None else float(v) for v in values], dtype=np.float64)
    if kind == "integer":
        if any(v is None for v in values):
            return pd.array(values, dtype="Int64")
        return np.array(values, dtype=np.int64)
    if kind == "boolean":
        return pd.array(values, dtype="boolean") if any(v is None for v in values) else np.array(values, dtype=bool)
    if kind == "date":
        return pd.to_datetime(pd.Series(values, dtype=object), format="%Y-%m-%d")
    if kind == "datetime":
        return pd.to_datetime(pd.Series(values, dtype=object), utc=True).dt.tz_convert(MARKET_TZ)
    return pd.Series(values, dtype=object)


def _decimals(values: List[Any], exact: bool) -> Any:
    if exact:
        return pd.Series([None if v is None else Decimal(v) for v in values], dtype=object)
    # float() of the text: the nearest double to the exact decimal, as Python rounds it.
    return np.array([np.nan if v is None else float(v) for v in values], dtype=np.float64)


def _names(maps: List[Any]) -> List[str]:
    seen: Dict[str, None] = {}
    for m in maps:
        for k in m or {}:
            seen.setdefault(k, None)
    return list(seen)
