"""``Client``: every operation (generated) and the calls a notebook wants, one DataFrame each."""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, Iterator, List, Literal, Optional, Union

import pandas as pd

from ._base import DateLike
from ._generated import Operations
from ._http import MdsError

Ids = Union[str, Iterable[str]]
Interval = Literal["1m", "5m", "15m", "30m", "60m", "1d", "1w", "1mo", "1q", "1y"]
Adjustment = Literal["none", "forward", "backward"]
#: The path segment of each kind of instrument.
KINDS = {"equity": "equities", "index": "indices", "fund": "funds"}


def _ids(ids: Ids) -> List[str]:
    return [ids] if isinstance(ids, str) else list(ids)


class Client(Operations):
    """A market-data-service client. ``Client()`` reads ``MDS_URL`` and ``MDS_KEY``.

    Every operation of the API is a method (``list_equity_bars``, ``get_equity``, …: a collection
    comes whole, as one DataFrame with typed columns, its pages walked for you); the calls below
    take several instruments at once and index their rows for analysis.
    """

    def bars(
        self,
        ids: Ids,
        start: Optional[DateLike] = None,
        end: Optional[DateLike] = None,
        interval: Interval = "1d",
        adjustment: Optional[Adjustment] = None,
        *,
        exact: Optional[bool] = None,
    ) -> pd.DataFrame:
        """Bars of one or many instruments (equities, indices or funds) from `start` to `end`
        (inclusive; dates or times, None: from the first or to the last), indexed by
        (instrument_id, time): time is the end of the bar in Asia/Shanghai (15:00 for daily bars).
        Columns trade_date, open, high, low, close, volume, amount."""

        def one(kind: str, id: str) -> pd.DataFrame:
            call = {"equity": self.list_equity_bars, "index": self.list_index_bars, "fund": self.list_fund_bars}[kind]
            return call(id, interval=interval, adjustment=adjustment, from_=start, to=end, exact=exact)

        frames = [self._by_kind(id, one) for id in _ids(ids)]
        df = self._joined(frames, "Bar").drop(columns=["interval", "adjustment"])
        return df.rename(columns={"timestamp": "time"}).set_index(["instrument_id", "time"])

    def market_day(
        self, date: DateLike, market: Optional[str] = None, *, exact: Optional[bool] = None
    ) -> pd.DataFrame:
        """Every instrument's daily bar of a trading day with its reference price, change and
        limits (equities, indices and funds), of one market or all of them, indexed by instrument_id."""
        markets = [market] if market else list(self.list_markets()["id"])
        frames = [self.list_market_bars(m, date=date, exact=exact) for m in markets]
        return self._joined(frames, "MarketBar").set_index("instrument_id")

    def pool(self, name: str, date: DateLike, *, exact: Optional[bool] = None) -> pd.DataFrame:
        """A day's pool (limit_up, limit_down, broken_limit_up, previous_limit_up, strong, sub_new;
        ``list_pool_types()`` says what each holds), indexed by instrument_id."""
        return self.list_pool_constituents(name, date=date, exact=exact).set_index("instrument_id")

    def valuations(
        self,
        ids: Ids,
        start: Optional[DateLike] = None,
        end: Optional[DateLike] = None,
        *,
        exact: Optional[bool] = None,
    ) -> pd.DataFrame:
        """Daily valuations of equities as known at each day's close (PE, PB, PS, dividend yield,
        market values, shares), indexed by (instrument_id, trade_date)."""
        frames = [self.list_valuations(id, from_=start, to=end, exact=exact) for id in _ids(ids)]
        return self._joined(frames, "Valuation").set_index(["instrument_id", "trade_date"])

    def search(self, q: str, kind: Optional[Literal["equity", "index", "fund"]] = None) -> pd.DataFrame:
        """Instruments by code, id, name or pinyin initials (``gzmt``), best first, indexed by id."""
        return self.search_instruments(q=q, kind=kind).set_index("id")

    def events(
        self,
        after: Optional[int] = None,
        dataset: Optional[str] = None,
        instrument_id: Optional[str] = None,
        *,
        timeout: float = 60.0,
        duration: Optional[float] = None,
    ) -> Iterator[Dict[str, Any]]:
        """Each committed data version as it comes, once and in order: the records ``/changes``
        lists (``version``, ``committed_at``, ``origin``, ``changes``), from the versions after
        `after` (None: from now) and those of `dataset` or `instrument_id` alone when given. A
        stream that ends or falls silent for `timeout` seconds is opened again after the last
        version received (Last-Event-ID), so a restart of the server misses nothing; with
        `duration`, the iteration stops after about that many seconds (else break out of it).

        ``for v in mds.events(after=mds.list_changes().version.max()): print(v["version"])``"""
        return self.stream_events(after=after, dataset=dataset, instrument_id=instrument_id, timeout=timeout, duration=duration)

    # -- helpers ---------------------------------------------------------------------------------

    def _by_kind(self, id: str, call: Callable[[str, str], pd.DataFrame]) -> pd.DataFrame:
        """`call(kind, id)` for the instrument's kind: tried as an equity first (the API's 404 for
        another kind's id), then as the kind a search names; remembered per client."""
        known = self._kinds.get(id)
        try:
            df = call(known or "equity", id)
        except MdsError as e:
            if e.status != 404 or known is not None:
                raise
            found = self.search_instruments(q=id, kind=None)
            kinds = found.loc[found["id"] == id, "kind"]
            if kinds.empty or kinds.iloc[0] == "equity":
                raise
            known = str(kinds.iloc[0])
            df = call(known, id)
        self._kinds[id] = known or "equity"
        return df

    def _joined(self, frames: List[pd.DataFrame], record: str) -> pd.DataFrame:
        """Frames of one record concatenated (the record's empty frame when there are none)."""
        from ._frames import frame
        from ._generated import RECORDS

        versions = [f.attrs.get("data_version") for f in frames]
        kept = [f for f in frames if len(f)]
        df = pd.concat(kept, ignore_index=True) if kept else frame([], RECORDS[record], self.exact)
        df.attrs["data_version"] = max((v for v in versions if v is not None), default=None)
        return df
