"""The pages over a real socket: the front page, the web client's files, the documents,
the rules reference route, and the start-up log line naming the URL."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import msgspec
import pytest
from support_servers import ServerProcess, start_server

from packplay.server.http.pages import public_url, web_folder
from packplay.server.storage.embedded import EmbeddedRedis
from packplay_protocol import rules
from packplay_protocol.asyncapi import asyncapi_document
from packplay_protocol.problems import PROBLEM_MEDIA_TYPE, Problem

REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture
async def http(servers: list[ServerProcess]) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=servers[0].url) as client:
        yield client


async def test_the_front_page_says_what_the_server_is_and_links_documents(http: httpx.AsyncClient) -> None:
    page = await http.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "Packplay" in page.text and "Day vs Night" in page.text
    links = set(re.findall(r'href="(/[^"#]*)', page.text))
    wanted = {"/play/", "/docs/protocol.md", "/v2/openapi.json", "/docs/asyncapi.json"}
    wanted |= {"/v2/health", "/v2/metrics"}
    assert wanted <= links
    for link in links:
        assert (await http.get(link)).status_code == 200, link


async def test_play_serves_the_web_client_and_the_sdk_it_imports(http: httpx.AsyncClient) -> None:
    moved = await http.get("/play")
    assert (moved.status_code, moved.headers["location"]) == (308, "/play/")
    index = await http.get("/play/")
    assert index.status_code == 200 and '<script type="module" src="app.js">' in index.text
    app = await http.get("/play/app.js")
    assert app.headers["content-type"].startswith("text/javascript")
    imported = set(re.findall(r'from "\./([^"]+)"', app.text))
    assert "sdk/index.js" in imported
    for path in imported:
        assert (await http.get(f"/play/{path}")).status_code == 200, path
    sdk = await http.get("/play/sdk/index.js")
    assert sdk.text == (REPOSITORY / "clients/js/src/index.js").read_text()


async def test_nothing_outside_the_web_folder_is_served(http: httpx.AsyncClient) -> None:
    for path in ("/play/../pyproject.toml", "/play/sdk/../../../../../pyproject.toml", "/play/%2e%2e/app.py"):
        assert (await http.get(path)).status_code == 404, path


async def test_the_documents_are_the_protocol_s(http: httpx.AsyncClient) -> None:
    asyncapi = await http.get("/docs/asyncapi.json")
    expected = msgspec.json.decode(msgspec.json.encode(asyncapi_document()))
    assert msgspec.json.decode(asyncapi.content) == expected
    guide = await http.get("/docs/protocol.md")
    assert guide.headers["content-type"].startswith("text/markdown")
    assert guide.text == (REPOSITORY / "protocol/README.md").read_text()


@pytest.mark.parametrize("language", ["en", "fr", "es"])
@pytest.mark.parametrize("page", rules.PAGES)
async def test_every_rules_page_is_served_as_markdown(
    http: httpx.AsyncClient, page: str, language: str
) -> None:
    response = await http.get(f"/v2/rules/{page}", params={"lang": language})
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/markdown; charset=utf-8"
    assert response.text == rules.text(page, language)


async def test_rules_default_to_english_and_refuse_unknown_pages(http: httpx.AsyncClient) -> None:
    assert (await http.get("/v2/rules/common")).text == rules.text("common", "en")
    for path, status, code in (
        ("/v2/rules/chess", 404, "not_found"),
        ("/v2/rules/common?lang=de", 404, "not_found"),
        ("/v2/rules/common?lang=english", 422, "validation_failed"),
        ("/v2/rules/Common", 404, "not_found"),
    ):
        response = await http.get(path)
        assert response.status_code == status, path
        assert response.headers["content-type"] == PROBLEM_MEDIA_TYPE
        assert msgspec.json.decode(response.content, type=Problem).code == code


def test_the_start_up_log_names_the_url_to_open(redis_server: EmbeddedRedis, tmp_path: Path) -> None:
    server = start_server(redis_server.url, tmp_path, PACKPLAY_LOG_LEVEL="info")
    try:
        text = server.log.read_text()
    finally:
        server.stop()
    lines = [line for line in text.splitlines() if "Packplay is serving" in line]
    assert lines, text
    assert f"{server.url}/ " in lines[0] and f"{server.url}/play/" in lines[0]


def test_a_wildcard_address_is_shown_as_this_machine() -> None:
    assert public_url("0.0.0.0", 8000) == "http://127.0.0.1:8000/"
    assert public_url("::1", 9) == "http://[::1]:9/"
    assert public_url("example.org", 80) == "http://example.org:80/"


def test_the_web_files_ship_with_the_package() -> None:
    folder = web_folder()
    names = ("home.html", "protocol.md", "play/index.html", "play/app.js", "play/sdk/index.js")
    for name in (*names, "play/vendor/marked.esm.js"):
        assert (folder / name).is_file(), name
    games = {path.stem for path in (folder / "play/games").glob("*.js")}
    assert games == {"day_night", "mishra_factory", "wedding_planner", "base_race"}
