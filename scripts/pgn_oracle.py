#!/usr/bin/env python3
"""Writes what python-chess reads from every PGN file of a directory.

One line per game: file, game number (1-based), `ok` or `error`, the number
of main-line moves and the SHA-256 of the main line's UCI moves joined by
spaces. A game is `ok` when python-chess reports no error and its variant is
standard chess or Chess960. The tempo test `external_pgn` compares its own
reading with this file.

Usage: python3 scripts/pgn_oracle.py crates/tempo-chess/tests/data/external \
    > crates/tempo-chess/tests/data/external/python-chess.tsv
(python-chess 1.11.2: `pip install chess==1.11.2`)
"""
import hashlib
import io
import os
import sys

import chess
import chess.pgn


def main(directory):
    print("# file\tgame\tstatus\tmoves\tsha256 of the UCI main line (python-chess %s)" % chess.__version__)
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".pgn"):
            continue
        with open(os.path.join(directory, name), encoding="utf-8-sig", errors="replace") as f:
            text = f.read()
        stream = io.StringIO(text)
        number = 0
        while True:
            game = chess.pgn.read_game(stream)
            if game is None:
                break
            number += 1
            try:
                board = game.board()
                variant = type(board).uci_variant
            except ValueError:  # a variant python-chess does not know
                board, variant = None, None
            ok = not game.errors and variant == "chess"
            moves = []
            if ok:
                for move in game.mainline_moves():
                    moves.append(board.uci(move))
                    board.push(move)
            digest = hashlib.sha256(" ".join(moves).encode()).hexdigest()
            print("%s\t%d\t%s\t%d\t%s" % (name, number, "ok" if ok else "error", len(moves), digest))


if __name__ == "__main__":
    main(sys.argv[1])
