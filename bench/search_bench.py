"""Benchmark (run with `make bench`): the search bot's cost, the heuristic bots' speed and
the search bot's strength.

1. The search bot's cost per iteration against its floor, per game and per playout bot
   (random moves, the game's heuristic): from the same states (each game's default
   players, a few random moves in), the time of one search iteration (sample the hidden
   cards, walk the tree, play out, back up) against a bare playout by the same bot from a
   copy of the state, made before the clock starts, both in the process's CPU time (a
   busy machine's other work is not counted). Rounds alternate; the median of the
   rounds' ratios is printed with their spread.
   Target (issues 28 and 39): at most 2x the floor.
2. Heuristic bots in every seat: games a second on one core, through the runner, beside
   random bots in every seat (what the game itself costs).
   Target (issue 28): at least 500 games a second a core.
3. The ablation: each configuration of the search bot in seat 0 against heuristic bots,
   its share of the decided games with a 95% interval and its games a second on one core
   (ABLATION_GAMES each; `python bench/search_bench.py --ablation 150` for the docs').
   Target (issue 39): a fair share in three of the five games, at most 2 s a game.
4. Rotated round the seats: each game's own search against heuristic bots
   in the four multi-player games, its share of the decided games with a 95% interval
   (ROTATED_GAMES each; `--rotated 200` or `--rotated-one GAME BOT GAMES SEED` for the
   docs'). Target (issue 57): above a fair share beyond chance in three of the four, at
   most 2 CPU s a game.
5. Decision by decision (`--decisions GAME DECISIONS SAMPLES BOT ...`, not in `make
   bench`): at decisions of heuristic games, how much each search's move beats its
   guide's in win chance, each move's worth estimated by many paired rollouts, from the
   seat's samples and from the game itself (what the samples may misjudge): a change to
   the search measured in minutes where games take hours.
"""

from __future__ import annotations

import copy
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardkit.games import MODULES, load_game  # noqa: E402
from cardkit.playtest.run_setup import BotSpec, Setup  # noqa: E402
from cardkit.playtest.runner import play_into, play_many  # noqa: E402
from cardkit.playtest.stats import wilson  # noqa: E402
from cardkit.playtest.tally import Tally  # noqa: E402
from cardkit.toolkit.search import SearchBot  # noqa: E402

STATES, ITERATIONS, ROUNDS, HEURISTIC_GAMES = 20, 50, 5, 600
ABLATION_GAMES = 30  # a configuration: a quick look; the docs' table is from more
ROTATED_GAMES = 40  # a game, rotated: a quick look; the docs' figures are from more


def positions(game, count: int) -> list:
    """``count`` states of ``game`` where the player to move has a choice, a few random
    moves into a game."""
    found, index = [], 0
    while len(found) < count:
        rng = random.Random(f"position:{index}")
        state = game.new_state(game.default_players, rng)
        for _ in range(rng.randrange(1, 8)):
            if state.is_over():
                break
            legal = state.legal_moves()
            state.apply(legal[rng.randrange(len(legal))])
        if not state.is_over() and len(state.legal_moves()) > 1:
            found.append(state)
        index += 1
    return found


def search_seconds(states, game, playout: str) -> float:
    """Seconds an iteration of the search bot (samples played out by ``playout``), over
    ``states``."""
    bot = SearchBot(bots=game.bots, iterations=ITERATIONS, playout=playout)
    started = time.process_time()
    for index, state in enumerate(states):
        seat, rng = state.current_player(), random.Random(index)
        bot.choose(None, state.legal_moves(), rng,
                   lambda r, state=state, seat=seat: state.determinized(seat, r))
    return (time.process_time() - started) / (len(states) * ITERATIONS)


def floor_seconds(states, game, playout: str) -> float:
    """Seconds a bare playout by ``playout`` (the search bot's own, without the search)
    from a copy of each of ``states``."""
    bot = SearchBot(bots=game.bots, playout=playout)
    copies = [copy.deepcopy(state) for state in states for _ in range(ITERATIONS)]
    rng = random.Random(0)
    started = time.process_time()
    for state in copies:
        bot.play_out(state, rng)
    return (time.process_time() - started) / len(copies)


def rate(name: str, players: int, bot: str) -> float:
    """Games a second with ``bot`` in every seat, through the runner, one worker."""
    setup = Setup(name, players, 1, (BotSpec(bot),) * players)
    started = time.perf_counter()
    play_many(setup, HEURISTIC_GAMES, workers=1)
    return HEURISTIC_GAMES / (time.perf_counter() - started)


def spec_of(text: str) -> BotSpec:
    """'search:playout=heuristic,iterations=100' as a BotSpec."""
    name, _, rest = text.partition(":")
    params = []
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        params.append((key, value if value.isidentifier() else float(value)))
    return BotSpec(name, tuple(params))


def designer_game(name: str, folder: Path) -> tuple[str, object, str]:
    """A designer's game: Lantern Market (``examples/``) or the starter's, made in
    ``folder``: its name, cards and rules file."""
    from cardkit.deck.loader import load_deck
    from cardkit.playtest.rules_file import load_rules
    from cardkit.starter import create_deck

    deck = ROOT / "examples" / name
    if not deck.exists():
        deck = folder / name
        create_deck(deck, name)
    game = load_rules(deck / "rules.py")
    return name, game.cards_from_deck(load_deck(deck / "deck.yaml").for_rules()), \
        str(deck / "rules.py")


def strength(name: str, bot: str, games: int, workers: int = 1, seed: int = 1,
             against: str = "heuristic", designer=None) -> dict:
    """``bot`` in seat 0 against ``against`` in the others (alone, in a solitaire game):
    its share of the decided games (of all games alone), the 95% interval, and seconds a
    game on one core. ``designer``: a designer's game (:func:`designer_game`)."""
    if designer:
        name, cards, rules = designer
        from cardkit.playtest.rules_file import load_rules

        players = load_rules(rules).default_players
    else:
        cards = rules = None
        players = load_game(name).default_players
    setup = Setup(name, players, seed, (spec_of(bot),) + (spec_of(against),) * (players - 1),
                  cards, rules)
    tally = Tally(players)
    started = time.process_time()
    clock = time.perf_counter()
    play_into([setup], games, lambda _, start, chunk: tally.add(chunk), workers)
    seconds = (time.perf_counter() - clock) * workers if workers > 1 else \
        time.process_time() - started
    base = tally.games if players == 1 else tally.decided
    low, high = wilson(tally.wins[0], base)
    return {"game": name, "bot": bot, "games": games, "share": tally.wins[0] / base,
            "low": low, "high": high, "seconds": seconds / games}


def rotated(name: str, bot: str, games: int, seed: int = 1, against: str = "heuristic",
            workers: int = 1, progress: bool = False) -> dict:
    """``bot`` against ``against`` in every other seat, moving round the seats from game to
    game (so that seat order cancels out): its share of the decided games with the 95%
    interval, the fair share (one in the players), whether it is significantly below that
    share, and CPU seconds a game (the process's and its workers'). ``progress``: print
    the figures so far after each chunk of games (a long run on a busy machine)."""
    import resource

    players = load_game(name).default_players
    setup = Setup(name, players, seed, (spec_of(bot),) + (spec_of(against),) * (players - 1),
                  rotate=True)
    tally = Tally(players, rotated=True)
    started = time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)

    def figures() -> dict:
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds = time.process_time() - started + (after.ru_utime + after.ru_stime
                                                   - children.ru_utime - children.ru_stime)
        low, high = wilson(tally.bot_wins[0], tally.decided)
        fair = 1 / players
        return {"game": name, "bot": bot, "games": tally.games,
                "wins": tally.bot_wins[0], "decided": tally.decided,
                "share": tally.bot_wins[0] / max(tally.decided, 1), "low": low, "high": high,
                "fair": fair, "below": high < fair, "above": low > fair,
                "seconds": seconds / max(tally.games, 1)}

    play_into([setup], games, lambda _, start, chunk: tally.add(chunk), workers,
              (lambda done: print(rotated_line(figures()), flush=True)) if progress else None)
    return figures()


def rotated_line(found: dict) -> str:
    """A line of :func:`rotated`'s figures, saying whether the share beats a fair one
    beyond chance (the 95% interval above it), meets it (at or above it as a point
    estimate) or falls below it."""
    verdict = ("significantly BELOW fair" if found["below"] else
               "significantly ABOVE fair" if found["above"] else
               "fair share met (within chance)" if found["share"] >= found["fair"] else
               "below fair (within chance)")
    budget = "ok" if found["seconds"] <= 2 else "OVER 2 s"
    return (f"  {found['game']:8} {found['bot']:40} {found['share']:6.1%} "
            f"({found['low']:.1%}-{found['high']:.1%}) of fair {found['fair']:.1%}: {verdict}; "
            f"{found['seconds']:.2f} CPU s a game ({budget}), {found['games']} games "
            f"({found['wins']:g} wins of {found['decided']} decided)")


MULTIPLAYER = ("blofa", "bullet", "ragusa", "shapes")  # the games the rotated target counts


def rotated_strength(games: int, bots=("search",)) -> None:
    """Each bot of ``bots`` against the heuristic in every other seat, rotated round the
    seats, in each multi-player game: the target (issue 57) is more than a fair share beyond chance (the 95%
    interval above it) in three of the four, at no more than 2 CPU s a game."""
    print(f"\nthe search rotated round the seats against heuristic bots ({games} games a line; "
          "share of the decided games, 95% interval)")
    for bot in bots:
        above = met = 0
        for name in MULTIPLAYER:
            found = rotated(name, bot, games)
            within = found["seconds"] <= 2
            above += found["above"] and within
            met += not found["below"] and found["share"] >= found["fair"] and within
            print(rotated_line(found), flush=True)
        print(f"  {bot}: above a fair share beyond chance within 2 s in {above} of "
              f"{len(MULTIPLAYER)} games (target: 3); at least fair as a point estimate in "
              f"{met}", flush=True)


def decision_states(name: str, count: int) -> list:
    """``count`` decisions of heuristic games of ``name`` (three a game, at most 40 legal
    moves each, so that every move's worth can be estimated), as copies of the game."""
    game, found, index = load_game(name), [], 0
    while len(found) < count:
        rng = random.Random(f"decision:{index}")
        state = game.new_state(game.default_players, rng)
        bots = [game.bots["heuristic"]() for _ in range(game.default_players)]
        picked, made = set(rng.sample(range(60), 3)), 0
        while not state.is_over():
            seat, legal = state.current_player(), state.legal_moves()
            if len(legal) > 1:
                if made in picked and len(legal) <= 40:
                    found.append(copy.deepcopy(state))
                made += 1
            state.apply(bots[seat].choose(state.observation(seat), legal, rng))
        index += 1
    return found[:count]


def move_worths(game, state, samples: int, seed: int, truth: bool = False) -> list[float]:
    """The win chance of each legal move of ``state`` (a game of ``game``) for the seat to
    move, everyone playing on as the heuristic: ``samples`` paired rollouts of the seat's
    samples, or with ``truth`` of the game itself (its hidden cards as they are, its
    chance drawn again): what the move is truly worth in that game, which samples dealt
    without regard to what the others did may misjudge."""
    bot, seat = SearchBot(bots=game.bots, guide="heuristic"), state.current_player()
    worlds = real_worlds(state) if truth else state.samples(seat)
    rng, legal = random.Random(seed), state.legal_moves()
    total = [0.0] * len(legal)
    for _ in range(samples):
        deal, dice = rng.getrandbits(64), rng.getrandbits(64)
        for i, move in enumerate(legal):
            world = worlds(random.Random(deal))
            world.apply(move)
            bot.play_out(world, random.Random(dice), bot.guide)
            total[i] += world.returns()[seat] if world.is_over() else 0.0
    return [value / samples for value in total]


def real_worlds(state):
    """``worlds`` that hand out copies of ``state`` itself, its chance from the rng given."""
    def world(rng):
        copied = copy.deepcopy(state)
        copied.rng = rng
        return copied
    return world


def decisions(name: str, count: int, samples: int, bots, draws: int = 4) -> None:
    """Each search of ``bots`` at ``count`` decisions of heuristic games
    (:func:`decision_states`): how much the win chance of the move it plays beats that of
    its guide's move, over ``draws`` seeds a decision, and how often it leaves the guide;
    each move's worth from :func:`move_worths`, ``samples`` rollouts, twice: from the
    seat's samples (what the search itself can see) and from the game as it truly is (what
    the move is worth there). Cheaper than games: a change to the search that gains
    nothing in truth gains nothing in them. The bound is the best move's gain (biased
    upwards by the worths' own noise)."""
    game = load_game(name)
    states = decision_states(name, count)
    worths = {kind: [move_worths(game, state, samples, index, truth=kind == "truth")
                     for index, state in enumerate(states)] for kind in ("samples", "truth")}
    guide = game.bots["heuristic"]()

    def guided(state, worth) -> float:  # the guide's move's worth, over its dice
        seen, legal = state.observation(state.current_player()), state.legal_moves()
        return statistics.fmean(worth[legal.index(guide.choose(seen, legal, random.Random(d)))]
                                for d in range(20))

    def bound(kind) -> float:
        return statistics.fmean(max(worth) - guided(state, worth)
                                for state, worth in zip(states, worths[kind]))
    print(f"\n{name}: {count} decisions of heuristic games, each move's win chance from "
          f"{samples} paired rollouts; the best move's gain over the guide's: "
          f"{bound('samples'):+.4f} in the samples, {bound('truth'):+.4f} in truth")
    for text in bots:
        spec = spec_of(text)
        gains, left, started = {"samples": [], "truth": []}, 0, time.process_time()
        for index, state in enumerate(states):
            bot = game.bots[spec.name](bots=game.bots, **dict(spec.params))
            seat, legal = state.current_player(), state.legal_moves()
            bases = {kind: guided(state, worths[kind][index]) for kind in gains}
            for draw in range(draws):
                move = bot.choose(None, legal, random.Random(f"{index}:{draw}"),
                                  state.samples(seat))
                for kind, found in gains.items():
                    found.append(worths[kind][index][legal.index(move)] - bases[kind])
                left += worths["samples"][index][legal.index(move)] != bases["samples"]
        print(f"  {text:45} gain a decision {statistics.fmean(gains['samples']):+.4f} (se "
              f"{statistics.stdev(gains['samples']) / len(gains['samples']) ** 0.5:.4f}) in "
              f"the samples, {statistics.fmean(gains['truth']):+.4f} (se "
              f"{statistics.stdev(gains['truth']) / len(gains['truth']) ** 0.5:.4f}) in "
              f"truth; left the guide in {left} of {len(gains['truth'])}; "
              f"{(time.process_time() - started) / len(gains['truth']):.3f} CPU s a decision",
              flush=True)


ABLATION = (  # the docs' ablation table: each change to the search bot, measured
    ("unguided, random playouts (issue 28)", "guide=none"),
    ("unguided, reward half the lead", "guide=none,margin=0.5"),
    ("unguided, playouts by the heuristic", "guide=none,playout=heuristic"),
    ("guided by the heuristic, bias 1", "bias=1"),
    ("guided, bias 4", "bias=4"),
    ("guided, bias 20", "bias=20"),
    ("guided, samples weighed by claims, trust 0.1", "trust=0.1"),
    ("unguided, samples weighed by claims, trust 0.1", "guide=none,trust=0.1"),
    ("guided, bias 4, trust 0.1", "bias=4,trust=0.1"),
    ("the game's default", ""),
)
# what a line leaves unsaid is this, not the game's own defaults (Bluff the Bullet's differ)
ABLATION_BASE = {"bias": "20", "trust": "1"}


def ablation_bot(params: str) -> str:
    """A line of ABLATION as a bot: its parameters over ABLATION_BASE; '' the default."""
    if not params:
        return "search"
    given = dict(item.split("=") for item in params.split(","))
    return "search:" + ",".join(f"{key}={value}" for key, value in
                                {**ABLATION_BASE, **given}.items())


SLOW_PLAYOUTS = ("bullet", "ragusa", "shapes")  # a heuristic playout: 6-25x a random one
CLAIMS = ("blofa", "bullet")  # games whose samples trust weighs (State.lies); else no change


def ablation(games: int) -> None:
    """Each configuration of ABLATION in seat 0 against heuristic bots, ``games`` games a
    game, on one core: its share with its 95% interval, and games a second; then the
    heuristic itself in that seat, and the search against a designer's own bot."""
    print(f"\nthe ablation: search in seat 0, heuristic bots in the others ({games} games "
          "each, one core;\nshares of the decided games, alone the win rate)")
    for name in sorted(MODULES):
        for label, params in ABLATION + (("the heuristic itself, same seat", None),):
            if params and "playout=heuristic" in params and name in SLOW_PLAYOUTS:
                print(f"  {name:8} {label:48} not played: over 2 s a game")
                continue
            if params and "trust" in params and name not in CLAIMS:
                continue  # no claims: the same games as the default
            defaults = load_game(name).bots["search"].PARAMS
            if params == "" and all(float(defaults[key]) == float(value)
                                    for key, value in ABLATION_BASE.items()) \
                    and not defaults["compare"] and defaults["guide"] == "auto":
                continue  # the same games as "guided, bias 20"
            bot = "heuristic" if params is None else ablation_bot(params)
            found = strength(name, bot, games)
            print(f"  {name:8} {label:48} {found['share']:6.1%} ({found['low']:.1%}-"
                  f"{found['high']:.1%})  {1 / found['seconds']:7.2f} games/s", flush=True)
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        for name, own in (("duel", "builder"), ("lantern-market", "trader")):
            designer = designer_game(name, Path(folder))
            for bot in (own, "search"):
                found = strength(name, bot, games, against=own, designer=designer)
                print(f"  {name:14} {bot:8} against {own}: {found['share']:6.1%} "
                      f"({found['low']:.1%}-{found['high']:.1%})  "
                      f"{1 / found['seconds']:7.2f} games/s", flush=True)


def cost(names, playouts=("random", "heuristic")) -> None:
    """The search bot's cost in each game of ``names``: an iteration against a bare
    playout by the same bot from the same states."""
    print(f"the search bot's cost: an iteration against a bare playout by the same bot from "
          f"the same state\n({STATES} states a game, {ITERATIONS} iterations each, median "
          f"of {ROUNDS} rounds' ratios, with their spread)")
    for name in names:
        game = load_game(name)
        states = positions(game, STATES)
        for playout in playouts:
            searched, floors = [], []
            for _ in range(ROUNDS):
                searched.append(search_seconds(states, game, playout))
                floors.append(floor_seconds(states, game, playout))
            ratios = sorted(s / f for s, f in zip(searched, floors))
            ratio = statistics.median(ratios)
            verdict = "ok" if ratio <= 2 else "OVER the 2x target"
            print(f"  {name:8} {playout:9} playouts: {statistics.median(searched) * 1e6:7,.0f} "
                  f"us an iteration   floor {statistics.median(floors) * 1e6:7,.0f} us   "
                  f"ratio {ratio:.2f}x ({ratios[0]:.2f}-{ratios[-1]:.2f})   {verdict}",
                  flush=True)


def main() -> None:
    cost(sorted(MODULES))
    print(f"\nheuristic bots in every seat: games a second on one core (median of {ROUNDS} "
          f"runs of {HEURISTIC_GAMES}),\nbeside random bots in the same run: the game's own cost")
    for name in sorted(MODULES):
        players = load_game(name).default_players
        heuristic = statistics.median(rate(name, players, "heuristic") for _ in range(ROUNDS))
        random_bots = statistics.median(rate(name, players, "random") for _ in range(ROUNDS))
        verdict = "ok" if heuristic >= 500 else "UNDER the 500 target"
        print(f"  {name:8} {players} player(s): {heuristic:6,.0f} games/s   random bots "
              f"{random_bots:6,.0f}/s   {verdict}")
    ablation(ABLATION_GAMES)
    rotated_strength(ROTATED_GAMES)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--strength"]:  # one line of the ablation: GAME BOT GAMES
        print(strength(sys.argv[2], sys.argv[3], int(sys.argv[4])), flush=True)
    elif sys.argv[1:2] == ["--designer"]:  # GAME BOT AGAINST GAMES: a designer's game
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            print(strength(sys.argv[2], sys.argv[3], int(sys.argv[5]), against=sys.argv[4],
                           designer=designer_game(sys.argv[2], Path(folder))), flush=True)
    elif sys.argv[1:2] == ["--cost"]:  # the cost alone: [GAME|all [PLAYOUT]]
        cost([name for name in sys.argv[2:3] if name != "all"] or sorted(MODULES),
             sys.argv[3:4] or ("random", "heuristic"))
    elif sys.argv[1:2] == ["--rotated"]:  # GAMES [BOT ...]: the rotated target alone
        rotated_strength(int(sys.argv[2]), sys.argv[3:] or ("search",))
    elif sys.argv[1:2] == ["--rotated-one"]:  # GAME BOT GAMES [SEED]: one line of it
        import cardkit.playtest.runner

        cardkit.playtest.runner.CHUNK = 10  # the figures so far every 10 games
        print(rotated_line(rotated(sys.argv[2], sys.argv[3], int(sys.argv[4]), progress=True,
                                   seed=int(sys.argv[5]) if sys.argv[5:] else 1)), flush=True)
    elif sys.argv[1:2] == ["--decisions"]:  # GAME DECISIONS SAMPLES BOT ...: gains a move
        decisions(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:])
    elif sys.argv[1:2] == ["--ablation"]:  # the ablation alone: GAMES a configuration
        ablation(int(sys.argv[2]))
    else:
        main()
