"""Retries on 429 and 503, against a local stub that answers a scripted sequence (no live server)."""

from __future__ import annotations

from typing import List

import pytest

from mds_client import Client, MdsError

from .conftest import Stub

MARKETS = {
    "data": [{"id": "SH", "name": "Shanghai Stock Exchange", "name_local": "上海证券交易所", "mic": "XSHG",
              "timezone": "Asia/Shanghai", "currency": "CNY", "opened": "1990-12-19"}],
    "meta": {"next_cursor": None},
    "links": {"self": "/api/v1/markets", "next": None},
}  # fmt: skip


def error(status: int, code: str) -> dict:
    return {"errors": [{"status": str(status), "code": code, "title": code, "detail": f"{code} (stub)"}], "meta": {"request_id": "stub"}}


def test_waits_as_retry_after_says_then_backs_off(stub: Stub) -> None:
    stub.answers = [(429, {"Retry-After": "2"}, error(429, "rate_limited")), (503, {}, error(503, "not_ready")), (200, {}, MARKETS)]
    waits: List[float] = []
    with Client(stub.url, "k", sleep=waits.append, backoff=0.25) as client:
        markets = client.list_markets()
    assert waits == [2.0, 0.5]  # Retry-After: 2; then no Retry-After: 0.25 doubled on the second try
    assert markets["id"].tolist() == ["SH"] and markets["mic"].tolist() == ["XSHG"]
    assert len(stub.seen) == 3 and client.requests == 3


def test_gives_up_after_the_retries_with_the_apis_error(stub: Stub) -> None:
    stub.answers = [(503, {}, error(503, "not_ready"))]
    waits: List[float] = []
    with Client(stub.url, "k", sleep=waits.append, retries=3, backoff=0.5) as client:
        with pytest.raises(MdsError) as failed:
            client.list_markets()
    assert waits == [0.5, 1.0, 2.0] and len(stub.seen) == 4
    assert failed.value.status == 503 and failed.value.code == "not_ready" and failed.value.request_id == "stub"


def test_a_retry_after_beyond_max_wait_raises_at_once(stub: Stub) -> None:
    stub.answers = [(429, {"Retry-After": "3600"}, error(429, "rate_limited")), (200, {}, MARKETS)]
    waits: List[float] = []
    with Client(stub.url, "k", sleep=waits.append, max_wait=60) as client:
        with pytest.raises(MdsError) as failed:
            client.list_markets()
    assert waits == [] and len(stub.seen) == 1
    assert failed.value.status == 429 and failed.value.retry_after == 3600.0


def test_other_errors_are_not_retried(stub: Stub) -> None:
    stub.answers = [(400, {}, error(400, "invalid_parameter")), (200, {}, MARKETS)]
    waits: List[float] = []
    with Client(stub.url, "k", sleep=waits.append) as client:
        with pytest.raises(MdsError) as failed:
            client.list_markets()
    assert waits == [] and len(stub.seen) == 1 and failed.value.code == "invalid_parameter"


def test_the_key_and_the_page_size_are_sent(stub: Stub) -> None:
    stub.answers = [(200, {}, MARKETS)]
    with Client(stub.url + "/api/v1/", "my-key", page_size=7) as client:
        client.list_markets()
    assert stub.seen == ["/api/v1/markets?page[size]=7"] and stub.keys == ["my-key"]
