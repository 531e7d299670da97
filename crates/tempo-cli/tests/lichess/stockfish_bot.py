#!/usr/bin/env python3
"""A UCI engine (Debian's Stockfish) becomes a club member through lichess's Bot API.

The bot side does what lichess-bot does, with berserk's `bots` calls:
it upgrades its account (`account.upgrade_to_bot`), reads its events
(`bots.stream_incoming_events`), accepts the challenges it can play and
declines the others with a reason (`bots.accept_challenge`,
`bots.decline_challenge`), follows each game (`bots.stream_game_state`),
greets (`bots.post_message`), and on its turn sets the engine's position
from `initialFen` and `state.moves` (`position startpos|fen … moves …`,
`UCI_Chess960` in Chess960 games) and sends its `bestmove`
(`bots.make_move`); `bots.abort_game` and `bots.resign_game` when the
member tells it to. The member challenges it (`challenges.create`) and
plays with the same engine at its weakest (`Skill Level 0`) through the
Board API. Run by crates/tempo-cli/tests/lichess_clients.rs; by hand:

    LICHESS_URL=http://127.0.0.1:8080 BOT=fish:TOKEN PLAYER_A=anna:TOKEN \
        STOCKFISH=/usr/games/stockfish \
        target/lichess-venv/bin/python crates/tempo-cli/tests/lichess/stockfish_bot.py

No python-chess: the script knows no chess, the engine and the server do.
"""

import os
import queue
import shlex
import subprocess
import sys
import threading
import time

from checks import LATER, Failure, Stream, absent_or, call, challenge_id_of, check, client, ends, game_id_of, later, say

BOT, BOT_TOKEN = os.environ["BOT"].split(":", 1)
A, A_TOKEN = os.environ["PLAYER_A"].split(":", 1)
# The engine's command (split like a shell's words): any UCI engine.
STOCKFISH = shlex.split(os.environ.get("STOCKFISH", "/usr/games/stockfish"))
MOVETIME = int(os.environ.get("MOVETIME", "40"))
# A game that is not over after this many plies is resigned by the member.
MAX_PLIES = 300


class Engine:
    """A UCI engine in a subprocess, spoken to line by line."""

    def __init__(self, name, skill=None):
        self.name = name
        self.process = subprocess.Popen(STOCKFISH, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.chess960 = None
        self.send("uci")
        self.until("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")
        if skill is not None:
            self.send(f"setoption name Skill Level value {skill}")

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix, timeout=10):
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise Failure(f"{self.name}: the engine said no {prefix!r} within {timeout} s") from None
            if line is None:
                raise Failure(f"{self.name}: the engine stopped")
            if line.startswith(prefix):
                return line

    def best_move(self, initial_fen, moves, chess960):
        if chess960 != self.chess960:
            self.send(f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}")
            self.chess960 = chess960
        start = "startpos" if initial_fen in (None, "startpos") else f"fen {initial_fen}"
        self.send(f"position {start}" + (f" moves {' '.join(moves)}" if moves else ""))
        self.send("isready")
        self.until("readyok")
        self.send(f"go movetime {MOVETIME}")
        move = self.until("bestmove").split()[1]
        return None if move == "(none)" else move

    def close(self):
        try:
            self.send("quit")
            self.process.wait(timeout=5)
        except Exception:
            self.process.kill()


class Plans:
    """What the member tells its bot to do in a game: play, abort or resign (the
    member's own side: play, or wait while the bot aborts)."""

    def __init__(self):
        self.plans = {}
        self.cond = threading.Condition()

    def set(self, gid, plan):
        with self.cond:
            self.plans[gid] = plan
            self.cond.notify_all()

    def get(self, gid):
        with self.cond:
            self.cond.wait_for(lambda: gid in self.plans, timeout=10)
            return self.plans.get(gid, "play")


def white_to_move_first(initial_fen):
    return initial_fen in (None, "startpos") or initial_fen.split()[1] == "w"


def play_side(who, api, gid, engine, plan, bot):
    """One side of one game, as lichess-bot plays it: the game stream, a move on each turn.

    Returns the final gameState (status and winner)."""
    stream = Stream(f"{who}'s {'bots' if bot else 'board'}.stream_game_state", api.stream_game_state(gid))
    full = stream.wait("gameFull", lambda line: line.get("type") == "gameFull")
    name = f"{who}'s {'bots' if bot else 'board'}.stream_game_state (gameFull)"
    check(name, full, "id", gid)
    variant = check(name, full, "variant.key", ("standard", "chess960", "fromPosition").__contains__)
    initial_fen = check(name, full, "initialFen", str)
    my_id = (BOT if bot else A).lower()
    white_id = check(name, full, "white.id", str)
    black_id = check(name, full, "black.id", str)
    if my_id not in (white_id, black_id):
        raise Failure(f"{name}: neither white ({white_id}) nor black ({black_id}) is {my_id}")
    bot_side = "white" if white_id == BOT.lower() else "black"
    check(name, full, f"{bot_side}.title", "BOT")
    my_color = "white" if white_id == my_id else "black"
    # The bot greets once its opponent has moved: a game stream tells only the lines written
    # while it is open (as lichess's), and the opponent moves only after opening its stream.
    # Before an abort it greets at once; its opponent then reads it from the chat's history.
    opponent_first = white_to_move_first(initial_fen) != (my_color == "white")
    greeted = not bot
    if bot and plan == "abort":
        call("bots.post_message", api.post_message, gid, "Good luck! (Stockfish via the Bot API)")
        greeted = True
        call(f"{who}: bots.abort_game", api.abort_game, gid)
    state = full["state"]
    moved = -1
    name = f"{who}'s {'bots' if bot else 'board'}.stream_game_state (gameState)"
    while True:
        status = check(name, state, "status", str)
        if status != "started":
            if bot:
                call("bots.post_message", api.post_message, gid, "Good game.")
            elif plan != "wait":
                # The bot's greeting reached its opponent's game stream (lichess's chatLine).
                line = stream.wait("chatLine from the bot", lambda l: l.get("type") == "chatLine" and l.get("username") == BOT)
                check(f"{who}'s board.stream_game_state (chatLine)", line, "text", lambda t: t.startswith("Good luck"))
                check(f"{who}'s board.stream_game_state (chatLine)", line, "room", "player")
            else:
                # Aborted at once: the greeting may predate the stream; the chat's history has it.
                chat = call(f"{who}: board.get_game_chat", api.get_game_chat, gid)
                if not any(l.get("user") == BOT and l.get("text", "").startswith("Good luck") for l in chat):
                    raise Failure(f"{who}: board.get_game_chat: no greeting from the bot in {chat}")
            ends(f"{who}'s {'bots' if bot else 'board'}.stream_game_state", stream, gid)
            return state
        moves = state["moves"].split() if state["moves"] else []
        if not greeted and len(moves) >= (1 if opponent_first else 2):
            call("bots.post_message", api.post_message, gid, "Good luck! (Stockfish via the Bot API)")
            greeted = True
        white_turn = (len(moves) % 2 == 0) == white_to_move_first(initial_fen)
        my_turn = white_turn == (my_color == "white")
        if my_turn and len(moves) > moved and plan not in ("abort", "wait"):
            moved = len(moves)
            if plan == "resign" and len(moves) >= 2:
                call(f"{who}: bots.resign_game", api.resign_game, gid)
            elif not bot and len(moves) >= MAX_PLIES:
                call(f"{who}: board.resign_game (after {MAX_PLIES} plies)", api.resign_game, gid)
            else:
                move = engine.best_move(initial_fen, moves, variant == "chess960")
                if move is None:
                    raise Failure(f"{who}: the engine has no move after {' '.join(moves)}, but the status is {status}")
                call(f"{who}: {'bots' if bot else 'board'}.make_move {move} after {len(moves)} plies",
                     api.make_move, gid, move)
        state = stream.wait("gameState", lambda line: line.get("type") == "gameState", timeout=30)


class Bot:
    """The bot account's process: its event loop and a thread per game."""

    def __init__(self, plans):
        self.api = client(BOT_TOKEN)
        self.plans = plans
        self.engine = Engine("the bot's Stockfish")
        self.engine_lock = threading.Lock()
        self.results = {}
        self.errors = []
        self.threads = {}

    def upgrade(self):
        call("account.upgrade_to_bot", self.api.account.upgrade_to_bot)
        me = call("account.get (the bot)", self.api.account.get)
        check("account.get (the bot, upgraded)", me, "title", "BOT")
        check("account.get (the bot, upgraded)", me, "id", BOT.lower())

    def start(self):
        self.events = Stream("the bot's bots.stream_incoming_events", self.api.bots.stream_incoming_events())
        threading.Thread(target=self._events, daemon=True).start()

    def _events(self):
        handled = set()
        try:
            while True:
                event = self.events.wait("an event", lambda e: e.get("type") in ("challenge", "gameStart"), timeout=3600)
                if event["type"] == "challenge":
                    challenge = event["challenge"]
                    if challenge.get("challenger", {}).get("id") == BOT.lower():
                        continue
                    cid = challenge["id"]
                    if challenge.get("variant", {}).get("key") in ("standard", "chess960", "fromPosition"):
                        call("bots.accept_challenge", self.api.bots.accept_challenge, cid)
                    else:
                        call("bots.decline_challenge", self.api.bots.decline_challenge, cid, reason="variant")
                else:
                    gid = game_id_of(event)
                    if gid in handled:
                        continue
                    handled.add(gid)
                    thread = threading.Thread(target=self._game, args=(gid,), daemon=True)
                    self.threads[gid] = thread
                    thread.start()
        except Exception as e:
            self.errors.append(e)

    def _game(self, gid):
        try:
            self.results[gid] = play_side("the bot", self.api.bots, gid, LockedEngine(self), self.plans.get(gid), bot=True)
        except Exception as e:
            self.errors.append(e)

    def join(self, gid, timeout):
        deadline = time.monotonic() + timeout
        while gid not in self.threads and time.monotonic() < deadline and not self.errors:
            time.sleep(0.05)
        thread = self.threads.get(gid)
        if thread:
            thread.join(max(0.0, deadline - time.monotonic()))
        if self.errors:
            raise self.errors[0]
        if gid not in self.results:
            raise Failure(f"the bot's game {gid} did not end within {timeout} s")
        return self.results[gid]


class LockedEngine:
    """The bot's one engine, shared by its games one move at a time."""

    def __init__(self, bot):
        self.bot = bot

    def best_move(self, *args):
        with self.bot.engine_lock:
            return self.bot.engine.best_move(*args)


def wait_for_start(member, gid_seen):
    event = member.wait("gameStart event", lambda e: e.get("type") == "gameStart" and game_id_of(e) not in gid_seen)
    gid = game_id_of(event)
    gid_seen.add(gid)
    check("the member's board.stream_incoming_events (gameStart)", event, "game.opponent.username", BOT)
    return gid


def a_game(member_api, member_events, member_engine, bot, plans, seen, what, plan, **params):
    answer = call(f"challenges.create ({what})", member_api.challenges.create, BOT, **params)
    cid = check(f"challenges.create ({what})", answer, "id", str)
    gid = wait_for_start(member_events, seen)
    if gid != cid:
        # lichess-bot counts the challenge it accepted as a game until a game of that id ends.
        later(f"gameStart ({what}): game id {gid} is not its challenge's id {cid} (lichess's are one)")
    plans.set(gid, plan)
    started = time.monotonic()
    # While the bot aborts, the member waits (a move after the abort would be refused).
    mine = play_side("the member", member_api.board, gid, member_engine, "wait" if plan == "abort" else "play", bot=False)
    theirs = bot.join(gid, timeout=60)
    for key in ("status", "winner"):
        if mine.get(key) != theirs.get(key):
            raise Failure(f"{what}: the member's stream ends with {key} {mine.get(key)!r}, the bot's with {theirs.get(key)!r}")
    game = call(f"games.export ({what}, JSON)", member_api.games.export, gid)
    check(f"games.export ({what}, JSON)", game, "status", mine["status"])
    absent_or(f"games.export ({what}, JSON)", game, "winner", mine.get("winner"))
    plies = len(mine["moves"].split())
    say(f"ok: {what} ({gid}, challenge {cid}): {mine['status']}"
        f"{', ' + mine['winner'] + ' wins' if mine.get('winner') else ''} after {plies} plies, "
        f"{time.monotonic() - started:.1f} s")
    return mine


def main():
    started = time.monotonic()
    plans = Plans()
    bot = Bot(plans)
    bot.upgrade()
    bot.start()
    member_api = client(A_TOKEN)
    member_events = Stream("the member's board.stream_incoming_events", member_api.board.stream_incoming_events())
    member_engine = Engine("the member's Stockfish", skill=0)
    time.sleep(0.5)
    online = call("bots.get_online_bots", lambda: list(member_api.bots.get_online_bots()))
    if not any(u.get("id") == BOT.lower() for u in online):
        raise Failure(f"bots.get_online_bots: {BOT} missing in {online!r}")
    say("ok: account.upgrade_to_bot, bots.get_online_bots")

    what = "Synchronschach, declined by the bot"
    answer = call(f"challenges.create ({what})", member_api.challenges.create, BOT, rated=False,
                  clock_limit=300, clock_increment=3, variant="synchronschach")
    cid = check(f"challenges.create ({what})", answer, "id", str)
    declined = member_events.event("challengeDeclined", what, lambda e: challenge_id_of(e) == cid)
    check("the member's board.stream_incoming_events (challengeDeclined)", declined, "challenge.declineReasonKey", "variant")
    say(f"ok: {what}")

    seen = set()
    a_game(member_api, member_events, member_engine, bot, plans, seen, "orthodox, rated, 3+2, played out", "play",
           rated=True, clock_limit=180, clock_increment=2)
    a_game(member_api, member_events, member_engine, bot, plans, seen, "Chess960, casual, 3+2, played out", "play",
           rated=False, clock_limit=180, clock_increment=2, variant="chess960")
    end = a_game(member_api, member_events, member_engine, bot, plans, seen, "orthodox, casual, 1+0, the bot aborts",
                 "abort", rated=False, clock_limit=60, clock_increment=0)
    check("bots.abort_game", end, "status", "aborted")
    end = a_game(member_api, member_events, member_engine, bot, plans, seen, "orthodox, casual, 5+0, the bot resigns",
                 "resign", rated=False, clock_limit=300, clock_increment=0)
    check("bots.resign_game", end, "status", "resign")
    member_engine.close()
    bot.engine.close()
    if LATER:
        raise Failure(f"{len(LATER)} difference(s) from lichess, listed above")
    say(f"stockfish bot: all Bot API calls behaved ({time.monotonic() - started:.1f} s)")


if __name__ == "__main__":
    try:
        main()
    except Failure as e:
        print(f"FAILED: {e}", file=sys.stderr, flush=True)
        sys.exit(1)
