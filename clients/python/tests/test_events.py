"""``Client.events``: the event stream as an iterator, on the live server (replay, live versions,
filters, `duration`) and against a stub that ends its streams (resumed with Last-Event-ID, a 503
retried, `event: dropped` resumed after the version it names, a revoked key raised)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, Dict, List

import httpx
import pytest

from mds_client import Client, MdsError

from .conftest import Server, Stub


def version_now(api: httpx.Client) -> int:
    return int(api.get("/api/v1/markets").headers["data-version"])


def commit_classification(server: Server, tmp: Path, n: int) -> None:
    """A new data version: one classification row (`classifications`), no bars touched."""
    file = tmp / f"classification-{n}.csv"
    file.write_text(f"id,name,type\nconcept.events_{n},事件{n},concept\n")
    server.mds("ingest", "classifications", str(file))


def commit_trading_day(server: Server, tmp: Path) -> None:
    """A new data version of another dataset: a trading day loaded (closed)."""
    file = tmp / "trading-day.csv"
    file.write_text("market,date,is_open\nSH,2026-12-31,0\n")
    server.mds("ingest", "trading_days", str(file))


def test_replays_after_a_version_then_yields_new_ones_as_they_commit(server: Server, api: httpx.Client, tmp_path: Path) -> None:
    v0 = version_now(api)
    commit_classification(server, tmp_path, 1)
    got: List[Dict[str, Any]] = []
    failed: List[BaseException] = []

    def read() -> None:
        try:
            with Client(server.url, server.key) as client:
                for record in client.events(after=v0, duration=60):
                    got.append(record)
                    if len(got) == 2:
                        break
        except BaseException as e:  # noqa: BLE001 - handed to the test's thread
            failed.append(e)

    reader = threading.Thread(target=read)
    reader.start()
    commit_classification(server, tmp_path, 2)
    reader.join(90)
    assert not reader.is_alive() and failed == []
    assert [r["version"] for r in got] == [v0 + 1, v0 + 2]
    assert got[0]["changes"] == [{"dataset": "classifications", "rows": 1, "instruments": "all", "from": None, "to": None}]
    assert got[1]["origin"].startswith("ingest")
    # The records are the change log's.
    logged = api.get("/api/v1/changes", params={"after": v0}).json()["data"]
    assert got == logged[:2]


def test_yields_only_the_versions_of_a_dataset_and_stops_after_the_duration(server: Server, api: httpx.Client, tmp_path: Path) -> None:
    v0 = version_now(api)
    commit_classification(server, tmp_path, 3)
    commit_trading_day(server, tmp_path)
    with Client(server.url, server.key) as client:
        got = list(client.events(after=v0, dataset="trading_days", duration=2))
    assert [r["version"] for r in got] == [v0 + 2]
    assert [c["dataset"] for c in got[0]["changes"]] == ["trading_days"]


SSE = {"Content-Type": "text/event-stream; charset=utf-8"}


def version(v: int) -> str:
    record = {"version": v, "committed_at": "2026-11-28T09:00:00+08:00", "origin": "stub", "changes": []}
    return f"id: {v}\nevent: version\ndata: {json.dumps(record)}\n\n"


def test_resumes_with_the_last_event_id_until_a_revoked_key_ends_it(stub: Stub) -> None:
    unavailable = json.dumps({"errors": [{"status": "503", "code": "not_ready", "title": "t", "detail": "starting"}]})
    revoked = json.dumps({"code": "invalid_api_key", "detail": "the API key of this stream was revoked"})
    stub.answers = [
        (200, SSE, "retry: 10\n\n: heartbeat 4\n\n" + version(5)),  # the stream ends (a server closing)
        (503, {"Content-Type": "application/json", "Retry-After": "1"}, unavailable),
        (200, SSE, version(6) + 'event: dropped\ndata: {"after": 6}\n\n'),
        (200, SSE, version(7) + f"event: error\ndata: {revoked}\n\n"),
    ]
    waits: List[float] = []
    got: List[int] = []
    with Client(stub.url, "k", sleep=waits.append) as client:
        with pytest.raises(MdsError) as failed:
            for record in client.events(after=4, timeout=5):
                got.append(record["version"])
    assert got == [5, 6, 7]
    assert stub.last_ids == [None, "5", "5", "6"]
    assert waits == [0.01, 1.0, 0.01]  # the server's `retry`; then the 503's Retry-After; then `retry` again
    assert failed.value.code == "invalid_api_key"


def test_other_answers_than_200_raise(stub: Stub) -> None:
    stub.answers = [(401, {"Content-Type": "application/json"}, json.dumps({"errors": [{"code": "invalid_token", "detail": "expired"}]}))]
    with Client(stub.url, "k") as client:
        with pytest.raises(MdsError) as failed:
            next(client.events())
    assert failed.value.status == 401 and failed.value.code == "invalid_token" and stub.last_ids == [None]
