"""The Kubernetes manifests: every resource against the API's strict schemas for each
Kubernetes minor from 1.29 on (kubernetes-validate), the references between them, the
drain on SIGTERM, the settings (parsed by the server's own code and served by a real
process), and the bundled Valkey configuration (run on a real Valkey)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from deploy_files import (
    K8S,
    KUSTOMIZATIONS,
    SETTINGS_ENV,
    VALKEY_CONF,
    documents,
    env_file,
    kubernetes_versions,
    kustomization_files,
    load_yaml,
    manifests,
    one,
    project_version,
    resources,
    schema_errors,
    valkey,
)
from support_servers import start_server

from packplay.server.runtime import DRAIN_TIMEOUT
from packplay.server.settings import ENV_PREFIX, Settings
from packplay.server.storage.embedded import EmbeddedRedis

IMAGE = "ghcr.io/OWNER/packplay"
UVICORN_GRACEFUL_SHUTDOWN = 10
"""Seconds uvicorn waits for requests in flight after SIGTERM (packplay.server.main)."""
SERVER = {"app.kubernetes.io/name": "packplay", "app.kubernetes.io/component": "server"}


def container() -> dict[str, Any]:
    (found,) = one("Deployment", "packplay")["spec"]["template"]["spec"]["containers"]
    spec: dict[str, Any] = found
    return spec


def pod_spec() -> dict[str, Any]:
    spec: dict[str, Any] = one("Deployment", "packplay")["spec"]["template"]["spec"]
    return spec


def test_every_manifest_passes_the_strict_api_schemas_of_each_kubernetes_version() -> None:
    docs = [doc for path in manifests() for doc in documents(path)]
    kinds = {doc["kind"] for doc in docs}
    assert {"Deployment", "Service", "Ingress", "HorizontalPodAutoscaler", "PodDisruptionBudget"} <= kinds
    assert {"StatefulSet", "NetworkPolicy"} <= kinds
    versions = kubernetes_versions()
    assert versions[0] == "1.29" and len(versions) >= 5
    assert list(schema_errors(docs, versions)) == []


def test_the_schema_check_catches_a_wrong_api_version_and_a_misspelt_field() -> None:
    deployment = one("Deployment", "packplay")
    assert list(schema_errors([{**deployment, "apiVersion": "apps/v2"}], ["1.30"]))
    misspelt = {**deployment, "spec": {**deployment["spec"], "replica": 2}}
    assert list(schema_errors([misspelt], ["1.30"]))


def test_every_file_a_kustomization_names_exists_and_every_file_is_named() -> None:
    named = {path for k in KUSTOMIZATIONS for path in kustomization_files(k)}
    for path in named:
        assert path.exists(), path
    files = {p.resolve() for p in K8S.rglob("*") if p.is_file() and p.name != "kustomization.yaml"}
    assert files <= named, sorted(str(p) for p in files - named)


def test_the_image_is_a_registry_placeholder_set_to_the_project_version() -> None:
    assert container()["image"] == f"{IMAGE}:VERSION"
    (image,) = load_yaml(K8S / "base" / "kustomization.yaml")["images"]
    assert image == {"name": IMAGE, "newTag": project_version()}


def test_probes_use_readiness_and_health_endpoints() -> None:
    spec = container()
    assert spec["readinessProbe"]["httpGet"] == {"path": "/v2/ready", "port": "http"}
    assert spec["livenessProbe"]["httpGet"] == {"path": "/v2/health", "port": "http"}
    assert spec["startupProbe"]["httpGet"] == {"path": "/v2/health", "port": "http"}
    assert spec["ports"] == [{"name": "http", "containerPort": 8000}]
    assert {"requests", "limits"} <= set(spec["resources"])


def test_a_stopping_pod_is_given_time_to_drain() -> None:
    command = container()["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep"
    pre_stop = int(command[1])
    assert pre_stop >= 5
    needed = pre_stop + Settings().drain_delay + DRAIN_TIMEOUT + UVICORN_GRACEFUL_SHUTDOWN
    assert pod_spec()["terminationGracePeriodSeconds"] > needed


def test_the_pod_runs_unprivileged_on_a_read_only_root() -> None:
    spec = pod_spec()
    assert spec["securityContext"]["runAsNonRoot"] is True
    assert spec["securityContext"]["runAsUser"] == 10001
    security = container()["securityContext"]
    assert security["readOnlyRootFilesystem"] is True
    assert security["allowPrivilegeEscalation"] is False
    assert security["capabilities"]["drop"] == ["ALL"]


def test_service_links_are_off_since_they_would_clash_with_the_settings() -> None:
    # A Service named "packplay" would inject PACKPLAY_PORT=tcp://...: not a port.
    with pytest.raises(ValueError):
        Settings.from_env({"PACKPLAY_PORT": "tcp://10.0.0.1:80"})
    assert pod_spec()["enableServiceLinks"] is False


def test_redis_url_comes_from_the_secret_and_nowhere_else() -> None:
    (redis_url,) = [e for e in container()["env"] if e["name"] == "REDIS_URL"]
    assert redis_url["valueFrom"]["secretKeyRef"] == {"name": "packplay-redis", "key": "REDIS_URL"}
    settings = env_file(SETTINGS_ENV)
    assert "REDIS_URL" not in settings and "PACKPLAY_REDIS_URL" not in settings
    (secret,) = load_yaml(K8S / "redis" / "kustomization.yaml")["secretGenerator"]
    assert secret["name"] == "packplay-redis"
    assert Settings.from_env(dict(s.split("=", 1) for s in secret["literals"])).redis_url == (
        "redis://packplay-redis:6379/0"
    )


def test_service_pdb_and_autoscaler_select_the_server_pods() -> None:
    deployment = one("Deployment", "packplay")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"] == SERVER and SERVER.items() <= labels.items()
    assert "replicas" not in deployment["spec"], "the autoscaler owns the replica count"
    assert one("Service", "packplay")["spec"]["selector"] == SERVER
    assert one("PodDisruptionBudget", "packplay")["spec"]["selector"]["matchLabels"] == SERVER
    hpa = one("HorizontalPodAutoscaler", "packplay")["spec"]
    assert hpa["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "packplay"}
    assert hpa["minReplicas"] >= 2
    redis_pods = one("StatefulSet", "packplay-redis")["spec"]["template"]["metadata"]["labels"]
    assert not SERVER.items() <= redis_pods.items(), "the server Service must not select the store"


def test_the_ingress_routes_to_the_service_with_websocket_timeouts() -> None:
    ingress = one("Ingress", "packplay")
    annotations = ingress["metadata"]["annotations"]
    for timeout in ("proxy-read-timeout", "proxy-send-timeout"):
        assert int(annotations[f"nginx.ingress.kubernetes.io/{timeout}"]) >= 3600
    assert ingress["spec"]["ingressClassName"] == "nginx"
    (rule,) = ingress["spec"]["rules"]
    (path,) = rule["http"]["paths"]
    assert path["backend"]["service"] == {"name": "packplay", "port": {"name": "http"}}
    (port,) = one("Service", "packplay")["spec"]["ports"]
    assert port["name"] == "http" and port["targetPort"] == "http"


def test_every_setting_in_the_config_map_is_a_server_setting() -> None:
    settings = env_file(SETTINGS_ENV)
    fields = {ENV_PREFIX + name.upper() for name in Settings.__dataclass_fields__}
    assert set(settings) <= fields
    parsed = Settings.from_env(settings)
    assert (parsed.workers, parsed.log_format) == (1, "json")
    (config_map,) = load_yaml(K8S / "base" / "kustomization.yaml")["configMapGenerator"]
    (ref,) = container()["envFrom"]
    assert ref == {"configMapRef": {"name": config_map["name"]}}


def test_a_server_with_the_config_map_settings_becomes_ready(
    redis_server: EmbeddedRedis, tmp_path: Path
) -> None:
    server = start_server(redis_server.url, tmp_path, **env_file(SETTINGS_ENV))
    try:
        assert httpx.get(server.url + "/v2/ready").json()["ready"] is True
        assert httpx.get(server.url + "/v2/health").status_code == 200
    finally:
        server.stop()


@pytest.fixture
def bundled_valkey() -> Iterator[redis.Redis]:
    """The embedded Valkey run with the bundled store's valkey.conf."""
    with valkey(str(VALKEY_CONF)) as (client, _):
        yield client


def test_the_bundled_valkey_config_is_durable_and_never_evicts(bundled_valkey: redis.Redis) -> None:
    config = bundled_valkey.config_get("*")
    assert (config["appendonly"], config["appendfsync"]) == ("yes", "everysec")
    assert config["maxmemory-policy"] == "noeviction"
    assert int(config["maxmemory"]) == 640 * 1024 * 1024
    assert config["save"] == ""
    statefulset = one("StatefulSet", "packplay-redis")
    (server,) = statefulset["spec"]["template"]["spec"]["containers"]
    limit = server["resources"]["limits"]["memory"]
    assert limit.endswith("Gi") and int(config["maxmemory"]) < int(limit[:-2]) * 1024**3
    mounts = {m["name"]: m["mountPath"] for m in server["volumeMounts"]}
    assert mounts["data"] == "/data"
    (claim,) = statefulset["spec"]["volumeClaimTemplates"]
    assert claim["metadata"]["name"] == "data"
    assert server["args"] == ["valkey-server", "/etc/valkey/" + VALKEY_CONF.name, "--dir", "/data"]


def test_only_the_server_pods_may_reach_the_bundled_store() -> None:
    policy = one("NetworkPolicy", "packplay-redis")["spec"]
    (rule,) = policy["ingress"]
    (source,) = rule["from"]
    assert source["podSelector"]["matchLabels"] == SERVER
    assert [r["kind"] for r in resources("Service") if r["metadata"]["name"] == "packplay-redis"] == [
        "Service"
    ]
