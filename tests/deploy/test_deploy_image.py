"""The server image: deploy/Dockerfile linted by hadolint, its stages, its build context
(the root .dockerignore, read the way the Docker tooling reads it), and its health check
run against a real server.

No container engine runs here, so nothing is built: what is checked is everything a
build and a run depend on short of the engine.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from deploy_files import DOCKERFILE, ROOT, hadolint, project_version
from docker.utils.build import exclude_paths
from dockerfile_parse import DockerfileParser
from support_servers import ServerProcess, start_server

from packplay.server.settings import Settings
from packplay.server.storage.embedded import EmbeddedRedis, free_port

KEPT_OUT = (".venv", ".git", "node_modules", "tests", "load", "clients/js", ".pytest_cache", ".mypy_cache")
CACHE_PARTS = ("__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis", "node_modules")


def instructions() -> list[dict[str, Any]]:
    return [i for i in DockerfileParser(str(DOCKERFILE)).structure if i["instruction"] != "COMMENT"]


def stages() -> list[list[dict[str, Any]]]:
    """The instructions of each stage, in order (global ARGs before the first FROM dropped)."""
    found: list[list[dict[str, Any]]] = []
    for instruction in instructions():
        if instruction["instruction"] == "FROM":
            found.append([])
        if found:
            found[-1].append(instruction)
    return found


def final(name: str) -> list[str]:
    return [i["value"] for i in stages()[-1] if i["instruction"] == name]


def build_context() -> set[str]:
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return set(exclude_paths(str(ROOT), patterns, dockerfile="deploy/Dockerfile"))


def healthcheck_command() -> list[str]:
    (value,) = final("HEALTHCHECK")
    exec_form = value[value.index("CMD") + len("CMD") :].strip()
    command: list[str] = json.loads(exec_form)
    return command


def test_hadolint_finds_nothing_in_the_dockerfile() -> None:
    result = hadolint(DOCKERFILE)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == ""


def test_the_image_is_built_in_two_stages_on_a_slim_base() -> None:
    parser = DockerfileParser(str(DOCKERFILE))
    assert len(stages()) == 2
    assert all("-slim" in image for image in parser.parent_images)
    major, minor = (int(part) for part in parser.parent_images[-1].split(":")[1].split("-")[0].split("."))
    required = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert required == ">=3.11" and (major, minor) >= (3, 11)


def test_the_runtime_stage_installs_the_wheel_built_before_and_no_tools() -> None:
    build, runtime = stages()
    assert any("pip wheel" in i["value"] and "pip install /dist/packplay-" in i["value"] for i in build)
    copies = [i["value"] for i in runtime if i["instruction"] in ("COPY", "ADD")]
    assert copies == ["--from=build /opt/packplay /opt/packplay"]
    runs = " ".join(i["value"] for i in runtime if i["instruction"] == "RUN")
    for tool in ("apt-get", "apk", "pip install", "gcc", "build-essential", "curl", "wget"):
        assert tool not in runs


def test_the_build_stage_makes_the_compiled_build_with_a_compiler_of_its_own() -> None:
    build, _ = stages()
    environment = dict(
        item.split("=", 1)
        for i in build
        if i["instruction"] == "ENV"
        for item in i["value"].replace("\\", " ").split()
    )
    assert environment.get("PACKPLAY_COMPILE") == "1"
    assert any("gcc" in i["value"] for i in build if i["instruction"] == "RUN")


def test_the_image_is_labelled_with_the_project_version() -> None:
    (version,) = [v for v in final("ARG") if v.startswith("VERSION=")]
    assert version == f"VERSION={project_version()}"
    assert any("org.opencontainers.image.version" in label for label in final("LABEL"))


def test_the_image_runs_as_a_numeric_user_that_is_not_root() -> None:
    (user,) = final("USER")
    uid, _, gid = user.partition(":")
    assert uid.isdigit() and int(uid) != 0
    assert gid.isdigit() and int(gid) != 0


def test_the_image_serves_on_all_interfaces_with_json_logs_and_the_default_command() -> None:
    environment = DockerfileParser(str(DOCKERFILE)).envs
    settings = Settings.from_env({k: v for k, v in environment.items() if k.startswith("PACKPLAY_")})
    assert (settings.host, settings.port, settings.log_format) == ("0.0.0.0", 8000, "json")
    assert final("EXPOSE") == [str(settings.port)]
    assert json.loads(final("CMD")[0]) == ["packplay", "serve"]
    assert environment["PATH"].startswith("/opt/packplay/bin:")


def test_the_build_context_holds_the_packages_and_nothing_else() -> None:
    context = build_context()
    for kept_out in KEPT_OUT:
        assert not any(path == kept_out or path.startswith(kept_out + "/") for path in context), kept_out
    assert not any(part in Path(path).parts for path in context for part in CACHE_PARTS)
    assert not any(path.endswith((".pyc", ".egg-info")) for path in context)
    for package in ("server/packplay", "protocol/packplay_protocol", "clients/packplay_clients"):
        assert f"{package}/__init__.py" in context
    assert "server/packplay/cards/data/MID.json" in context


def test_every_file_the_dockerfile_copies_is_in_the_build_context() -> None:
    context = build_context()
    build = stages()[0]
    sources = [
        source
        for i in build
        if i["instruction"] == "COPY"
        for source in shlex.split(i["value"])[:-1]
        if not source.startswith("--")
    ]
    assert sources
    for source in sources:
        assert source in context, source
        assert (ROOT / source).exists(), source


@pytest.fixture(scope="module")
def image_server(
    redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    server = start_server(redis_server.url, tmp_path_factory.mktemp("image"), PACKPLAY_LOG_FORMAT="json")
    yield server
    server.stop()


def run_healthcheck(port: int) -> subprocess.CompletedProcess[str]:
    command = healthcheck_command()
    assert command[0] == "python"
    environ = {**os.environ, "PACKPLAY_PORT": str(port)}
    return subprocess.run(
        [sys.executable, *command[1:]], env=environ, capture_output=True, text=True, timeout=10
    )


def test_the_health_check_passes_against_a_serving_process(image_server: ServerProcess) -> None:
    port = int(image_server.url.rsplit(":", 1)[1])
    result = run_healthcheck(port)
    assert result.returncode == 0, result.stderr
    assert "/v2/health" in " ".join(healthcheck_command())


def test_the_health_check_fails_when_nothing_serves() -> None:
    assert run_healthcheck(free_port()).returncode != 0
