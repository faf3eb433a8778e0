"""Apache Arrow pages: asked for when pyarrow is importable, read into the frame the JSON path makes.

A collection's Arrow answer (docs/api.md, "Arrow") holds the JSON record's fields as typed columns:
decimals decimal128 of the field's scale, dates date32, times timestamp[s, Asia/Shanghai], counts
int64, nested fields as ``parent.child`` (an indicator's values as ``values.<key>``), arrays as their
JSON text. ``frame`` turns the pages into the DataFrame ``_frames.frame`` makes of the same records
as JSON, column for column and dtype for dtype, so a caller cannot tell which was asked for.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Mapping, Sequence

import pandas as pd

from ._frames import column

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


def is_arrow(content_type: str | None) -> bool:
    return (content_type or "").split(";")[0].strip().lower() == MEDIA_TYPE


def read(body: bytes) -> Any:
    """An Arrow IPC stream as a ``pyarrow.Table``."""
    import pyarrow as pa

    return pa.ipc.open_stream(pa.py_buffer(body)).read_all()


def frame(tables: Sequence[Any], kinds: Mapping[str, str], exact: bool) -> pd.DataFrame:
    """The pages' tables as one DataFrame typed as ``_frames.frame`` types the JSON records."""
    import pyarrow as pa

    table = pa.concat_tables(tables) if len(tables) > 1 else tables[0]
    columns: Dict[str, Any] = {}
    for name, col in zip(table.column_names, table.columns):
        parent, _, key = name.partition(".")
        if key and kinds.get(parent) == "decimal_map":
            # A key no point has is no column from JSON either.
            if col.null_count == len(col):
                continue
            columns[key if key not in kinds else name] = column(col.to_pylist(), "decimal", exact)
        else:
            kind = kinds.get(name, "string")
            columns[name] = column(_json_values(col, kind), kind, exact)
    return pd.DataFrame(columns, index=pd.RangeIndex(table.num_rows))


def _json_values(col: Any, kind: str) -> List[Any]:
    """A column's values as the JSON answer has them (decimals as ``Decimal``, which ``column`` takes alike)."""
    values = col.to_pylist()
    if kind in ("date", "datetime"):
        return [None if v is None else v.isoformat() for v in values]
    if kind in ("list", "object"):
        return [None if v is None else json.loads(v) for v in values]
    return values
