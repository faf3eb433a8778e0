"""Apache Arrow pages: asked for when pyarrow is importable, read when the server answers one.

The server does not serve Arrow yet (it answers JSON, which the client reads as always); once it
does, a collection's pages come as Arrow IPC streams with typed columns and this module reads them.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any, Optional

import pandas as pd

from ._frames import MARKET_TZ

MEDIA_TYPE = "application/vnd.apache.arrow.stream"


def available() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def accept(arrow: bool) -> str:
    """The Accept header of a collection's page: Arrow first when the client reads it, JSON anyway."""
    return f"{MEDIA_TYPE}, application/json;q=0.9" if arrow else "application/json"


def is_arrow(content_type: Optional[str]) -> bool:
    return (content_type or "").split(";")[0].strip().lower() == MEDIA_TYPE


def to_frame(body: bytes) -> pd.DataFrame:
    """An Arrow stream as pyarrow makes it a DataFrame (decimal128 as ``Decimal``, date32 as dates)."""
    import pyarrow as pa

    return pa.ipc.open_stream(pa.py_buffer(body)).read_all().to_pandas()


def typed(df: pd.DataFrame, exact: bool) -> pd.DataFrame:
    """Columns typed as the JSON path types them: decimals float64 unless exact, dates datetime64,
    timestamps in Asia/Shanghai."""
    for name in df.columns:
        df[name] = _column(df[name], exact)
    return df


def _column(col: "pd.Series[Any]", exact: bool) -> Any:
    first = next((v for v in col if v is not None), None)
    if isinstance(first, Decimal):
        return col if exact else col.map(lambda v: float("nan") if v is None else float(v)).astype("float64")
    if isinstance(first, datetime.date) and not isinstance(first, datetime.datetime):
        return pd.to_datetime(col)
    if isinstance(col.dtype, pd.DatetimeTZDtype):
        return col.dt.tz_convert(MARKET_TZ)
    return col
