"""Genres people pitch that the embedded studio cannot build, and the nearest one it can.

Data only. Knowing them is what lets a Minesweeper pitch be answered honestly ("the embedded studio has
no Minesweeper; it built the nearest, memory") instead of silently becoming another genre's game.
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
        id="minesweeper", name="Minesweeper",
        names=("minesweeper", "mine sweeper", "mijnenveger", "minensucher", "minesweeper-like", "campo minato",
               "prato fiorito", "buscaminas", "démineur", "demineur", "campo minado", "сапёр", "сапер", "saper",
               "扫雷", "踩地雷", "掃雷", "지뢰찾기", "マインスイーパ*"),
        mechanics=("mines", "hidden mines", "mijnen", "minen", "flag the", "flags", "vlaggetje*", "bombs hidden"),
        nearest="memory",
    ),
    UnbuiltGenre(
        id="maze-chase", name="maze chase (Pac-Man)",
        names=("pac-man", "pacman", "pac man", "ms. pac-man", "吃豆人", "吃豆", "小精靈", "팩맨", "パックマン"),
        mechanics=("maze*", "doolhof*", "labyrinth*", "labirint*", "laberinto*", "corridor*", "gangetjes", "gangen",
                   "ghost*", "spook*", "spookjes", "geist*", "fantasm*", "fantôme*", "pellet*", "dots", "bolletjes",
                   "puntjes", "迷宫", "迷宮", "幽灵", "幽靈", "유령", "미로", "迷路", "おばけ", "ゴースト"),
        nearest="snake",
    ),
    UnbuiltGenre(
        id="tower-defense", name="tower defense",
        names=("tower defense", "tower defence", "torenverdediging", "turmverteidigung", "difesa della torre",
               "塔防", "타워 디펜스", "タワーディフェンス", "bloons"),
        mechanics=("towers", "waves of enemies", "torens", "türme", "torri", "creeps", "along the path"),
        nearest="shooter",
    ),
    UnbuiltGenre(
        id="bubble-shooter", name="bubble shooter",
        names=("bubble shooter", "bubble-shooter", "puzzle bobble", "bust-a-move", "bubble pop*", "泡泡龙", "泡泡龍",
               "버블 슈터", "バブルシューター"),
        mechanics=("bubbles", "bellen", "blasen", "bolle"),
        nearest="match3",
    ),
    UnbuiltGenre(
        id="typing", name="typing game",
        names=("typing game", "typing tutor", "typeracer", "type racer", "typespel", "tippspiel",
               "打字", "타자 게임", "タイピング"),
        mechanics=("typing", "type the words", "type words", "keyboard words", "typ de woorden", "tippe die wörter"),
        nearest="simon",
    ),
    UnbuiltGenre(
        id="slingshot", name="slingshot (Angry Birds)",
        names=("angry birds", "slingshot", "sling shot", "katapult*", "catapult*", "fionda", "弹弓", "彈弓", "새총",
               "パチンコ"),
        mechanics=("launch the", "knock down", "towers of blocks", "physics"),
        nearest="shooter",
    ),
    UnbuiltGenre(
        id="rhythm", name="rhythm (Piano Tiles)",
        names=("piano tiles", "don't tap the white tile", "dont tap the white tile", "rhythm game",
               "guitar hero", "ritme*", "rhythmus*", "ritmo", "节奏", "節奏", "리듬", "リズム", "音ゲー"),
        mechanics=("rhythm", "to the beat", "on the beat", "black tiles", "white tile*"),
        nearest="whack",
    ),
    UnbuiltGenre(
        id="fruit-slicing", name="fruit slicing (Fruit Ninja)",
        names=("fruit ninja", "fruit slicing", "slice fruit", "slice the fruit", "fruit slice*", "切水果", "과일 자르기",
               "フルーツ切り"),
        mechanics=("slice*", "slash*", "swipe to cut", "cut the fruit", "snijd*", "schneide*", "taglia*"),
        nearest="whack",
    ),
    UnbuiltGenre(
        id="lane-hopper", name="lane hopper (Frogger, Crossy Road)",
        names=("frogger", "crossy road", "cross the road", "过马路", "過馬路", "길 건너기"),
        mechanics=("kikker*", "frosch*", "frog*", "roads and rivers", "lanes of traffic", "traffic", "logs", "hop across", "chicken", "kip",
                   "huhn", "pollo"),
        nearest="dodge",
    ),
    UnbuiltGenre(
        id="vertical-jumper", name="endless vertical jumper (Doodle Jump)",
        names=("doodle jump", "doodle-jump", "jump higher and higher", "涂鸦跳跃", "塗鴉跳躍", "두들 점프"),
        mechanics=("jump from platform to platform", "bounce up", "upward", "higher and higher", "climb higher",
                   "hoger en hoger", "immer höher"),
        nearest="platformer",
    ),
    UnbuiltGenre(
        id="colour-gate", name="colour gate (Color Switch)",
        names=("color switch", "colour switch", "color-switch", "colour gates", "color gates", "彩色开关", "컬러 스위치"),
        mechanics=("rotating", "multicolo*", "multi-colo*", "colour gate*", "color gate*", "matching colour",
                   "matching color", "draaiende", "rotierende", "rotanti"),
        nearest="flappy",
    ),
    UnbuiltGenre(
        id="hole", name="hole/swallow (hole.io)",
        names=("hole.io", "hole io", "black hole", "swallow everything", "黑洞", "블랙홀"),
        mechanics=("swallow*", "grow the hole", "slok*", "verschling*", "inghiott*"),
        nearest="snake",
    ),
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
        id="board", name="board or card game",
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
