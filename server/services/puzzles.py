"""gardens.v1.PuzzleService: daily puzzles from the SQLite store (generated on first request), answers checked.

Configuration comes from the environment (read when the server starts): GARDENS_PUZZLES_DB (the
SQLite file, default var/puzzles.sqlite), GARDENS_PUZZLES_PAST_DAYS and GARDENS_PUZZLES_FUTURE_DAYS
(the served window around today in UTC, default 1 and 1: every time zone's today).
"""
from __future__ import annotations

import base64
import contextvars
import datetime as dt
import hashlib
import json
import logging
import os
import sqlite3
import tempfile
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import grpc
from google.protobuf import json_format

from gardens.v1 import gardeners_pb2, horticulture_pb2, puzzles_pb2 as pb, puzzles_pb2_grpc
from generators import daily
from generators.data import GameData
from generators.identity import PuzzleId, parse_date, parse_id
from generators import store as store_mod
from generators.store import Puzzle, Store, StoreDamaged, StoreError, default_path, file_state
from server import convert
from server.errors import ServiceError, Told
from server.runtime import Runtime
from server.services import gartenbau, horticulture, versailles
from solver.errors import InputError

log = logging.getLogger("gardens.server")
SERVICE = pb.DESCRIPTOR.services_by_name["PuzzleService"].full_name
# GetDailyPuzzle reads a stored puzzle in a light slot and takes a solve slot only to generate one (CP-SAT): a
# stored puzzle was refused "all solve slots are busy" while hints ran
SOLVE_METHODS: list[str] = []
LIGHT_METHODS = ["GetDailyPuzzle", "CheckAnswer", "ListPuzzles"]
DEFAULT_PAGE, MAX_PAGE = 50, 500

_GAMES = {pb.PUZZLE_GAME_GARDENERS: "gardeners", pb.PUZZLE_GAME_HORTICULTURE: "horticulture",
          pb.PUZZLE_GAME_VERSAILLES: "versailles", pb.PUZZLE_GAME_GARTENBAU: "gartenbau"}
_DIFFICULTIES = {pb.PUZZLE_DIFFICULTY_EASY: "easy", pb.PUZZLE_DIFFICULTY_MEDIUM: "medium",
                 pb.PUZZLE_DIFFICULTY_HARD: "hard"}
_OUTCOMES = {"correct": pb.ANSWER_OUTCOME_CORRECT, "wrong": pb.ANSWER_OUTCOME_WRONG,
             "not_minimal": pb.ANSWER_OUTCOME_NOT_MINIMAL, "incomplete": pb.ANSWER_OUTCOME_INCOMPLETE,
             "below_optimum": pb.ANSWER_OUTCOME_BELOW_OPTIMUM}
_GARDEN = {"garden": "garden", "placements": "garden.placements", "size": "garden.size"}


@dataclass(frozen=True)
class PuzzleSettings:
    db: str
    past_days: int = 1
    future_days: int = 1

    @classmethod
    def from_env(cls, env=None) -> "PuzzleSettings":
        env = os.environ if env is None else env

        def days(name: str) -> int:
            raw = env.get(name, "1")
            try:
                value = int(raw)
            except ValueError:
                raise ValueError(f"{name}: expected a number of days, got {raw!r}") from None
            if value < 0:
                raise ValueError(f"{name}: must be >= 0 (got {value})")
            return value

        return cls(str(env.get("GARDENS_PUZZLES_DB") or default_path()), days("GARDENS_PUZZLES_PAST_DAYS"),
                   days("GARDENS_PUZZLES_FUTURE_DAYS"))


def _today() -> dt.date:
    return dt.datetime.now(dt.timezone.utc).date()


class PuzzleServicer(puzzles_pb2_grpc.PuzzleServiceServicer):
    def __init__(self, runtime: Runtime, settings: PuzzleSettings, today=_today, create_store: bool = True):
        self.rt = runtime
        self.settings = settings
        self.today = today
        # False when the file existed at start-up: if it is gone by its first use, that is a removed
        # store (UNAVAILABLE, see _store_errors), not a new one to create
        self.create_store = create_store
        self._lock = threading.Lock()
        self._generation: daily.Generation | None = None
        self._told = Told()  # what became of the store's file, already logged at length
        # the call being served in this thread (set by _store): a request waiting for another's generation of its
        # puzzle stops waiting when its client has gone
        self._context: contextvars.ContextVar = contextvars.ContextVar("puzzle_call", default=None)
        self.data = GameData.of(runtime.config)  # the server's data files: puzzles are made and checked with them

    def generation(self) -> daily.Generation:
        # The file is opened on first use: servers that never serve a puzzle create no database.
        with self._lock:
            if self._generation is None:
                self._generation = daily.Generation(Store(self.settings.db, create=self.create_store),
                                                    data=self.data)
            return self._generation

    @contextmanager
    def _store(self, context):
        """Store failures as statuses (`_store_errors`), and the store's waits for another
        process's lock bounded by the call's deadline less the margin: a locked store ends the call
        UNAVAILABLE in time instead of holding its slot for SQLite's 60 s busy timeout."""
        remaining = context.time_remaining() if context is not None else None
        if remaining is not None and remaining > self.rt.config.call_time_cap_s:
            # no deadline (gRPC's time_remaining is then ~1e10 s, and a wait that long overflowed: INTERNAL for every
            # puzzle not stored yet, the load walkthrough of 7 Dec) or one past the call cap: the cap bounds the waits
            remaining = self.rt.config.call_time_cap_s + self.rt.config.deadline_margin_s
        ends_at = (None if remaining is None
                   else time.monotonic() + remaining - self.rt.config.deadline_margin_s)
        token = self._context.set(context)
        try:
            with _store_errors(self.settings.db, self._told), store_mod.until(ends_at):
                yield
        finally:
            self._context.reset(token)

    def last_served(self) -> dt.date:
        return self.today() + dt.timedelta(days=self.settings.future_days)

    def _published(self, pid: PuzzleId, field: str) -> None:
        if pid.date > self.last_served():
            raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                               f"{field}: {pid.date.isoformat()} is not published yet")

    def _get(self, pid: PuzzleId, field: str, generate: bool = True) -> Puzzle:
        """A served puzzle: generated on first request inside the window, stored ones before it."""
        self._published(pid, field)
        first = self.today() - dt.timedelta(days=self.settings.past_days)
        gen = self.generation()
        daily.kind_of(pid)
        try:
            stored = gen.store.get(pid)
            if stored is not None:
                return daily.current(stored, self.data)
            if pid.date < first or not generate:
                raise ServiceError(grpc.StatusCode.NOT_FOUND, f"{field}: no puzzle {pid} was published")
            context = self._context.get()
            return gen.get(pid, store_mod.waits_until(),
                           slot=lambda: self.rt.solve_slot(f"/{SERVICE}/GetDailyPuzzle"),
                           gone=(lambda: not context.is_active()) if context is not None else lambda: False,
                           max_waiting=max(1, self.rt.config.light_slots // 2))[0]
        except daily.Gone as exc:  # (what the access log and metrics say: the client sees its own cancel)
            raise ServiceError(grpc.StatusCode.CANCELLED, f"{field}: {exc}") from None
        except daily.Pending as exc:
            raise ServiceError(grpc.StatusCode.DEADLINE_EXCEEDED, f"{field}: {exc}") from None
        except daily.Busy as exc:
            raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, f"{field}: {exc}") from None
        except daily.StaleData as exc:
            # its answer may not hold under the server's data: never served nor checked (it was, judged anew)
            log.warning("puzzle %s not served: %s", pid, exc)
            raise ServiceError(grpc.StatusCode.FAILED_PRECONDITION,
                               f"{field}: the puzzle {pid} was made with other data files than the server's; it "
                               "is not served (the operator restores those files or serves another store)") from None

    def GetDailyPuzzle(self, request, context):
        with self._store(context):
            return self._get_daily(request)

    def _get_daily(self, request):
        game = _name(_GAMES, request.game, "game")
        kinds = [k for (g, _), k in daily.KINDS.items() if g == game]
        if not kinds:
            raise ServiceError(grpc.StatusCode.UNIMPLEMENTED, f"no daily puzzles for {game} yet")
        variant = request.variant or kinds[0].variant
        date = parse_date(request.date, "date") if request.date else self.today()
        pid = PuzzleId(game, variant, _name(_DIFFICULTIES, request.difficulty, "difficulty"), date)
        with convert.fields_under({"puzzle": "variant"}):
            return puzzle_msg(self._get(pid, "date"))

    def CheckAnswer(self, request, context):
        pid = parse_id(request.puzzle_id, "puzzle_id")
        with convert.fields_under({"puzzle": "puzzle_id", "difficulty": "puzzle_id"}), self._store(context):
            # answers are for puzzles someone has seen: never generate here (a light slot)
            puzzle = self._get(pid, "puzzle_id", generate=False)
        kind = request.WhichOneof("answer")
        wanted = {"decree": "garden", "impossible": "discard", "holding": "gartenbau_garden",
                  "tiles": "versailles_garden", "nursery": "horticulture_game"}.get(pid.variant)
        typed = _TYPED.get(wanted)
        if kind != wanted and (typed is None or kind != typed[0]):
            article = "an" if pid.variant[:1] in "aeiou" else "a"
            also = f" or `{typed[0]}`" if typed else ""
            raise InputError(wanted or "answer", f"{article} {pid.variant} puzzle is answered with `{wanted}`{also}")
        answered = kind  # (the member the client set: a typed answer is judged as its Struct twin)
        if typed is not None and kind == typed[0]:
            kind = wanted
        if kind == "garden":
            doc = convert.garden(request.garden, self.rt.config)
            with convert.fields_under(_GARDEN):
                result = daily.check_answer(puzzle, doc, self.data)
            outcome = "correct" if result["correct"] else ("wrong" if result["complete"] else "incomplete")
            return pb.CheckAnswerResponse(correct=result["correct"], outcome=_OUTCOMES[outcome],
                                          verdicts=[_verdict(v) for v in result["verdicts"]])
        if kind in ("gartenbau_garden", "versailles_garden", "horticulture_game"):
            doc = typed[1](getattr(request, answered)) if answered != kind else _struct(request, kind)
            renames = {"garden": "gartenbau_garden"} if kind == "gartenbau_garden" else {}
            if answered != kind:  # (the fields of the member the client set: `versailles.placements[2].tile`)
                renames = {"garden": answered, kind: answered}
            with convert.fields_under(renames):
                result = daily.check_answer(puzzle, doc, self.data)
            outcome = ("correct" if result["correct"] else
                       "incomplete" if result.get("complete") is False else
                       "below_optimum" if result["legal"] else "wrong")  # (a legal garden was WRONG, no violation)
            # (a Gartenbau rule's violation is {rule, message}; the others, and what is missing, are text)
            return pb.CheckAnswerResponse(correct=result["correct"], outcome=_OUTCOMES[outcome],
                                          score=result["score"], optimum=result["optimum"],
                                          violations=[f"{v['rule']}: {v['message']}" if isinstance(v, dict) else v
                                                      for v in result["violations"]])
        with convert.fields_under({"discard_card_ids": "discard.card_ids"}):
            result = daily.check_answer(puzzle, list(request.discard.card_ids), self.data)
        return pb.CheckAnswerResponse(correct=result["correct"], outcome=_OUTCOMES[result["outcome"]],
                                      score=result["score"], optimum=result["optimum"],
                                      violations=result["violations"])

    def ListPuzzles(self, request, context):
        size = request.page_size
        if size < 0:
            raise InputError("page_size", "must not be negative", size)
        size = min(size or DEFAULT_PAGE, MAX_PAGE)
        game = _name(_GAMES, request.game, "game", optional=True)
        if request.variant:
            known = sorted({k.variant for (g, _), k in daily.KINDS.items() if game in (None, "", g)})
            if request.variant not in known:
                raise InputError("variant", f"expected one of {', '.join(known)}{f' for {game}' if game else ''}",
                                 request.variant)
        difficulty = _name(_DIFFICULTIES, request.difficulty, "difficulty", optional=True)
        date_from = parse_date(request.date_from, "date_from").isoformat() if request.date_from else ""
        last = self.last_served()
        date_to = min(parse_date(request.date_to, "date_to"), last) if request.date_to else last
        # the client's own filters: the default end moves with the date, and a token taken before midnight (UTC)
        # was refused after it
        filters = [game, request.variant, difficulty, date_from,
                   parse_date(request.date_to, "date_to").isoformat() if request.date_to else ""]
        after = _read_token(request.page_token, filters) if request.page_token else None
        with self._store(context):
            rows = self.generation().store.list(game, request.variant, difficulty, date_from, date_to.isoformat(),
                                                after, size + 1)
        more = len(rows) > size
        rows = rows[:size]
        token = _make_token((rows[-1].id.date.isoformat(), str(rows[-1].id)), filters) if more else ""
        return pb.ListPuzzlesResponse(puzzles=[puzzle_msg(p) for p in rows], next_page_token=token)


@contextmanager
def _store_errors(path: str, told: Told):
    """A damaged stored puzzle is DATA_LOSS (never served, never blamed on the request). A store
    that cannot be used now is RESOURCE_EXHAUSTED for a full disk (gRPC's code for "the file system
    is out of space") and UNAVAILABLE otherwise (any SQLite failure: an I/O error, a lock held past
    the call's deadline, a file damaged, removed or replaced while serving), with words for what
    happened; nothing half-written is left (a write is one transaction). The store's path and
    SQLite's words stay in the server log, under the reference the client sees; a file removed,
    replaced or damaged is also logged once at length, with what to do (again after it served)."""
    try:
        yield
        told.clear()
    except StoreDamaged as exc:
        ref = uuid.uuid4().hex[:12]
        log.error("puzzle store damaged (ref %s): %s", ref, exc)
        raise ServiceError(grpc.StatusCode.DATA_LOSS, f"a stored puzzle is damaged; it is not served (ref {ref})") from None
    except (StoreError, sqlite3.DatabaseError) as exc:  # not InterfaceError/ProgrammingError: a bug, INTERNAL
        ref = uuid.uuid4().hex[:12]
        log.error("puzzle store %s cannot be used (ref %s): %s", path, ref, exc)
        name = getattr(exc, "sqlite_errorname", "")
        if name == "SQLITE_FULL":
            raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                               f"the puzzle store's disk is full: no new puzzle can be stored now (ref {ref})") from None
        state = file_state(path)
        if state is None and name in ("SQLITE_CORRUPT", "SQLITE_NOTADB"):
            state = "damaged"
        if state is not None:
            if told.first(state):
                log.error("puzzle store %s %s while the server runs: every puzzle call answers UNAVAILABLE "
                          "until %s. The server does not create a new store under itself.", path,
                          _STATE_LOG[state], _STATE_FIX[state])
            raise ServiceError(grpc.StatusCode.UNAVAILABLE, f"{_STATE_CLIENT[state]} (ref {ref})") from None
        if name in ("SQLITE_BUSY", "SQLITE_LOCKED"):
            raise ServiceError(grpc.StatusCode.UNAVAILABLE,
                               f"the puzzle store is locked by another process; retry later (ref {ref})") from None
        raise ServiceError(grpc.StatusCode.UNAVAILABLE,
                           f"the puzzle store cannot be used now; retry later (ref {ref})") from None


_STATE_LOG = {"removed": "was removed", "not a store": "was replaced by a file that is not a puzzle store",
              "damaged": "is damaged (SQLite cannot read it)"}
_STATE_FIX = {"removed": "the store is restored to that path (served again at once) or the server is restarted "
                         "(which starts a new, empty store there)",
              "not a store": "the store is restored to that path (served again at once) or the server is restarted "
                             "(an empty file then becomes a new, empty store; another file is refused)",
              "damaged": "it is restored from a backup (served again at once); `gardens puzzles verify --db "
                         "PATH` checks a copy"}
_STATE_CLIENT = {"removed": "the puzzle store's file was removed while the server runs; it needs a restore "
                            "or a restart by the operator",
                 "not a store": "the puzzle store's file was replaced by one that is not a puzzle store; it "
                                "needs a restore or a restart by the operator",
                 "damaged": "the puzzle store's file is damaged; it needs a restore by the operator"}


def check_store(path: str, setting: str = "GARDENS_PUZZLES_DB") -> bool:
    """At start-up: the puzzle store at `path` can be used, or ValueError naming it; True when the
    file exists. An existing file must open as a puzzle store (a file that is not one made every
    PuzzleService call and every GardenersService.CheckSolvable INTERNAL): an empty file is
    initialised, another application's SQLite database is refused unchanged, and every page must be
    well-formed (`PRAGMA quick_check`: a file with bad pages opened and then failed every call; ~35 ms
    for a 40 MB store in the page cache). A missing one must be creatable, tried with a temporary
    file in the nearest existing directory (nothing is left behind: a server that never serves a
    puzzle still creates no database); that a new store will be made is logged."""
    db = Path(path)
    what = f"puzzles_db {path} ({setting})"
    if db.exists():
        if not db.is_file():
            raise ValueError(f"{what}: not a file")
        try:
            problems = Store(db).integrity_problems()
        except StoreError as exc:
            raise ValueError(f"{what}: {exc}") from None
        except sqlite3.DatabaseError as exc:  # busy past the timeout, an I/O error while checking
            raise ValueError(f"{what}: cannot be checked (SQLite: {exc})") from None
        if problems:
            raise ValueError(f"{what}: damaged (SQLite's quick_check: {'; '.join(problems)}); "
                             "restore it from a backup")
        return True
    parent = db.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise ValueError(f"{what}: {parent} is not a directory")
    try:
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as exc:
        raise ValueError(f"{what}: cannot create files in {parent}: {exc.strerror or exc}") from None
    log.warning("puzzle store %s does not exist: a new, empty store is created there on first use "
                "(if a store was there before, stop and restore it instead)", path)
    return False


def _name(table: dict, value: int, field: str, optional: bool = False) -> str:
    if value == 0 and optional:
        return ""
    if value not in table:
        raise InputError(field, "must be one of " + ", ".join(sorted(
            (pb.PuzzleGame if table is _GAMES else pb.PuzzleDifficulty).Name(v) for v in table)), value)
    return table[value]


# a Struct answer's typed twin: (its oneof member, the typed message as plain data: the engine's form, as the
# Struct carries it)
_TYPED = {"gartenbau_garden": ("gartenbau", gartenbau.garden),
          "versailles_garden": ("versailles", lambda msg: {"placements": versailles.placements(msg)}),
          "horticulture_game": ("horticulture", lambda msg: {"days": horticulture.days(msg.days)})}


def _struct(request, kind: str):
    """The plain data of the request's Struct answer `kind`. A NaN or infinite number (which JSON
    cannot carry) is the client's bad input, named by the field (it was a ValueError with no field)."""
    try:
        return _integral(json_format.MessageToDict(getattr(request, kind)))
    except ValueError as exc:  # json_format: "Fail to serialize NaN for Value.number_value, ..."
        raise InputError(kind, "numbers must be finite (no NaN or Infinity)") from exc


def _integral(value):
    """Struct numbers arrive as floats; the engines' plain data wants integers where they are whole."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_integral(v) for v in value]
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    return value


def _verdict(v: dict) -> gardeners_pb2.CardVerdict:
    return convert.verdict_msg({**v, "cells": [tuple(c) for c in v["cells"]]})


def _filters_digest(filters) -> str:
    return hashlib.sha256(json.dumps(filters).encode()).hexdigest()[:12]


def _make_token(after: tuple[str, str], filters) -> str:
    raw = json.dumps({"after": list(after), "filters": _filters_digest(filters)}).encode()
    return base64.urlsafe_b64encode(raw).decode()


MAX_TOKEN = 1024  # characters: the listing's own tokens are ~150


def _read_token(token: str, filters) -> tuple[str, str]:
    try:
        if len(token) > MAX_TOKEN:  # a forged token of deeply nested JSON was a RecursionError (INTERNAL)
            raise ValueError("too long")
        doc = json.loads(base64.urlsafe_b64decode(token.encode()))
        after = doc["after"]
        ok = (isinstance(after, list) and len(after) == 2 and all(isinstance(x, str) for x in after)
              and doc["filters"] == _filters_digest(filters))
    except (ValueError, KeyError, TypeError, RecursionError):
        ok = False
    if not ok:
        raise InputError("page_token", "not a page token of this listing (the filters must stay the same)")
    return after[0], after[1]


_DIFFICULTY_ENUM = {v: k for k, v in _DIFFICULTIES.items()}
_GAME_ENUM = {v: k for k, v in _GAMES.items()}


def puzzle_msg(p: Puzzle) -> pb.Puzzle:
    """The puzzle as clients see it: never the answer."""
    msg = pb.Puzzle(id=str(p.id), game=_GAME_ENUM[p.id.game], variant=p.id.variant,
                    difficulty=_DIFFICULTY_ENUM[p.id.difficulty], date=p.id.date.isoformat(),
                    generator_version=p.generator_version, catalog_digest=p.catalog_digest)
    if p.id.game == "gardeners":
        pub = p.public
        decree = pb.GardenersDecree(card_ids=pub["card_ids"], size=pub["size"], deck=pub["deck"])
        if "grade" in pub:
            g = pub["grade"]
            decree.grade.CopyFrom(pb.DecreeGrade(score=g["score"], cards=g["cards"], effort=g["effort"],
                                                 forced_cells=g["forced"],
                                                 solutions_at_least=g["solutions_at_least"]))
        msg.gardeners_decree.CopyFrom(decree)
    elif p.id.game == "gartenbau":
        h = p.public["holding"]
        msg.gartenbau_holding.CopyFrom(pb.GartenbauDailyHolding(
            starter_id=h["starter"]["id"], starter_side=h["starter"]["side"], seedlings=h["seedlings"],
            plants=h["plants"], flowers=h["flowers"], flower_pot=h["tokens"].get("flower_pot", False),
            watering_can=h["tokens"].get("watering_can", False)))
    elif p.id.game == "versailles":
        msg.versailles_tiles.CopyFrom(pb.VersaillesDailyTiles(tiles=p.public["tiles"],
                                                              first_stage_tiles=p.public["first_stage_tiles"]))
    elif p.id.game == "horticulture":
        s = p.public["setup"]
        msg.horticulture_setup.CopyFrom(pb.HorticultureDailySetup(
            side=s["side"], path_start=s["path"]["start"], path_moves=s["path"]["moves"],
            gnome_column=s["gnome"][0], gnome_row=s["gnome"][1], plan_border=s["plan"]["border"],
            plan_path=s["plan"]["path"], plan_companions=s["plan"]["companions"], nursery=s["nursery"],
            path=horticulture_pb2.HorticulturePath(start=s["path"]["start"], moves=s["path"]["moves"]),
            gnome=horticulture.cell_msg(s["gnome"]),
            plan=horticulture_pb2.HorticulturePlan(border=s["plan"]["border"], path=s["plan"]["path"],
                                                   companions=s["plan"]["companions"])))
    return msg


def settings_for(config, env=None) -> PuzzleSettings:
    """The environment, overridden by ServerConfig fields puzzles_db / puzzles_past_days /
    puzzles_future_days when the config has them (their env names are the same GARDENS_PUZZLES_*)."""
    overrides = {}
    if getattr(config, "puzzles_db", ""):
        overrides["db"] = str(config.puzzles_db)
    for name in ("past_days", "future_days"):
        value = getattr(config, f"puzzles_{name}", None)
        if isinstance(value, int) and value >= 0:
            overrides[name] = value
    # a value the config holds makes the environment's irrelevant (flags win, and the config has already read
    # the environment): a bad GARDENS_PUZZLES_PAST_DAYS under --puzzles-past-days 2 was refused
    env = dict(os.environ if env is None else env)
    for name in overrides:
        env.pop({"db": "GARDENS_PUZZLES_DB", "past_days": "GARDENS_PUZZLES_PAST_DAYS",
                 "future_days": "GARDENS_PUZZLES_FUTURE_DAYS"}[name], None)
    return replace(PuzzleSettings.from_env(env), **overrides)


def register(server, runtime: Runtime) -> None:
    settings = settings_for(runtime.config)
    # where the path came from, for a refusal (it said GARDENS_PUZZLES_DB when the flag gave it)
    existed = check_store(settings.db, "--puzzles-db / GARDENS_PUZZLES_DB" if getattr(runtime.config, "puzzles_db", "")
                          else "the default; set --puzzles-db")
    servicer = PuzzleServicer(runtime, settings, create_store=not existed)
    runtime.puzzles = servicer  # for the background preparer (server/prepare.py)
    puzzles_pb2_grpc.add_PuzzleServiceServicer_to_server(servicer, server)
    runtime.add_service(SERVICE, solve_methods=SOLVE_METHODS, light_methods=LIGHT_METHODS)
