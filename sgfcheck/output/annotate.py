"""An annotated copy of a record (``sgfcheck annotate``): sgfcheck's findings and verdicts written
into the game tree, for Sabaki, KaTrain, CGoban or any SGF editor.

- every finding at a move becomes a comment (``C``) at that move's node: code, rule, message;
- the root comment gets the verdict: rules and komi as read, the score under each ruleset, why
  the rows differ, the RE check and what it rests on, and the findings of the file and game;
- the scored position's node gets the territory of the game's own count as ``TB``/``TW``, dead
  stones' points included (as SGF has it), with a comment naming who judged the dead stones;
- with ``fix``, ``KM`` and ``RU`` are rewritten as sgfcheck read them; nothing else changes.

Every original node, property and variation is kept (a comment sgfcheck adds goes after the
original text, below a marker line; annotating an annotated copy replaces the old block). The
copy is UTF-8: ``CA`` says so when the original named another encoding. Markup the record
already has (``TB``/``TW``) is never overwritten; where sgfcheck's judgement differs, the comment
says how.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sgfmill import sgf_grammar

from sgfcheck.colour import BLACK, WHITE
from sgfcheck.findings import Finding
from sgfcheck.output.differences import difference_lines
from sgfcheck.output.reasons import reason_of
from sgfcheck.output.scores import basis_text, row_names
from sgfcheck.points import point_to_sgf
from sgfcheck.records.context import Origin
from sgfcheck.scoring.gamescore import FileScore, GameScore
from sgfcheck.verdict.readings import Reading
from sgfcheck.verdict.reasons import CheckStatus
from sgfcheck.version import VERSION

MARKER = f"--- sgfcheck {VERSION} ---"
"""The line above what sgfcheck adds to a comment."""
FIXABLE = ("komi", "rules")

Node = dict[str, list[bytes]]


@dataclass
class Annotated:
    """The annotated copy and what was changed beyond comments."""

    data: bytes
    games: int
    comments: int = 0
    """Nodes that got a comment (the root's included)."""
    changes: list[str] = field(default_factory=list)
    """Properties rewritten (``KM[375] -> KM[3.75]``), markup kept though it differs..."""


def _copy(tree: sgf_grammar.Coarse_game_tree) -> sgf_grammar.Coarse_game_tree:
    """A deep copy of a game tree (iterative: trees may be deep)."""
    top = sgf_grammar.Coarse_game_tree()
    stack = [(tree, top)]
    while stack:
        source, target = stack.pop()
        target.sequence = [{k: list(v) for k, v in node.items()} for node in source.sequence]
        for child in source.children:
            copy = sgf_grammar.Coarse_game_tree()
            target.children.append(copy)
            stack.append((child, copy))
    return top


def _main_line(tree: sgf_grammar.Coarse_game_tree) -> list[Node]:
    return list(sgf_grammar.main_sequence_iter(tree))


def _comment(node: Node, lines: list[str]) -> None:
    """Add ``lines`` to the node's comment below the marker (replacing an older sgfcheck
    block)."""
    text = "\n".join(lines)
    old = sgf_grammar.text_value(node["C"][0]).decode("utf-8", "replace") if "C" in node else ""
    cut = old.find("--- sgfcheck ")
    if cut >= 0:
        old = old[:cut].rstrip("\n")
    joined = f"{old}\n\n{MARKER}\n{text}" if old else f"{MARKER}\n{text}"
    node["C"] = [sgf_grammar.escape_text(joined.encode("utf-8"))]


def finding_line(f: Finding) -> str:
    where = f" at {f.point}" if f.point else ""
    return f"{f.code.code} {f.code.rule} ({f.severity.value}){where}: {f.message}"


def _verdict_lines(game: GameScore) -> list[str]:
    check = game.check
    out = []
    context = check.context
    if context is not None:
        out.append(f"Rules: {context.ruleset.name} ({context.rules_detail}), komi "
                   f"{context.komi_with_source}, handicap {check.game.handicap}")
    out.append(f"Verdict: {game.verdict.value}")
    if game.error:
        out.append(f"Not scored: {game.error}")
    elif game.dead is not None and game.position is not None:
        at = "the end" if game.final else f"move {game.scored_move}"
        out.append(f"Scored at {at}; dead stones ({game.dead.source.label}): "
                   + game.dead.by_colour(game.position.board))
        for score, name in zip(game.scores, row_names(game), strict=True):
            out.append(f"  {name}: {score.result_text} ({score.method.value}; "
                       f"Black {score.black.total:g}, White {score.white.total:g})")
        explained = difference_lines(game.differences)
        if explained:
            out.append("Why the rows differ:")
            out.extend(f"  {line.strip()}" for line in explained)
    rc = game.result_check
    if rc is not None:
        out.append(f"RE check: {rc.status.value} - {reason_of(game)}")
        if rc.status is not CheckStatus.NOT_SCORED:
            out.append(f"  rests on: {basis_text(rc, game.dead)}")
    return out


def annotate_game(tree: sgf_grammar.Coarse_game_tree, game: GameScore, file_findings:
                  list[Finding], fix: frozenset[str], encoding: str | None,
                  changes: list[str]) -> tuple[sgf_grammar.Coarse_game_tree, int]:
    """An annotated copy of one game tree; returns it and the number of nodes commented."""
    tree = _copy(tree)
    nodes = _main_line(tree)
    root = nodes[0]
    check = game.check
    record = check.game
    commented = 1

    # Findings at moves, at their nodes.
    at_node: dict[int, list[str]] = {}
    general: list[str] = [finding_line(f) for f in file_findings]
    node_of_move = ({number: move.node for number, move in check.line.numbered_moves()}
                    if check.line is not None else {})
    for f in game.findings:
        node = node_of_move.get(f.move) if f.move is not None else None
        if node is None or node >= len(nodes):
            general.append((f"move {f.move}: " if f.move is not None else "") + finding_line(f))
        else:
            at_node.setdefault(node, []).append(f"move {f.move}: {finding_line(f)}")

    # Territory of the game's own count at the scored position.
    if game.position is not None and game.dead is not None and game.scores:
        own = game.scores[0]
        counted = game.counted(own)
        width = game.position.board.width
        points = {c: sorted(p for p, owner in counted.territory.items() if owner is c)
                  for c in (BLACK, WHITE)}
        final = nodes[-1]  # the end of the main line: the position scored
        values = {ident: [point_to_sgf((p % width, p // width)).encode("ascii")
                          for p in points[c]] for ident, c in (("TB", BLACK), ("TW", WHITE))}
        note = [f"Territory as {own.ruleset.name} counts it (TB/TW): Black "
                f"{len(points[BLACK])}, White {len(points[WHITE])}; dead stones from "
                f"{game.dead.source.value}"]
        if game.finish_of(own) is not None:
            note[0] += ("; at the end of the solved line (the last open points played out as "
                        "well as possible by both sides)")
        uncertain = game.dead.uncertain_names(game.position.board)
        if uncertain:
            note.append("uncertain: " + ", ".join(uncertain))
        if "TB" in final or "TW" in final:
            same = all(sorted(final.get(k, [])) == sorted(v) for k, v in values.items())
            if same:
                note[0] = note[0].replace("(TB/TW)", "(the record's TB/TW, unchanged)")
            else:
                note.append("the record's own TB/TW are kept; they differ from this count")
                changes.append(f"game {record.index + 1}: TB/TW kept as recorded (they differ "
                               "from sgfcheck's count)")
        else:
            for ident, vals in values.items():
                if vals:
                    final[ident] = vals
        if final is root:
            general.extend(note)
        else:
            at_node.setdefault(len(nodes) - 1, []).extend(note)

    # Corrections asked for: the reading under which RE was reproduced when it is not the
    # record's own (a Fox KM[0] played with 6.5), else the values as sgfcheck read them.
    matched = matched_reading(game)
    if "komi" in fix and record.komi_raw is not None:
        komi = matched.ruleset.komi if matched is not None else record.komi
        new = f"{komi:g}" if komi is not None else None
        if new is not None and record.komi_raw.strip() != new:
            why = f" (RE matches under {matched.label})" if matched is not None else ""
            general.append(f"fixed: KM[{record.komi_raw}] -> KM[{new}]{why}")
            changes.append(f"game {record.index + 1}: KM[{record.komi_raw}] -> KM[{new}]{why}")
            root["KM"] = [new.encode("ascii")]
    if "rules" in fix and check.context is not None:
        name = check.context.ruleset.name
        if matched is not None and matched.ruleset.name != name:
            name = matched.ruleset.name
        elif check.context.rules_origin is Origin.RECORD:
            name = ""  # the record's RU was read as it stands
        if name:
            old = record.rules_raw
            shown = f"RU[{old}]" if old is not None else "no RU"
            general.append(f"fixed: {shown} -> RU[{name}]")
            changes.append(f"game {record.index + 1}: {shown} -> RU[{name}]")
            root["RU"] = [sgf_grammar.escape_text(name.encode("utf-8"))]
    if encoding and encoding.lower().replace("_", "-") not in ("utf-8", "ascii"):
        if "CA" in root:
            general.append(f"written in UTF-8: CA[{encoding}] -> CA[UTF-8]")
            changes.append(f"game {record.index + 1}: CA -> UTF-8 (the copy is UTF-8)")
        root["CA"] = [b"UTF-8"]
    for index, lines in sorted(at_node.items()):
        _comment(nodes[index], lines)
        commented += 1
    _comment(root, _verdict_lines(game) + (["Findings:"] + [f"  {g}" for g in general]
                                            if general else []))
    return tree, commented


def matched_reading(game: GameScore) -> Reading | None:
    """The reading other than the record's own under which the result check matched RE."""
    rc = game.result_check
    if rc is None or rc.status is not CheckStatus.MATCH or rc.under is None:
        return None
    return None if rc.under.own else rc.under


def annotate(scored: FileScore, fix: frozenset[str] = frozenset()) -> Annotated:
    """The annotated copy of a scored file: every game of it, in order."""
    loaded = scored.check.loaded
    parts = []
    out = Annotated(b"", 0)
    by_index = {g.check.game.index: g for g in scored.games}
    for record in loaded.games:
        game = by_index.get(record.index)
        if record.tree is None:
            continue
        if game is None:  # not playable: copied as it is
            parts.append(sgf_grammar.serialise_game_tree(_copy(record.tree)))
            continue
        file_findings = loaded.findings if record.index == 0 else []
        tree, commented = annotate_game(record.tree, game, file_findings, fix,
                                        loaded.encoding, out.changes)
        parts.append(sgf_grammar.serialise_game_tree(tree))
        out.comments += commented
        out.games += 1
    out.data = b"".join(parts)
    return out
