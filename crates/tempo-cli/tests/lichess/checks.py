"""Shared by the lichess-client scripts of this directory (stdlib + berserk).

Every check names the berserk call it checks and the field, so that a
failing run says which lichess shape tempo got wrong, e.g.
`board.stream_game_state (gameFull): state.moves is None, expected ''`.
"""

import json
import os
import threading
import time

import berserk

# How long any one expected answer may take (a stream line, an event).
WAIT = float(os.environ.get("LICHESS_WAIT", "10"))


class Failure(Exception):
    """A lichess call or field that is not as lichess's clients expect."""


def client(token):
    """A berserk client of the tempo server at LICHESS_URL, as its users make one."""
    return berserk.Client(session=berserk.TokenSession(token), base_url=os.environ["LICHESS_URL"])


def call(name, fn, *args, **kwargs):
    """`fn(*args)`; a refusal or a crash inside berserk becomes a Failure naming `name`."""
    try:
        return fn(*args, **kwargs)
    except berserk.exceptions.ResponseError as e:
        raise Failure(f"{name}: HTTP {e.status_code}: {e.response.text.strip()[:500]}") from e
    except Exception as e:  # berserk's converters: a null wtime, a string createdAt
        raise Failure(f"{name}: {type(e).__name__}: {e}") from e


# Differences found that do not stop the script: reported together at its end.
LATER = []


def later(message):
    """A failure to report at the end, after every other check has run."""
    LATER.append(message)
    print(f"FAILED (reported at the end): {message}", flush=True)


def ends(name, stream, what):
    """`stream` ends soon after its game did, as lichess's does (lichess-bot leaves a game when
    its stream ends, and keeps the game's slot until then)."""
    stream.thread.join(3)
    if not stream.ended:
        later(f"{name} ({what}): the game stream stays open after the game ended (lichess ends it)")


def field(name, obj, path):
    """The value at the dotted `path` of `obj`; missing is a Failure."""
    value = obj
    for key in path.split("."):
        if not isinstance(value, dict) or key not in value:
            raise Failure(f"{name}: field {path} missing in {short(obj)}")
        value = value[key]
    return value


def check(name, obj, path, expected):
    """`obj`'s `path` equals `expected`, or satisfies it when it is a type or a predicate."""
    value = field(name, obj, path)
    if isinstance(expected, type) or isinstance(expected, tuple):
        ok = isinstance(value, expected) and not (expected is int and isinstance(value, bool))
        want = f"a {expected}"
    elif callable(expected):
        ok = expected(value)
        want = getattr(expected, "__doc__", None) or "another value"
    else:
        ok = value == expected
        want = repr(expected)
    if not ok:
        raise Failure(f"{name}: {path} is {value!r}, expected {want} (in {short(obj)})")
    return value


def absent_or(name, obj, path, expected):
    """Like check, for a field lichess may leave out."""
    try:
        field(name, obj, path)
    except Failure:
        return None
    return check(name, obj, path, expected)


def short(obj):
    text = json.dumps(obj, default=str)
    return text if len(text) <= 600 else text[:600] + "…"


class Stream:
    """A berserk stream read by a thread of its own; `wait` takes lines out of it.

    Lines are kept until a `wait` takes them, so events that arrive before
    the test asks for them (a gameStart before the accept's answer) are not
    lost.
    """

    def __init__(self, name, lines):
        self.name = name
        self.lines = []
        self.ended = False
        self.error = None
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._read, args=(lines,), daemon=True)
        self.thread.start()

    def _read(self, lines):
        try:
            for line in lines:
                with self.cond:
                    self.lines.append(line)
                    self.cond.notify_all()
        except Exception as e:  # a converter's crash: reported by the next wait
            with self.cond:
                self.error = e
        with self.cond:
            self.ended = True
            self.cond.notify_all()

    def wait(self, what, predicate, timeout=None):
        """The first line not yet taken that satisfies `predicate`; it is taken."""
        deadline = time.monotonic() + (timeout or WAIT)
        with self.cond:
            while True:
                for i, line in enumerate(self.lines):
                    if predicate(line):
                        return self.lines.pop(i)
                if self.error is not None:
                    raise Failure(f"{self.name}: {type(self.error).__name__}: {self.error} (waiting for {what})")
                left = deadline - time.monotonic()
                if self.ended or left <= 0:
                    seen = ", ".join(short(line)[:200] for line in self.lines[-5:])
                    state = "ended" if self.ended else f"nothing within {timeout or WAIT:.0f} s"
                    raise Failure(f"{self.name}: no {what} ({state}; last lines not taken: {seen or 'none'})")
                self.cond.wait(left)

    def event(self, kind, what, predicate=lambda e: True, timeout=None):
        """The next event of type `kind` satisfying `predicate`."""
        return self.wait(f"{kind} event ({what})", lambda e: e.get("type") == kind and predicate(e), timeout)

    def drop_all(self):
        with self.cond:
            self.lines.clear()


def challenge_id_of(event):
    return (event.get("challenge") or {}).get("id")


def game_id_of(event):
    game = event.get("game") or {}
    return game.get("gameId") or game.get("id")


def say(text):
    print(text, flush=True)
