"""Genres people pitch that the embedded studio cannot build, and the nearest one it can.

Data only. Knowing them is what lets a pinball pitch be answered honestly ("the embedded studio has
no pinball; it built the nearest, breakout") instead of silently becoming another genre's game.
`names` name the game outright (3 points each, as the catalogue's strong words); `mechanics` describe it
(1 point each: two of them, or a name, mean the pitch asks for this game). Keyword syntax as in the
catalogue: a trailing `*` matches any word that starts with it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import overload

from pydantic import BaseModel, ConfigDict

from crumb.genres.registry import Registry, registry


class UnbuiltGenre(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    names: tuple[str, ...]
    mechanics: tuple[str, ...] = ()
    nearest: str


_ALL: tuple[UnbuiltGenre, ...] = (
    UnbuiltGenre(
        id="racing", name="racing",
        names=("race car", "racecar", "go-kart*", "karting", "mario kart", "racespel", "rennspiel", "autorennen", "corsa", "赛车", "賽車",
               "레이싱", "レース", "juego de carreras", "carreras de coches", "course de voitures", "jeu de course",
               "jogo de corrida", "corrida de carros", "гонк*", "wyścig*", "yarış*", "перегон*", "đua xe"),
        mechanics=("racing", "laps", "race track", "overtake", "finish line", "rondes", "vueltas", "adelanta*",
                   "línea de meta", "circuit*", "tours de piste", "dépasse*", "ligne d'arrivée", "voltas",
                   "ultrapass*", "linha de chegada", "трасс*", "обгон*", "финиш*", "okrążeni*", "tor wyścigowy",
                   "wyprzedza*", "turlar", "sollama", "bitiş çizgisi", "траса", "обганя*",
                   "фініш*", "vòng đua", "đường đua", "về đích"),
        nearest="runner",
    ),
    UnbuiltGenre(
        id="board", name="board or card",
        names=("chess", "checkers", "draughts", "tic-tac-toe", "tic tac toe", "noughts and crosses", "sudoku",
               "solitaire", "mahjong", "poker", "blackjack", "schaak*", "dammen", "schach", "scacchi",
               "象棋", "围棋", "圍棋", "五子棋", "체스", "바둑", "将棋", "オセロ", "ajedrez", "juego de damas", "tres en raya",
               "échecs", "jeu de dames", "morpion", "xadrez", "jogo da velha", "шахмат*", "шашк*", "крестики-нолики",
               "szachy", "warcaby", "kółko i krzyżyk", "satranç", "dama oyunu", "tavla", "шахи", "шашки", "хрестики-нулики",
               "cờ vua", "cờ tướng", "cờ caro", "cờ vây", "pasjans*", "пасьянс*", "solitario"),
        mechanics=("card game", "deck of cards", "kaartspel", "kartenspiel", "board game", "bordspel", "brettspiel",
                   "juego de cartas", "baraja", "juego de mesa", "jeu de cartes", "jeu de société", "jogo de cartas",
                   "baralho", "jogo de tabuleiro", "карточная игра", "колода карт", "настольная игра", "gra karciana",
                   "talia kart", "gra planszowa", "kart oyunu", "iskambil", "masa oyunu", "карткова гра", "колода карт",
                   "настільна гра", "bài tây", "bộ bài", "cờ bàn", "trò chơi bài"),
        nearest="memory",
    ),
    UnbuiltGenre(
        id="pinball", name="pinball",
        names=("pinball", "flipperkast", "弹球", "彈珠台", "핀볼", "ピンボール", "пинбол*", "пінбол*", "máy bắn bi"),
        mechanics=("flipper*", "bumpers", "flíper*", "бампер*", "bumper*"),
        nearest="breakout",
    ),
    UnbuiltGenre(
        id="fishing", name="fishing",
        names=("fishing game", "fishing", "vissen", "angeln", "pesca", "钓鱼", "釣魚", "낚시", "釣り", "pêche",
               "рыбалк*", "wędkowanie", "łowienie ryb", "balık tutma", "balıkçılık", "риболов*", "câu cá"),
        mechanics=("catch fish", "reel in", "rod", "hook the fish", "caña de pescar", "canne à pêche", "vara de pesca",
                   "удочк*", "wędk*", "olta*", "вудк*", "cần câu"),
        nearest="whack",
    ),
    UnbuiltGenre(
        id="golf", name="golf",
        names=("golf", "mini golf", "minigolf", "高尔夫", "골프", "ゴルフ", "гольф*", "mini-golf", "minigolf*", "golfe"),
        mechanics=("hole in one", "putt*", "hoyo en uno", "trou en un", "лунк*", "dołek", "dołk*",
                   "lỗ golf"),
        nearest="breakout",
    ),
    UnbuiltGenre(
        id="quiz", name="quiz or trivia",
        names=("quiz", "trivia", "multiple choice", "vragenspel", "问答", "퀴즈", "クイズ", "preguntas y respuestas",
               "cuestionario", "questionnaire", "jeu de questions", "perguntas e respostas", "викторин*", "квиз",
               "teleturniej*", "bilgi yarışması", "вікторин*", "câu đố", "đố vui", "trắc nghiệm"),
        mechanics=("answer questions", "right answer", "questions", "preguntas", "respuesta correcta", "répondre",
                   "bonne réponse", "perguntas", "resposta certa", "вопрос*", "правильный ответ", "pytania", "pytań",
                   "poprawna odpowiedź", "sorular*", "doğru cevap", "питання", "правильна відповідь", "câu hỏi",
                   "trả lời", "đáp án"),
        nearest="simon",
    ),
)


@lru_cache(maxsize=4)
def _still_unbuilt(reg: Registry) -> tuple[UnbuiltGenre, ...]:
    """The entries no registered genre has taken: a genre folder whose strong words name one of them
    (a "minesweeper" folder, say) is built instead of answered with the nearest."""
    claimed = {w for g in reg.genres for words in g.genre.words.values() for w in words.strong}
    ids = set(reg.ids())
    return tuple(u for u in _ALL if u.id not in ids and not claimed.intersection(u.names))


class _Unbuilt(Sequence[UnbuiltGenre]):
    """UNBUILT as the registry leaves it, read on every use (so a root's [genres] paths count)."""

    @overload
    def __getitem__(self, i: int) -> UnbuiltGenre: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[UnbuiltGenre]: ...
    def __getitem__(self, i: int | slice) -> UnbuiltGenre | Sequence[UnbuiltGenre]:
        return _still_unbuilt(registry())[i]

    def __len__(self) -> int:
        return len(_still_unbuilt(registry()))

    def __iter__(self) -> Iterator[UnbuiltGenre]:
        return iter(_still_unbuilt(registry()))


UNBUILT: Sequence[UnbuiltGenre] = _Unbuilt()


def unbuilt(genre_id: str) -> UnbuiltGenre:
    return next(g for g in _ALL if g.id == genre_id)
