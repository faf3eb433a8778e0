"""The client's core: configuration, request targets, the walk over a collection's pages."""

from __future__ import annotations

import datetime
import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple, TypeVar, Union
from urllib.parse import quote

import httpx
import pandas as pd

from . import _arrow
from ._frames import frame
from ._http import DiskCache, MdsError, Session, Stored

__version__ = "0.1.0"

#: A date or time parameter: ``"2026-11-20"``, ``"20261120"`` (Tushare's form), a ``datetime.date``, a
#: ``datetime.datetime`` or a ``pandas.Timestamp`` (naive: market time, UTC+8; a naive midnight is the day).
DateLike = Union[str, datetime.date, datetime.datetime]

DEFAULT_URL = "http://127.0.0.1:8080"
#: Parameters that take a date or a time.
DATE_PARAMETERS = frozenset({"from", "to", "date", "as_of"})
#: Walks started again because the data changed under them, before giving up.
RESTARTS = 3
Self = TypeVar("Self", bound="BaseClient")


def parameter(name: str, value: Any) -> str:
    """A query value as the API reads it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime.datetime):
        # A naive midnight (pd.Timestamp("2026-11-20"), a DataFrame's dates) means the day: as `to`, all of it.
        if value.tzinfo is None and value.time() == datetime.time():
            return value.date().isoformat()
        return value.isoformat()
    if isinstance(value, datetime.date):
        return value.isoformat()
    text = str(value)
    if name in DATE_PARAMETERS and re.fullmatch(r"\d{8}", text):
        return f"{text[:4]}-{text[4:6]}-{text[6:]}"
    return text


@dataclass
class Page:
    """One page of a collection: its records (JSON) or columns (Arrow: a ``pyarrow.Table``), the next page, its version."""

    records: Optional[List[Dict[str, Any]]]
    frame: Optional[Any]
    next: Optional[str]
    version: Optional[int]
    cursor_version: Optional[int]


class BaseClient:
    """Connection, retries, cache and paging; ``Operations`` (generated) and ``Client`` build on it."""

    def __init__(
        self,
        base_url: Optional[str] = None,
        key: Optional[str] = None,
        *,
        exact: bool = False,
        cache_dir: Union[str, Path, None] = None,
        retries: int = 4,
        backoff: float = 0.5,
        max_wait: float = 60.0,
        timeout: float = 30.0,
        page_size: int = 1000,
        arrow: Optional[bool] = None,
        transport: Optional[httpx.BaseTransport] = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """
        Args:
            base_url: The server (``http://host:8080``; a trailing ``/api/v1`` is allowed); default
                ``MDS_URL``, else http://127.0.0.1:8080.
            key: The API key; default ``MDS_KEY``.
            exact: Decimals (prices, money, ratios) as ``decimal.Decimal`` instead of float64.
            cache_dir: Keep pages on disk there, by data version (see the module's docs).
            retries: Further tries after a 429, a 503 or a failed connection.
            backoff: The first wait when the server gives no Retry-After (doubling each try).
            max_wait: The longest wait; a Retry-After asking for more raises at once.
            timeout: Seconds to wait for the server per request.
            page_size: Rows per request (1..1000).
            arrow: Ask for Arrow pages (None: when pyarrow is importable).
            transport: An httpx transport (tests, proxies).
            sleep: How to wait between tries (tests record the waits instead).
        """
        url = (base_url or os.environ.get("MDS_URL") or DEFAULT_URL).rstrip("/")
        self.base_url = url[: -len("/api/v1")] if url.endswith("/api/v1") else url
        key = key if key is not None else os.environ.get("MDS_KEY")
        headers = {"User-Agent": f"mds-client-python/{__version__}"}
        if key:
            headers["X-API-Key"] = key
        self.exact = exact
        self.page_size = page_size
        if arrow and not _arrow.available():
            raise ImportError("arrow=True needs pyarrow (pip install pyarrow)")
        self.arrow = _arrow.available() if arrow is None else arrow
        self._http = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout, transport=transport)
        self._session = Session(self._http, retries=retries, backoff=backoff, max_wait=max_wait, sleep=sleep)
        self._cache = DiskCache(Path(cache_dir), self.base_url) if cache_dir is not None else None
        #: Each instrument's kind (equity, index, fund) once a call has found it.
        self._kinds: Dict[str, str] = {}

    @property
    def requests(self) -> int:
        """HTTP requests this client has sent (retries and version checks included)."""
        return self._session.sent

    def close(self) -> None:
        self._http.close()

    def __enter__(self: Self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- targets and single answers ------------------------------------------------------------

    def _target(self, path: str, path_params: Mapping[str, Any], query: Mapping[str, Any], page_size: Optional[int] = None) -> str:
        for name, value in path_params.items():
            path = path.replace("{" + name + "}", quote(str(value), safe=""))
        pairs = [(k, parameter(k, v)) for k, v in query.items() if v is not None]
        if page_size is not None:
            pairs.append(("page[size]", str(page_size)))
        return path + ("?" + "&".join(f"{k}={quote(v, safe='')}" for k, v in pairs) if pairs else "")

    def _resource(self, path: str, path_params: Mapping[str, Any], query: Mapping[str, Any]) -> Dict[str, Any]:
        response = self._session.get(self._target(path, path_params, query), {"Accept": "application/json"})
        if response.status_code != 200:
            raise MdsError.of(response)
        body: Dict[str, Any] = response.json()
        data = body.get("data")
        return data if isinstance(data, dict) else body

    def _events(
        self, path: str, path_params: Mapping[str, Any], query: Mapping[str, Any], *, timeout: float, duration: Optional[float]
    ) -> Iterator[Dict[str, Any]]:
        """The records of an event stream as they come, resumed after a disconnect (``_events.events``)."""
        from ._events import events

        s = self._session
        target = self._target(path, path_params, query)
        return events(self._http, target, timeout=timeout, duration=duration, retries=s.retries, backoff=s.backoff, max_wait=s.max_wait, sleep=s.sleep)

    # -- collections ---------------------------------------------------------------------------

    def _collection(
        self,
        path: str,
        path_params: Mapping[str, Any],
        query: Mapping[str, Any],
        record: str,
        *,
        page_size: Optional[int] = None,
        limit: Optional[int] = None,
        exact: Optional[bool] = None,
    ) -> pd.DataFrame:
        """Every page of a collection (or the first `limit` rows) as one typed DataFrame; its
        ``attrs["data_version"]`` is the data version every page was read at."""
        from ._generated import RECORDS

        exact = self.exact if exact is None else exact
        size = page_size or self.page_size
        if limit is not None:
            size = max(1, min(size, limit))
        pages, version = self._walk(self._target(path, path_params, query, size), limit)
        tables = [p.frame for p in pages if p.frame is not None]
        if tables:
            df = _arrow.frame(tables, RECORDS[record], exact)
            df = df.iloc[:limit] if limit is not None else df
        else:
            rows = [r for p in pages for r in p.records or []]
            df = frame(rows[:limit] if limit is not None else rows, RECORDS[record], exact)
        df.attrs["data_version"] = version
        return df

    def _walk(self, target: str, limit: Optional[int]) -> Tuple[List[Page], Optional[int]]:
        """The pages of a collection from `target` on, all of one data version: a walk that meets
        another version (a commit between its pages) is started again, up to ``RESTARTS`` times."""
        for _ in range(RESTARTS + 1):
            known = self._version() if self._cache is not None else None
            pages: List[Page] = []
            url: Optional[str] = target
            rows = 0
            while url:
                page = self._page(url, known)
                if page.cursor_version is not None or (pages and page.version != pages[0].version):
                    break
                pages.append(page)
                rows += len(page.records) if page.records is not None else len(page.frame) if page.frame is not None else 0
                url = None if limit is not None and rows >= limit else page.next
            else:
                return pages, pages[0].version if pages else None
        raise MdsError(409, "data_changed", f"the data changed during each of {RESTARTS + 1} walks of {target}")

    def _version(self) -> Optional[int]:
        """The store's data version now: a 304 to ``If-None-Match: *`` says it without a body."""
        response = self._session.get("/api/v1/markets", {"If-None-Match": "*"})
        if response.status_code not in (200, 304):
            raise MdsError.of(response)
        value = response.headers.get("data-version")
        return int(value) if value is not None else None

    def _page(self, target: str, version: Optional[int]) -> Page:
        accept = _arrow.accept(self.arrow)
        if self._cache is not None and version is not None:
            stored = self._cache.get(version, target, accept)
            if stored is not None:
                return self._read(stored, version, None)
        response = self._session.get(target, {"Accept": accept})
        if response.status_code != 200:
            raise MdsError.of(response)
        v = response.headers.get("data-version")
        cv = response.headers.get("data-version-cursor")
        stored = Stored(response.headers.get("content-type", ""), _next_link(response), response.content)
        got = int(v) if v is not None else None
        if self._cache is not None and got is not None and cv is None:
            self._cache.put(got, target, accept, stored)
        return self._read(stored, got, int(cv) if cv is not None else None)

    def _read(self, stored: Stored, version: Optional[int], cursor_version: Optional[int]) -> Page:
        if _arrow.is_arrow(stored.content_type):
            return Page(None, _arrow.read(stored.body), stored.link, version, cursor_version)
        body = json.loads(stored.body)
        return Page(body["data"], None, (body.get("links") or {}).get("next"), version, cursor_version)


def _next_link(response: httpx.Response) -> Optional[str]:
    """A file's next page: ``Link: <url>; rel="next"``."""
    link = response.headers.get("link")
    if not link:
        return None
    m = re.search(r'<([^>]+)>\s*;\s*rel="?next"?', link)
    return m.group(1) if m else None
