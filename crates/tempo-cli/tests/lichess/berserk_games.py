#!/usr/bin/env python3
"""berserk 0.14, the lichess Python client, unchanged against a tempo server.

Run by crates/tempo-cli/tests/lichess_clients.rs; by hand:

    LICHESS_URL=http://127.0.0.1:8080 PLAYER_A=anna:TOKEN PLAYER_B=ben:TOKEN \
        target/lichess-venv/bin/python crates/tempo-cli/tests/lichess/berserk_games.py

Two members, A and B, with no games yet. Every call is berserk's own, as a
lichess user makes it (`berserk.Client(session=TokenSession(token),
base_url=URL)`); every field checked is one lichess documents. Exits 1 with
one line naming the call and the field that is not as lichess's clients
expect.
"""

import datetime
import os
import sys

from checks import (
    LATER,
    Failure,
    Stream,
    absent_or,
    call,
    challenge_id_of,
    check,
    client,
    ends,
    game_id_of,
    later,
    say,
)

A, A_TOKEN = os.environ["PLAYER_A"].split(":", 1)
B, B_TOKEN = os.environ["PLAYER_B"].split(":", 1)
a, b = client(A_TOKEN), client(B_TOKEN)

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# After 1. e4 e5 2. Nf3 Nc6: a `fromPosition` game.
SET_UP_FEN = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
# A Chess960 start (RKNQBBNR) where both sides castle queenside in four moves.
CHESS960_FEN = "rknqbbnr/pppppppp/8/8/8/8/PPPPPPPP/RKNQBBNR w KQkq - 0 1"


VARIANT_NAMES = {
    "standard": "Standard",
    "chess960": "Chess960",
    "fromPosition": "From Position",
    "synchronschach": "Synchronschach",
}


def is_datetime(value):
    """a datetime (berserk converts lichess's milliseconds since the epoch)"""
    return isinstance(value, datetime.datetime)


def is_timedelta(value):
    """a timedelta (berserk converts lichess's milliseconds)"""
    return isinstance(value, datetime.timedelta)


def millis(ms):
    def ok(value):
        return value == datetime.timedelta(milliseconds=ms)

    ok.__doc__ = f"{ms} ms"
    return ok


def lichess_id(name):
    return name.lower()


class Player:
    """One member: the berserk client and the member's event stream."""

    def __init__(self, name, berserk_client):
        self.name = name
        self.api = berserk_client
        self.events = Stream(f"{name}'s board.stream_incoming_events", berserk_client.board.stream_incoming_events())
        self.games_seen = set()

    def game_start(self, opponent):
        """The next gameStart of a new game against `opponent`."""
        name = f"{self.name}'s board.stream_incoming_events (gameStart)"

        def new(e):
            return game_id_of(e) not in self.games_seen

        event = self.events.event("gameStart", f"a game against {opponent}", new)
        gid = check(name, event, "game.gameId", str)
        check(name, event, "game.id", gid)
        check(name, event, "game.opponent.username", opponent)
        check(name, event, "game.opponent.id", lichess_id(opponent))
        self.games_seen.add(gid)
        return event


def the_challenge(challenger, opponent, what, **params):
    """challenges.create by `challenger`; the answer and `opponent`'s challenge event, checked."""
    name = f"challenges.create ({what})"
    answer = call(name, challenger.api.challenges.create, opponent.name, **params)
    cid = check(name, answer, "id", str)
    event = opponent.events.event("challenge", f"{what} {cid}", lambda e: challenge_id_of(e) == cid)
    name = f"{opponent.name}'s board.stream_incoming_events (challenge, {what})"
    check(name, event, "challenge.status", "created")
    check(name, event, "challenge.challenger.name", challenger.name)
    check(name, event, "challenge.challenger.id", lichess_id(challenger.name))
    check(name, event, "challenge.destUser.name", opponent.name)
    check(name, event, "challenge.destUser.id", lichess_id(opponent.name))
    check(name, event, "challenge.rated", params["rated"])
    check(name, event, "challenge.color", params.get("color") or "random")
    check(name, event, "challenge.url", str)
    # lichess-bot reads these two to decide (its model.Challenge).
    check(name, event, "challenge.perf.name", str)
    check(name, event, "challenge.finalColor", ("white", "black").__contains__)
    variant = params.get("variant") or "standard"
    check(name, event, "challenge.variant.key", variant)
    check(name, event, "challenge.variant.name", str)
    if params.get("clock_limit") is not None:
        check(name, event, "challenge.timeControl.type", "clock")
        check(name, event, "challenge.timeControl.limit", params["clock_limit"])
        check(name, event, "challenge.timeControl.increment", params["clock_increment"])
    elif params.get("days") is not None:
        check(name, event, "challenge.timeControl.type", "correspondence")
        check(name, event, "challenge.timeControl.daysPerTurn", params["days"])
        check(name, event, "challenge.speed", "correspondence")
    else:
        check(name, event, "challenge.timeControl.type", "unlimited")
        check(name, event, "challenge.speed", "correspondence")
    if params.get("position"):
        check(name, event, "challenge.initialFen", params["position"])
    return cid, event


def start_game(challenger, opponent, what, both_due=False, **params):
    """A challenge accepted: the game id and both gameStart events, checked.

    `both_due`: a simultaneous variant, where both players choose the first move."""
    cid, event = the_challenge(challenger, opponent, what, **params)
    call(f"challenges.accept ({what})", opponent.api.challenges.accept, cid)
    starts = {p.name: p.game_start(o.name) for p, o in ((challenger, opponent), (opponent, challenger))}
    gid = starts[challenger.name]["game"]["gameId"]
    if gid != cid:
        # lichess-bot counts the challenge it accepted as a game until a game of that id ends.
        later(f"gameStart ({what}): game id {gid} is not its challenge's id {cid} (lichess's are one)")
    colors = {}
    for player in (challenger, opponent):
        start = starts[player.name]
        name = f"{player.name}'s board.stream_incoming_events (gameStart, {what})"
        check(name, start, "game.gameId", gid)
        colors[player.name] = check(name, start, "game.color", ("white", "black").__contains__)
        check(name, start, "game.isMyTurn", both_due or colors[player.name] == "white")
        check(name, start, "game.variant.key", params.get("variant") or "standard")
        check(name, start, "game.rated", params["rated"])
        check(name, start, "game.speed", event["challenge"]["speed"])
        check(name, start, "game.fen", str)
        absent_or(name, start, "game.hasMoved", False)
    if params.get("color") in ("white", "black"):
        check(f"challenges.create ({what}): the challenger's colour", colors, challenger.name, params["color"])
    if colors[challenger.name] == colors[opponent.name]:
        raise Failure(f"gameStart ({what}): both players are {colors[challenger.name]}")
    white = challenger if colors[challenger.name] == "white" else opponent
    black = opponent if white is challenger else challenger
    return gid, white, black


def game_full(player, gid, what):
    """`player`'s board.stream_game_state and its first line, the gameFull."""
    stream = Stream(f"{player.name}'s board.stream_game_state ({what})", player.api.board.stream_game_state(gid))
    full = stream.wait("gameFull", lambda line: line.get("type") == "gameFull")
    name = f"board.stream_game_state ({what}, gameFull)"
    check(name, full, "id", gid)
    check(name, full, "createdAt", is_datetime)
    # lichess-bot sets its board up by the variant's name.
    check(name, full, "variant.name", VARIANT_NAMES.get(full.get("variant", {}).get("key")))
    check(name, full, "state.type", "gameState")
    check(name, full, "state.moves", "")
    check(name, full, "state.status", "started")
    for key in ("wtime", "btime", "winc", "binc"):
        # Not converted by berserk inside `state`: lichess's integers.
        check(name, full, f"state.{key}", int)
    return stream, full


def play(stream, players, gid, moves, what, played=()):
    """Each move by the side to move; after each, the gameState's `moves` says them all so far."""
    done = list(played)
    name = f"board.stream_game_state ({what}, gameState)"
    state = None
    for move in moves:
        mover = players[len(done) % 2]
        call(f"board.make_move ({what}, {mover.name}: {move})", mover.api.board.make_move, gid, move)
        done.append(move)
        expected = " ".join(done)
        state = stream.wait(f"gameState with moves {expected!r}", lambda s: s.get("type") == "gameState" and s.get("moves") == expected)
        for key in ("wtime", "btime", "winc", "binc"):
            check(name, state, key, is_timedelta)
    return state


def finish(players, gid, what, status, winner):
    """Both players' gameFinish events."""
    for player in players:
        name = f"{player.name}'s board.stream_incoming_events (gameFinish, {what})"
        event = player.events.event("gameFinish", what, lambda e: game_id_of(e) == gid)
        check(name, event, "game.gameId", gid)
        check(name, event, "game.status.name", status)
        check(name, event, "game.status.id", int)
        if winner:
            check(name, event, "game.winner", winner)
        else:
            absent_or(name, event, "game.winner", None)


def exports(player, gid, what, status, winner, moves, variant, pgn_has):
    """games.export as JSON and as PGN."""
    name = f"games.export ({what}, JSON)"
    game = call(name, player.api.games.export, gid)
    check(name, game, "id", gid)
    check(name, game, "variant", variant)
    check(name, game, "status", status)
    check(name, game, "createdAt", is_datetime)
    check(name, game, "lastMoveAt", is_datetime)
    check(name, game, "moves", moves)
    check(name, game, "players.white.user.name", str)
    check(name, game, "players.black.user.name", str)
    if winner:
        check(name, game, "winner", winner)
    elif "winner" in game:
        raise Failure(f"{name}: winner is {game['winner']!r} in a game without one")
    name = f"games.export ({what}, PGN)"
    pgn = call(name, player.api.games.export, gid, as_pgn=True)
    if not isinstance(pgn, str) or not pgn.startswith("["):
        raise Failure(f"{name}: not PGN: {str(pgn)[:200]!r}")
    for text in pgn_has:
        # Case aside: a tempo game may record a name in lower case (not as registered).
        if text.lower() not in pgn.lower():
            raise Failure(f"{name}: {text!r} missing in {pgn[:600]!r}")
    return game


def accounts():
    for name, api in ((A, a), (B, b)):
        what = f"account.get ({name})"
        me = call(what, api.account.get)
        check(what, me, "id", lichess_id(name))
        check(what, me, "username", name)
        absent_or(what, me, "title", lambda t: t != "BOT")
        absent_or(what, me, "createdAt", is_datetime)


def orthodox_clock_draw(pa, pb):
    what = "orthodox, casual, 5+3, castling, draw by agreement"
    gid, white, black = start_game(pa, pb, what, rated=False, clock_limit=300, clock_increment=3, color="white", variant="standard")
    stream, full = game_full(white, gid, what)
    name = f"board.stream_game_state ({what}, gameFull)"
    check(name, full, "variant.key", "standard")
    check(name, full, "clock.initial", 300_000)
    check(name, full, "clock.increment", 3_000)
    check(name, full, "speed", "blitz")
    check(name, full, "rated", False)
    check(name, full, "white.name", A)
    check(name, full, "white.id", lichess_id(A))
    check(name, full, "black.name", B)
    # lichess says `startpos`; tempo gives the start's FEN (docs/server.md, the table).
    check(name, full, "initialFen", ("startpos", START_FEN).__contains__)
    check(name, full, "state.winc", 3_000)
    check(name, full, "state.wtime", 300_000)
    black_stream, _ = game_full(black, gid, what)
    moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"]
    state = play(stream, (white, black), gid, moves, what)
    check(f"board.stream_game_state ({what}, gameState)", state, "winc", millis(3_000))
    check(f"board.stream_game_state ({what}, gameState)", state, "status", "started")
    call(f"board.offer_draw ({what})", white.api.board.offer_draw, gid)
    offered = black_stream.wait("gameState with wdraw", lambda s: s.get("type") == "gameState" and s.get("wdraw") is True)
    check(f"board.stream_game_state ({what}, after board.offer_draw)", offered, "moves", " ".join(moves))
    call(f"board.accept_draw ({what})", black.api.board.accept_draw, gid)
    end = stream.wait("gameState with status draw", lambda s: s.get("type") == "gameState" and s.get("status") != "started")
    check(f"board.stream_game_state ({what}, after board.accept_draw)", end, "status", "draw")
    if "winner" in end:
        raise Failure(f"board.stream_game_state ({what}): a draw with winner {end['winner']!r}")
    finish((white, black), gid, what, "draw", None)
    ends("board.stream_game_state", stream, what)
    exports(white, gid, what, "draw", None, "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O", "standard",
            [f'[White "{A}"]', f'[Black "{B}"]', '[Result "1/2-1/2"]', "O-O"])
    say(f"ok: {what} ({gid})")


def orthodox_correspondence_mate(pa, pb):
    what = "orthodox, rated, 3 days a move, fool's mate"
    gid, white, black = start_game(pa, pb, what, rated=True, days=3, color="black", variant="standard")
    stream, full = game_full(black, gid, what)
    name = f"board.stream_game_state ({what}, gameFull)"
    check(name, full, "clock", None)
    check(name, full, "daysPerTurn", 3)
    check(name, full, "speed", "correspondence")
    check(name, full, "rated", True)
    check(name, full, "white.name", B)
    check(name, full, "black.name", A)
    for player, mine in ((black, False), (white, True)):
        name = f"games.get_ongoing ({player.name}, {what})"
        playing = call(name, player.api.games.get_ongoing)
        entry = next((g for g in playing if g.get("gameId") == gid), None)
        if entry is None:
            raise Failure(f"{name}: game {gid} missing in nowPlaying {playing!r}")
        check(name, entry, "color", "white" if player is white else "black")
        check(name, entry, "isMyTurn", mine)
        check(name, entry, "opponent.username", (black if player is white else white).name)
        check(name, entry, "variant.key", "standard")
        check(name, entry, "speed", "correspondence")
        check(name, entry, "rated", True)
        check(name, entry, "fen", str)
        check(name, entry, "fullId", str)
    play(stream, (white, black), gid, ["f2f3", "e7e5", "g2g4"], what)
    call(f"board.make_move ({what}, {black.name}: d8h4)", black.api.board.make_move, gid, "d8h4")
    end = stream.wait("gameState after d8h4", lambda s: s.get("type") == "gameState" and s.get("moves", "").endswith("d8h4"))
    name = f"board.stream_game_state ({what}, after the mate)"
    check(name, end, "status", "mate")
    check(name, end, "winner", "black")
    finish((white, black), gid, what, "mate", "black")
    ends("board.stream_game_state", stream, what)
    playing = call(f"games.get_ongoing ({black.name}, after {what})", black.api.games.get_ongoing)
    if any(g.get("gameId") == gid for g in playing):
        raise Failure(f"games.get_ongoing: the finished game {gid} still in nowPlaying")
    exports(black, gid, what, "mate", "black", "f3 e5 g4 Qh4#", "standard", ['[Result "0-1"]', "Qh4#"])
    say(f"ok: {what} ({gid})")


def decline_and_cancel(pa, pb):
    what = "casual, unlimited, declined"
    cid, _ = the_challenge(pa, pb, what, rated=False)
    call(f"challenges.decline ({what})", pb.api.challenges.decline, cid, reason="later")
    event = pa.events.event("challengeDeclined", what, lambda e: challenge_id_of(e) == cid)
    name = f"{A}'s board.stream_incoming_events (challengeDeclined)"
    check(name, event, "challenge.declineReasonKey", "later")
    check(name, event, "challenge.declineReason", str)
    check(name, event, "challenge.status", "declined")
    say(f"ok: {what} ({cid})")
    what = "casual, 10+0, canceled"
    cid, _ = the_challenge(pa, pb, what, rated=False, clock_limit=600, clock_increment=0)
    call(f"challenges.cancel ({what})", pa.api.challenges.cancel, cid)
    event = pb.events.event("challengeCanceled", what, lambda e: challenge_id_of(e) == cid)
    check(f"{B}'s board.stream_incoming_events (challengeCanceled)", event, "challenge.status", "canceled")
    say(f"ok: {what} ({cid})")


def aborted(pa, pb):
    what = "casual, 1+0, aborted"
    gid, white, black = start_game(pa, pb, what, rated=False, clock_limit=60, clock_increment=0, color="white")
    stream, full = game_full(white, gid, what)
    check(f"board.stream_game_state ({what}, gameFull)", full, "speed", "bullet")
    call(f"board.abort_game ({what})", white.api.board.abort_game, gid)
    end = stream.wait("gameState after the abort", lambda s: s.get("type") == "gameState" and s.get("status") != "started")
    check(f"board.stream_game_state ({what}, after board.abort_game)", end, "status", "aborted")
    finish((white, black), gid, what, "aborted", None)
    ends("board.stream_game_state", stream, what)
    say(f"ok: {what} ({gid})")


def from_position_resign(pa, pb):
    what = "fromPosition, casual, 10+5, resigned"
    gid, white, black = start_game(pa, pb, what, rated=False, clock_limit=600, clock_increment=5, color="white",
                                   variant="fromPosition", position=SET_UP_FEN)
    stream, full = game_full(white, gid, what)
    name = f"board.stream_game_state ({what}, gameFull)"
    check(name, full, "variant.key", "fromPosition")
    check(name, full, "initialFen", SET_UP_FEN)
    check(name, full, "speed", "rapid")
    play(stream, (white, black), gid, ["f1b5", "a7a6"], what)
    call(f"board.resign_game ({what})", black.api.board.resign_game, gid)
    end = stream.wait("gameState after the resignation", lambda s: s.get("type") == "gameState" and s.get("status") != "started")
    name = f"board.stream_game_state ({what}, after board.resign_game)"
    check(name, end, "status", "resign")
    check(name, end, "winner", "white")
    finish((white, black), gid, what, "resign", "white")
    ends("board.stream_game_state", stream, what)
    game = exports(white, gid, what, "resign", "white", "Bb5 a6", "fromPosition",
                   [f'[FEN "{SET_UP_FEN}"]', '[SetUp "1"]', '[Result "1-0"]', "Bb5"])
    check(f"games.export ({what}, JSON)", game, "initialFen", SET_UP_FEN)
    say(f"ok: {what} ({gid})")


def chess960_castling(pa, pb):
    what = "Chess960, rated, 3+2, castling king takes rook, resigned"
    gid, white, black = start_game(pa, pb, what, rated=True, clock_limit=180, clock_increment=2,
                                   variant="chess960", position=CHESS960_FEN)
    stream, full = game_full(white, gid, what)
    name = f"board.stream_game_state ({what}, gameFull)"
    check(name, full, "variant.key", "chess960")
    check(name, full, "initialFen", CHESS960_FEN)
    check(name, full, "speed", "blitz")
    check(name, full, "rated", True)
    moves = ["c1b3", "c8b6", "c2c3", "c7c6", "d1c2", "d8c7", "b1a1", "b8a8"]
    play(stream, (white, black), gid, moves, what)
    call(f"board.resign_game ({what})", white.api.board.resign_game, gid)
    end = stream.wait("gameState after the resignation", lambda s: s.get("type") == "gameState" and s.get("status") != "started")
    check(f"board.stream_game_state ({what}, after board.resign_game)", end, "status", "resign")
    check(f"board.stream_game_state ({what}, after board.resign_game)", end, "winner", "black")
    finish((white, black), gid, what, "resign", "black")
    ends("board.stream_game_state", stream, what)
    game = exports(black, gid, what, "resign", "black", "Nb3 Nb6 c3 c6 Qc2 Qc7 O-O-O O-O-O", "chess960",
                   ['[Variant "Chess960"]', f'[FEN "{CHESS960_FEN}"]', '[Result "0-1"]', "O-O-O"])
    check(f"games.export ({what}, JSON)", game, "initialFen", CHESS960_FEN)
    say(f"ok: {what} ({gid})")


def raw(player, method, path):
    """A request with the player's token outside berserk's calls (tempo's own routes)."""
    answer = player.api.board._r.session.request(method, os.environ["LICHESS_URL"] + path)
    if not answer.ok:
        raise Failure(f"{method} {path}: HTTP {answer.status_code}: {answer.text[:300]}")
    return answer


def synchronschach_commits(pa, pb):
    """What docs/server.md tells a lichess client author about the simultaneous variants."""
    what = "Synchronschach, casual, 5+3, hidden commits, exchanges, resigned"
    gid, white, black = start_game(pa, pb, what, both_due=True, rated=False, clock_limit=300, clock_increment=3,
                                   color="white", variant="synchronschach")
    stream, full = game_full(white, gid, what)
    black_stream, _ = game_full(black, gid, what)
    check(f"board.stream_game_state ({what}, gameFull)", full, "state.due", {"white": "move", "black": "move"})
    # A move is a hidden commit: {"ok":true}, a `committed` line without the choice.
    answer = raw(white, "POST", f"/api/board/game/{gid}/move/e2e4").json()
    check(f"board.make_move ({what}, e2e4: the answer)", answer, "ok", True)
    line = black_stream.wait("committed line", lambda s: s.get("type") == "committed")
    check(f"{black.name}'s board.stream_game_state ({what}, committed)", line, "color", "white")
    if "e2e4" in str(line):
        raise Failure(f"board.stream_game_state ({what}): the committed line shows the hidden move: {line}")
    mine = raw(white, "GET", f"/api/game/{gid}").json()
    name = f"GET /api/game/{gid} ({what}, the committer's state)"
    check(name, mine, "state.mine", "e2e4")
    check(name, mine, "state.committed.white", True)
    check(name, mine, "state.moves", "")
    theirs = raw(black, "GET", f"/api/game/{gid}").text
    if "e2e4" in theirs:
        raise Failure(f"GET /api/game/{gid} ({what}): the opponent sees the hidden move: {theirs[:600]}")
    name = f"board.stream_game_state ({what}, gameState)"
    steps = [
        # (white's choice or None, black's, the moves after the reveal, due afterwards)
        ("e2e4", "d7d5", "e2e4 d7d5", {"white": "move", "black": "move"}),
        ("e4d5", "g8f6", "e2e4 d7d5 e4d5 g8f6", {"white": None, "black": "capture-on-d5"}),
        # Two words a step: 0000 for the side the step asks nothing of.
        (None, "xd8d5", "e2e4 d7d5 e4d5 g8f6 0000 xd8d5", {"white": "move", "black": "move"}),
        ("g1f3", "d5a2", "e2e4 d7d5 e4d5 g8f6 0000 xd8d5 g1f3 d5a2", {"white": "capture-on-a2", "black": None}),
        ("-", None, "e2e4 d7d5 e4d5 g8f6 0000 xd8d5 g1f3 d5a2 - 0000", {"white": "move", "black": "move"}),
    ]
    for i, (w, b, moves, due) in enumerate(steps):
        for player, choice in ((white, w), (black, b)):
            if choice and not (i == 0 and player is white):
                call(f"board.make_move ({what}, {player.name}: {choice})", player.api.board.make_move, gid, choice)
        state = stream.wait(f"gameState with moves {moves!r}", lambda s: s.get("type") == "gameState" and s.get("moves") == moves)
        check(name, state, "due", due)
        check(name, state, "committed", {"white": False, "black": False})
    check(name, state, "fen", lambda f: f.startswith("rnb1kb1r/ppp1pppp/5n2/8/8/5N2/qPPP1PPP/RNBQKB1R s "))
    call(f"board.resign_game ({what})", white.api.board.resign_game, gid)
    end = stream.wait("gameState after the resignation", lambda s: s.get("type") == "gameState" and s.get("status") != "started")
    check(f"board.stream_game_state ({what}, after board.resign_game)", end, "status", "resign")
    check(f"board.stream_game_state ({what}, after board.resign_game)", end, "winner", "black")
    finish((white, black), gid, what, "resign", "black")
    ends("board.stream_game_state", stream, what)
    say(f"ok: {what} ({gid})")


def main():
    accounts()
    say("ok: account.get")
    pa, pb = Player(A, a), Player(B, b)
    # The event streams are open before the first challenge (lichess's
    # clients open them first; a stream that begins later lists only the
    # challenges still pending).
    import time

    time.sleep(0.5)
    orthodox_clock_draw(pa, pb)
    orthodox_correspondence_mate(pa, pb)
    decline_and_cancel(pa, pb)
    aborted(pa, pb)
    from_position_resign(pa, pb)
    chess960_castling(pa, pb)
    synchronschach_commits(pa, pb)
    if LATER:
        raise Failure(f"{len(LATER)} difference(s) from lichess, listed above")
    say("berserk: all lichess calls behaved")


if __name__ == "__main__":
    try:
        main()
    except Failure as e:
        print(f"FAILED: {e}", file=sys.stderr, flush=True)
        sys.exit(1)
