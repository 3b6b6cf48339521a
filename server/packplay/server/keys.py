"""Every Redis key and channel name the server uses, and nothing else.

A game's keys share the hash tag ``{<game id>}``, a tournament's the hash tag
``{<tournament id>}``, a client's (the limits of one address) the hash tag ``{<client>}``.
The lobby indexes, the clock index, the tournament indexes and the process and tournament
channels are the only names outside a game, a tournament or a client.
"""

from __future__ import annotations

PREFIX = "pp"


def game(game_id: str) -> str:
    """Hash of small fields: status, version, seats' decisions, turn deadline, game name, players."""
    return f"{PREFIX}:game:{{{game_id}}}"


def setup(game_id: str) -> str:
    """List: the game's meta, then (once started) its card table; both never change after."""
    return f"{PREFIX}:game:{{{game_id}}}:setup"


def state(game_id: str) -> str:
    """String: the game's state at its current version (its card table aside)."""
    return f"{PREFIX}:game:{{{game_id}}}:state"


def seats(game_id: str) -> str:
    """Hash: ``<seat>`` -> the hashed player token, ``n<seat>`` -> the player's name, per taken seat."""
    return f"{PREFIX}:game:{{{game_id}}}:seats"


def log(game_id: str) -> str:
    """List: item ``v`` says what made version ``v``; item 0 is the dealt state, then one log entry each."""
    return f"{PREFIX}:game:{{{game_id}}}:log"


def answers(game_id: str) -> str:
    """Hash: ``<seat>:<action id>`` -> the answer it got (a resent action gets it again, applied once)."""
    return f"{PREFIX}:game:{{{game_id}}}:answers"


def watchers(game_id: str) -> str:
    """Set: ids of the server processes with a connection on this game (they are sent its entries)."""
    return f"{PREFIX}:game:{{{game_id}}}:procs"


def game_keys(game_id: str) -> tuple[str, ...]:
    """All keys of one game, in the order the store's scripts take them."""
    return (
        game(game_id),
        setup(game_id),
        state(game_id),
        seats(game_id),
        log(game_id),
        answers(game_id),
        watchers(game_id),
    )


def seat_limit(game_id: str, seat: int) -> str:
    """String: when (Redis's clock, ms) the seat's allowance of actions is whole again; it
    expires then. Not among :func:`game_keys`: only the scripts that answer an action take it."""
    return f"{PREFIX}:game:{{{game_id}}}:limit:{seat}"


def client_games(client: str) -> str:
    """String: when (Redis's clock, ms) the client's allowance of new games is whole again;
    it expires then. ``client`` is an address (an IPv6 one as its /64 network)."""
    return f"{PREFIX}:client:{{{client}}}:games"


def client_lobbies(client: str) -> str:
    """Sorted set: the open games the client created -> the time (unix seconds) they expire by.
    Entries past it are dropped on write; the key expires with its last game."""
    return f"{PREFIX}:client:{{{client}}}:lobbies"


def lobby(game_name: str | None = None) -> str:
    """Sorted set of open games, all games or one game type (score: a time the game's keys cannot
    outlive; entries past it are dropped on write, and the key expires after its last game)."""
    return f"{PREFIX}:lobby" if game_name is None else f"{PREFIX}:lobby:{game_name}"


def games() -> str:
    """Sorted set of started games, for listings beyond the lobby (scored and pruned as the lobby)."""
    return f"{PREFIX}:games"


def clocks() -> str:
    """Sorted set: game id -> deadline (unix seconds) of its pending decision. A process that finds
    an entry's game gone drops it; the key expires after the last game written to it."""
    return f"{PREFIX}:clocks"


def tournament(tournament_id: str) -> str:
    """Hash: meta, status, version, current round, rounds, and ``round:<n>``: each round's pairing."""
    return f"{PREFIX}:tour:{{{tournament_id}}}"


def tournament_players(tournament_id: str) -> str:
    """Hash: player id -> the player's record (name, hashed secret, first round, drop)."""
    return f"{PREFIX}:tour:{{{tournament_id}}}:players"


def tournament_games(tournament_id: str) -> str:
    """Hash: ``<round>:<table>`` -> the id of the table's game (set once)."""
    return f"{PREFIX}:tour:{{{tournament_id}}}:games"


def tournament_seats(tournament_id: str) -> str:
    """Hash: ``<round>:<player id>`` -> ``<game id> <seat> <seat token>``, handed to the player."""
    return f"{PREFIX}:tour:{{{tournament_id}}}:seats"


def tournament_results(tournament_id: str) -> str:
    """Hash: ``<round>:<table>`` -> the table's result (set once)."""
    return f"{PREFIX}:tour:{{{tournament_id}}}:results"


def tournament_claims(tournament_id: str) -> str:
    """Hash: ``<round>:<table>`` -> ``<process id> <until>``: who creates the table's game now."""
    return f"{PREFIX}:tour:{{{tournament_id}}}:claims"


def tournament_keys(tournament_id: str) -> tuple[str, str, str, str, str, str]:
    """All keys of one tournament, in the order the tournament scripts take them."""
    return (
        tournament(tournament_id),
        tournament_players(tournament_id),
        tournament_games(tournament_id),
        tournament_seats(tournament_id),
        tournament_results(tournament_id),
        tournament_claims(tournament_id),
    )


def tournaments() -> str:
    """Sorted set of the tournaments created within their lifetime (score: creation time)."""
    return f"{PREFIX}:tournaments"


def running_tournaments() -> str:
    """Sorted set of the tournaments between start and finish (score: creation time): the
    runners' work list."""
    return f"{PREFIX}:tournaments:running"


NEWS_PREFIX = f"{PREFIX}:news:"


def tournament_news(tournament_id: str) -> str:
    """Pub/sub channel of one tournament: a notice after each step that changes what its
    followers see (every process subscribes to all of them by pattern)."""
    return f"{NEWS_PREFIX}{tournament_id}"


def tournament_news_pattern() -> str:
    return f"{NEWS_PREFIX}*"


CHANNEL_PREFIX = f"{PREFIX}:proc:"


def channel(process_id: str) -> str:
    """Pub/sub channel of one server process: the log entries of the games it watches."""
    return f"{CHANNEL_PREFIX}{process_id}"
